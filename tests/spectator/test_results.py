"""A match's result in words, from the outcome the arbiter stores."""

from __future__ import annotations

from games.interface import Outcome, TieBreak
from games.values import to_plain
from spectator.results import result

NAMES = ("ada", "bob", "cy")


def test_a_single_winner_with_every_score_in_rank_order() -> None:
    found = result(to_plain(Outcome.ranked([21, 36, 18])), NAMES)  # type: ignore[arg-type]
    assert found == {
        "winners": [1],
        "scores": [21, 36, 18],
        "tiebreaks": "",
        "text": "bob wins: bob 36, ada 21, cy 18",
    }


def test_the_tie_break_that_decided_is_named_with_the_tied_values() -> None:
    outcome = Outcome.ranked([30, 30, 10], [TieBreak("tickets", (4, 7, 9))])
    found = result(to_plain(outcome), NAMES)  # type: ignore[arg-type]
    assert found is not None and found["winners"] == [1]
    assert found["tiebreaks"] == "tickets (ada 4, bob 7)"
    assert found["text"] == "bob wins: bob 30, ada 30, cy 10; tie-break: tickets (ada 4, bob 7)"


def test_a_shared_win_and_a_forfeit() -> None:
    outcome = Outcome.ranked([12, 12, 20]).with_forfeits([2])
    found = result(to_plain(outcome), NAMES)  # type: ignore[arg-type]
    assert found is not None and found["winners"] == [0, 1]
    assert found["text"] == "ada and bob share the win: ada 12, bob 12, cy 20; cy forfeited"


def test_a_solo_match_against_its_reference_player() -> None:
    outcome = Outcome.ranked([25], detail={"reference": {"player": "automa:2", "score": 31}})
    found = result(to_plain(outcome), ("ada",))  # type: ignore[arg-type]
    assert found is not None and found["text"] == "ada loses to automa:2, 25 to 31"


def test_no_outcome_no_result() -> None:
    assert result(None, NAMES) is None
