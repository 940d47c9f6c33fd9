"""Live Elo with pinned seats (ladder.elo.pinned_update): pinned players never move, the others
move exactly as in an ordinary match against them at their pins."""

from __future__ import annotations

import random

import pytest

from ladder import elo


def test_a_pinned_seat_never_moves_and_is_read_at_its_pin() -> None:
    update = elo.pinned_update(
        [1500.0, 1234.0, 1600.0, 1400.0], [30, 30, 5, 30], [1, 2, 3, 4], [None, 1800.0, None, None]
    )
    assert update.ratings[1] == 1800.0 and update.deltas[1] == 0.0
    plain = elo.update([1500.0, 1800.0, 1600.0, 1400.0], [30, 30, 5, 30], [1, 2, 3, 4])
    for seat in (0, 2, 3):
        assert update.deltas[seat] == plain.deltas[seat]
        assert update.ratings[seat] == plain.ratings[seat]


def test_beating_a_pinned_player_gains_what_beating_an_equal_bot_would() -> None:
    update = elo.pinned_update([1500.0, 1500.0], [30, 30], [1, 2], [None, 1500.0])
    assert update.deltas == (16.0, 0.0)
    assert update.ratings == (1516.0, 1500.0)


def test_several_pins_in_one_match_and_a_match_of_pins_only() -> None:
    update = elo.pinned_update([1500.0, 0.0, 0.0], [0, 0, 0], [2, 1, 3], [None, 1700.0, 1300.0])
    assert update.ratings[1:] == (1700.0, 1300.0)
    plain = elo.update([1500.0, 1700.0, 1300.0], [0, 0, 0], [2, 1, 3])
    assert update.deltas[0] == plain.deltas[0]
    still = elo.pinned_update([1.0, 2.0], [3, 4], [1, 2], [1700.0, 1300.0])
    assert still.ratings == (1700.0, 1300.0) and still.deltas == (0.0, 0.0)


def test_without_pins_it_is_the_ordinary_update() -> None:
    rng = random.Random(7)
    for _ in range(200):
        n = rng.randint(2, 6)
        ratings = [rng.uniform(1000, 2000) for _ in range(n)]
        games = [rng.randint(0, 40) for _ in range(n)]
        ranks = [rng.randint(1, n) for _ in range(n)]
        assert elo.pinned_update(ratings, games, ranks, [None] * n) == elo.update(
            ratings, games, ranks
        )


def test_the_solo_reference_update_is_the_two_seat_case() -> None:
    for ranks in ((1, 2), (2, 1), (1, 1)):
        for games in (0, 30):
            solo = elo.reference_update(1432.5, games, ranks, 1600.0)
            pinned = elo.pinned_update([1432.5, 1.0], [games, 0], list(ranks), [None, 1600.0])
            assert solo == pinned


def test_a_pinned_ladder_keeps_the_pins_and_the_others_find_their_level() -> None:
    """Two pins 400 apart and a bot that beats the low pin as often as a bot 200 above it
    would, and loses to the high pin as often as one 200 below it: its live Elo settles
    between them, near the middle."""
    rng = random.Random(3)
    rating, games = 1500.0, 0
    low, high = 1300.0, 1700.0
    for _ in range(4000):
        pin = rng.choice((low, high))
        wins = rng.random() < elo.expected_score(1500.0, pin)
        ranks = [1, 2] if wins else [2, 1]
        update = elo.pinned_update([rating, pin], [games, 0], ranks, [None, pin])
        assert update.ratings[1] == pin
        rating, games = update.ratings[0], games + 1
    assert rating == pytest.approx(1500.0, abs=60.0)


def test_pins_are_checked() -> None:
    with pytest.raises(ValueError):
        elo.pinned_update([1500.0, 1500.0], [0, 0], [1, 2], [None])
    with pytest.raises(ValueError):
        elo.pinned_update([1500.0, 1500.0], [0, 0], [1, 2], [None, float("nan")])
