"""Seat advantage from a match log: exact per-match scores, and an interval that finds a planted
first-seat edge and covers zero when there is none."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ladder.seats import seat_advantage, seat_scores


def test_seat_scores_of_one_match() -> None:
    assert seat_scores([1, 2]) == [1.0, 0.0]
    assert seat_scores([2, 1, 2]) == [0.25, 1.0, 0.25]
    assert seat_scores([1, 1, 1, 1]) == [0.5] * 4
    with pytest.raises(ValueError, match="two or more"):
        seat_scores([1])


@given(st.lists(st.integers(1, 8), min_size=2, max_size=8))
def test_seat_scores_average_one_half(ranks: list[int]) -> None:
    """Every head-to-head point one seat wins another loses: the mean over seats is 1/2."""
    assert sum(seat_scores(ranks)) / len(ranks) == pytest.approx(0.5)


def _two_player_log(rng: Random, first_wins: float, n: int) -> list[tuple[int, int]]:
    return [(1, 2) if rng.random() < first_wins else (2, 1) for _ in range(n)]


def test_a_planted_first_seat_edge_is_found() -> None:
    (table,) = seat_advantage(_two_player_log(Random(1), 0.6, 2000))
    first = table.seats[0]
    assert table.players == 2 and table.matches == 2000
    assert first.low > 0.5 and first.low <= 0.6 <= first.high
    assert 50 < first.elo < 100  # 0.6 is about +70 Elo
    assert table.seats[1].score == pytest.approx(1 - first.score)


def test_no_edge_gives_an_interval_around_one_half() -> None:
    covered = 0
    rng = Random(2)
    for _ in range(100):
        (table,) = seat_advantage(_two_player_log(rng, 0.5, 400))
        covered += table.seats[0].low <= 0.5 <= table.seats[0].high
    assert covered >= 88  # a 95% interval, with slack for 100 trials


def test_player_counts_are_kept_apart_and_solo_is_skipped() -> None:
    tables = seat_advantage([(1, 2), (2, 1, 3), (1,), (1, 2, 3), (2, 1)])
    assert [(t.players, t.matches) for t in tables] == [(2, 2), (3, 2)]
    assert tables[0].seats[0].low == 0.0 and tables[0].seats[0].high == 1.0
