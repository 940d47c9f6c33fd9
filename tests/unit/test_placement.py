"""Where a match should live (server/placement.py): pure choice from who holds which streams."""

from __future__ import annotations

from server.placement import choose, seats_held


def test_seats_are_counted_per_arbiter_each_bot_seat_once_per_arbiter() -> None:
    holders = {1: ["a", "b", "b"], 2: ["b"], 3: []}
    assert seats_held([1, 2, 3], holders) == {"a": 1, "b": 2}
    assert seats_held([2, 2], holders) == {"b": 2}, "a bot seated twice counts twice"
    assert seats_held([4], holders) == {}


def test_the_arbiter_holding_most_seats_hosts_and_a_tie_stays_here() -> None:
    assert choose("a", {"a": 1, "b": 2}) == "b"
    assert choose("a", {"a": 2, "b": 2}) == "a"
    assert choose("a", {}) == "a"
    assert choose("a", {"c": 1, "b": 1}) == "b", "ties elsewhere: the first name, everywhere"
    assert choose("a", {"a": 0, "b": 0}) == "a"
