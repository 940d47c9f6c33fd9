"""The validation gate and probation as pure decisions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workers.standing import (
    Policy,
    ValidationMatch,
    inherited_change,
    probation_change,
    validation_change,
)


def _match(game: str, status: str = "finished", *faults: str) -> ValidationMatch:
    return ValidationMatch(game, f"m-{game}-{status}", status, faults)


def test_validation_waits_for_every_match() -> None:
    assert validation_change([_match("movie-tricks")], expected=2) is None


def test_clean_validation_admits_to_rated_play() -> None:
    change = validation_change([_match("movie-tricks"), _match("magic-trick")], expected=2)
    assert change is not None and change.state == "rated" and change.kind == "validated"
    assert "magic-trick, movie-tricks" in change.message


def test_a_fault_fails_validation_at_once_and_says_where_and_why() -> None:
    change = validation_change(
        [_match("movie-tricks", "finished", "timeout", "timeout", "illegal")], expected=4
    )
    assert change is not None and change.state == "failed"
    assert "movie-tricks match m-movie-tricks-finished: 1 illegal, 2 timeout" in change.message
    assert "GetMatch" in change.message and "new version" in change.message


def test_a_void_validation_match_fails_it() -> None:
    change = validation_change([_match("movie-tricks", "void")], expected=1)
    assert change is not None and change.state == "failed" and "void" in change.message


def test_policy_is_checked() -> None:
    with pytest.raises(ValueError):
        Policy(threshold=1.0)
    with pytest.raises(ValueError):
        Policy(window=0)


POLICY = Policy(window=10, threshold=0.3, recover=5)


def test_probation_needs_a_full_window_over_the_threshold() -> None:
    assert probation_change("rated", [1] * 9, POLICY) is None
    assert probation_change("rated", [0] * 7 + [1] * 3, POLICY) is None  # 30%: not above
    change = probation_change("rated", [0] * 6 + [1, 1, 1, 1], POLICY)
    assert change is not None and change.state == "probation"
    assert "4 of the last 10" in change.message


def test_probation_ends_after_enough_clean_matches_in_a_row() -> None:
    assert probation_change("probation", [0] * 4, POLICY) is None
    assert probation_change("probation", [1, 0, 0, 0, 0], POLICY) is None
    change = probation_change("probation", [1, 0, 0, 0, 0, 0], POLICY)
    assert change is not None and change.state == "rated" and change.kind == "probation-ended"


@given(st.lists(st.integers(0, 3), max_size=40))
def test_probation_starts_exactly_above_the_threshold(faults: list[int]) -> None:
    change = probation_change("rated", faults, POLICY)
    window = faults[-POLICY.window :]
    expected = len(window) == POLICY.window and sum(1 for n in window if n) > 3
    assert (change is not None) == expected


@pytest.mark.parametrize("state", ["validating", "failed", "disabled"])
def test_other_states_are_not_moved_by_faults(state: str) -> None:
    assert probation_change(state, [1] * 30, POLICY) is None
    assert probation_change(state, [0] * 30, POLICY) is None


@pytest.mark.parametrize(
    ("inherited", "state"),
    [
        ("rated", "rated"),
        ("probation", "probation"),
        ("disabled", "disabled"),
        ("failed", "validating"),
        ("validating", "validating"),
        (None, "validating"),
    ],
)
def test_a_new_version_takes_its_predecessors_standing(inherited: str | None, state: str) -> None:
    """Finding 6 of issue #24: a version bump while on probation stays on probation (and needs
    its clean matches), it does not restart at validation and escape after one match."""
    change = inherited_change("x", inherited, ["magic-trick"], Policy())
    assert change.state == state
    assert change.message.startswith("new version after x;")


def test_without_a_gate_a_new_bot_is_rated_at_once() -> None:
    assert inherited_change(None, None, ["magic-trick"], Policy(matches=0)).state == "rated"
