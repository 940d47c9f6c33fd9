"""The shared interface: ranking with ties, options, move codecs."""

from __future__ import annotations

import pytest

from games import get
from games.errors import MalformedMove, OptionError
from games.interface import Outcome, TieBreak, parse_options, rank_by_keys
from games.magic_trick.moves import KeepSleeveEmpty, PlayCard, SortCard


@pytest.mark.parametrize(
    ("keys", "ranks"),
    [
        ([(5,), (3,), (4,)], (1, 3, 2)),
        ([(5,), (5,), (4,)], (1, 1, 3)),
        ([(1,), (1,), (1,), (1,)], (1, 1, 1, 1)),
        ([(2, 0), (2, 1), (1, 9)], (2, 1, 3)),
    ],
)
def test_competition_ranking(keys: list[tuple[int, ...]], ranks: tuple[int, ...]) -> None:
    assert rank_by_keys(keys) == ranks


def test_outcome_ranked_applies_tiebreaks_in_order() -> None:
    outcome = Outcome.ranked(
        [7, 7, 7, 2],
        [TieBreak("more is better", (1, 1, 0, 9)), TieBreak("fewer", (3, 2, 0, 0), False)],
    )
    assert outcome.ranks == (2, 1, 3, 4)
    assert outcome.winners == (1,)


def test_options_parse_and_validate() -> None:
    game = get("magic-trick")
    assert parse_options(game, []) == {"prestige": True}
    assert parse_options(game, ["prestige=false"]) == {"prestige": False}
    assert parse_options(game, ["prestige=ON"]) == {"prestige": True}
    for bad in (["prestige=maybe"], ["colour=red"], ["prestige"]):
        with pytest.raises(OptionError):
            parse_options(game, bad)
    with pytest.raises(OptionError):
        game.resolve_options({"prestige": 1})


@pytest.mark.parametrize("move", [PlayCard(3), SortCard("red", 7), KeepSleeveEmpty()])
def test_move_codec_round_trips(move: object) -> None:
    game = get("magic-trick")
    assert game.decode_move(game.encode_move(move)) == move


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"kind": "teleport"},
        {"kind": "play"},
        {"kind": "play", "slot": "3"},
        {"kind": "play", "slot": True},
        {"kind": "play", "slot": 1, "extra": 2},
        {"slot": 1},
    ],
)
def test_malformed_moves_are_typed_errors(data: object) -> None:
    with pytest.raises(MalformedMove):
        get("magic-trick").decode_move(data, seat=2)
