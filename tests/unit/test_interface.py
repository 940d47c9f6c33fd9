"""The shared interface: ranking with ties, options, move codecs."""

from __future__ import annotations

import pytest

from games import get
from games.errors import IllegalMove, MalformedMove, OptionError
from games.interface import Outcome, TieBreak, parse_options, rank_by_keys
from games.magic_trick.moves import KeepSleeveEmpty, PlayCard, SortCard
from games.magic_trick.state import MagicTrickState


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


def test_an_engine_cannot_replace_the_gate() -> None:
    """`State.apply` and `State.is_legal` are the one place moves are checked: an engine that
    defines its own is refused when its class is made."""
    for name in ("apply", "is_legal"):
        with pytest.raises(TypeError, match=name):
            type("Lenient", (MagicTrickState,), {name: lambda self, seat, move: None})


def test_an_equal_move_made_elsewhere_is_applied_and_a_stale_one_refused() -> None:
    state = get("magic-trick").new(3, "gate")
    (seat, *_) = state.to_move()
    legal = state.legal_moves(seat)
    copy = state.clone()
    made_elsewhere = get("magic-trick").decode_move(get("magic-trick").encode_move(legal[0]))
    assert made_elsewhere is not legal[0]
    copy.apply(seat, made_elsewhere)
    state.apply(seat, legal[0])
    assert copy == state
    stale = next(m for m in legal if m not in state.legal_moves(seat))
    before = state.clone()
    with pytest.raises(IllegalMove):
        state.apply(seat, stale)
    assert state == before
