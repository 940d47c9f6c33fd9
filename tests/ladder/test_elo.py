"""Live Elo: golden values worked out by hand, and the properties every match must keep."""

from __future__ import annotations

import math
from random import Random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ladder.elo import (
    DEFAULT_PARAMS,
    GRAIN,
    EloParams,
    expected_score,
    is_provisional,
    k_factor,
    update,
)

ESTABLISHED = DEFAULT_PARAMS.provisional_games
# Expected scores by hand, E(d) = 1 / (1 + 10 ** (-d / 400)):
E100 = 0.6400649998028851  # 1 / (1 + 10 ** -0.25)
E200 = 0.7597469266479578  # 1 / (1 + 10 ** -0.5)
# Each per-pair transfer is rounded to GRAIN, so a seat is at most (N - 1) * GRAIN / 2 off the
# textbook value.
CLOSE = 1e-5


def test_expected_score_matches_the_textbook_formula() -> None:
    assert expected_score(1600, 1500) == pytest.approx(E100, abs=1e-15)
    assert expected_score(1500, 1700) == pytest.approx(1 - E200, abs=1e-15)
    assert expected_score(1234.5, 1234.5) == 0.5


def test_two_equal_players_winner_takes_half_of_k() -> None:
    result = update([1500.0, 1500.0], [ESTABLISHED] * 2, [1, 2])
    assert result.deltas == (16.0, -16.0)
    assert result.ratings == (1516.0, 1484.0)


def test_two_players_underdog_wins() -> None:
    result = update([1600.0, 1400.0], [ESTABLISHED] * 2, [2, 1])
    # The favourite expected E200 and scored 0: 32 * (0 - 0.7597469...) = -24.31190...
    assert result.deltas[0] == pytest.approx(-32 * E200, abs=CLOSE)
    assert result.deltas[1] == pytest.approx(32 * E200, abs=CLOSE)
    assert result.deltas[0] == pytest.approx(-24.311902, abs=CLOSE)


def test_two_players_tie_is_half_a_point() -> None:
    result = update([1600.0, 1400.0], [ESTABLISHED] * 2, [1, 1])
    # 32 * (0.5 - 0.7597469...) = -8.31190...
    assert result.deltas[0] == pytest.approx(-8.311902, abs=CLOSE)
    assert result.deltas[1] == pytest.approx(8.311902, abs=CLOSE)


def test_four_equal_players_k_is_shared_over_three_opponents() -> None:
    result = update([1500.0] * 4, [ESTABLISHED] * 4, [1, 2, 3, 4])
    # K / (N - 1) = 32 / 3 per pairing; first scores +1/2 three times, second +1/2 - 1/2 + 1/2.
    expected = (16.0, 16 / 3, -16 / 3, -16.0)
    assert result.deltas == pytest.approx(expected, abs=CLOSE)


def test_four_players_with_a_tie_for_first() -> None:
    result = update([1600.0, 1500.0, 1500.0, 1400.0], [ESTABLISHED] * 4, [2, 1, 1, 4])
    k = 32 / 3
    # Seat 0 (1600, 2nd): lost to both 1500s, beat the 1400.
    seat0 = k * ((0 - E100) + (0 - E100) + (1 - E200))  # -11.09202...
    # Seats 1 and 2 (1500, tied 1st): beat the 1600, drew each other, beat the 1400.
    seat1 = k * ((1 - (1 - E100)) + (0.5 - 0.5) + (1 - E100))  # 32/3 exactly
    # Seat 3 (1400, last): lost to all three.
    seat3 = k * ((0 - (1 - E200)) + 2 * (0 - (1 - E100)))  # -10.24131...
    assert result.deltas == pytest.approx((seat0, seat1, seat1, seat3), abs=CLOSE)
    assert result.deltas == pytest.approx((-11.092021, 32 / 3, 32 / 3, -10.241313), abs=CLOSE)
    assert math.fsum(result.deltas) == 0.0


def test_all_tied_equal_ratings_changes_nothing() -> None:
    result = update([1500.0] * 3, [ESTABLISHED] * 3, [2, 2, 2])
    assert result.deltas == (0.0, 0.0, 0.0)


def test_only_rank_order_matters() -> None:
    ratings, games = [1610.0, 1480.0, 1520.0], [ESTABLISHED] * 3
    assert update(ratings, games, [1, 1, 3]) == update(ratings, games, [1, 1, 2])
    assert update(ratings, games, [5, 7, 9]) == update(ratings, games, [1, 2, 3])


def test_provisional_bots_use_their_own_larger_k() -> None:
    assert is_provisional(ESTABLISHED - 1) and not is_provisional(ESTABLISHED)
    assert k_factor(0) == DEFAULT_PARAMS.k_provisional == 64
    assert k_factor(ESTABLISHED) == DEFAULT_PARAMS.k == 32
    # A newcomer beats an equal established bot: +64/2 for it, -32/2 for the other.
    result = update([1500.0, 1500.0], [0, ESTABLISHED], [1, 2])
    assert result.deltas == (32.0, -16.0)


def test_params_are_configurable_and_checked() -> None:
    params = EloParams(start_rating=1000.0, k=20.0, k_provisional=40.0, provisional_games=5)
    assert update([1000.0, 1000.0], [5, 5], [1, 2], params).deltas == (10.0, -10.0)
    assert update([1000.0, 1000.0], [4, 4], [1, 2], params).deltas == (20.0, -20.0)
    with pytest.raises(ValueError, match="k must"):
        EloParams(k=-1.0)
    with pytest.raises(ValueError, match="k_provisional"):
        EloParams(k_provisional=math.nan)
    with pytest.raises(ValueError, match="scale"):
        EloParams(scale=0.0)
    with pytest.raises(ValueError, match="provisional_games"):
        EloParams(provisional_games=-1)


def test_bad_matches_are_refused() -> None:
    with pytest.raises(ValueError, match="two seats"):
        update([1500.0], [0], [1])
    with pytest.raises(ValueError, match="one entry per seat"):
        update([1500.0, 1500.0], [0], [1, 2])
    with pytest.raises(ValueError, match="not finite"):
        update([1500.0, math.inf], [0, 0], [1, 2])
    with pytest.raises(ValueError, match="negative"):
        update([1500.0, 1500.0], [0, -1], [1, 2])


def _matches(
    min_seats: int = 2, max_seats: int = 6
) -> st.SearchStrategy[tuple[list[float], list[int]]]:
    return st.integers(min_seats, max_seats).flatmap(
        lambda n: st.tuples(
            st.lists(st.floats(0.0, 3500.0), min_size=n, max_size=n),
            st.lists(st.integers(1, n), min_size=n, max_size=n),
        )
    )


@given(_matches(), st.booleans())
def test_zero_sum_when_every_seat_shares_one_k(
    match: tuple[list[float], list[int]], new: bool
) -> None:
    ratings, ranks = match
    games = [0 if new else ESTABLISHED] * len(ratings)
    assert math.fsum(update(ratings, games, ranks).deltas) == 0.0


@given(
    st.integers(2, 6).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 3500 * 2**20), min_size=n, max_size=n),
            st.lists(st.integers(1, n), min_size=n, max_size=n),
        )
    )
)
def test_ratings_on_the_grid_conserve_the_pool_exactly(match: tuple[list[int], list[int]]) -> None:
    ratings = [units * GRAIN for units in match[0]]
    new = update(ratings, [ESTABLISHED] * len(ratings), match[1]).ratings
    assert all(rating % GRAIN == 0 for rating in new)
    assert math.fsum(new) == math.fsum(ratings)


@given(_matches(), st.lists(st.integers(0, 40), min_size=6, max_size=6), st.randoms())
def test_order_of_seats_is_irrelevant(
    match: tuple[list[float], list[int]], games_pool: list[int], rng: Random
) -> None:
    ratings, ranks = match
    games = games_pool[: len(ratings)]
    order = list(range(len(ratings)))
    rng.shuffle(order)
    base = update(ratings, games, ranks)
    shuffled = update(
        [ratings[i] for i in order], [games[i] for i in order], [ranks[i] for i in order]
    )
    assert shuffled.deltas == tuple(base.deltas[i] for i in order)
    assert shuffled.ratings == tuple(base.ratings[i] for i in order)


@given(_matches(), st.lists(st.integers(0, 40), min_size=6, max_size=6))
def test_mirrored_match_mirrors_the_deltas(
    match: tuple[list[float], list[int]], games_pool: list[int]
) -> None:
    """Negate every rating and reverse the finishing order: every delta changes sign exactly."""
    ratings, ranks = match
    games = games_pool[: len(ratings)]
    base = update(ratings, games, ranks)
    mirrored = update([-r for r in ratings], games, [-rank for rank in ranks])
    assert mirrored.deltas == tuple(-d for d in base.deltas)


@given(_matches(min_seats=3), st.integers(0, 40))
def test_identical_seats_get_identical_deltas(
    match: tuple[list[float], list[int]], games: int
) -> None:
    ratings, ranks = match
    ratings[1], ranks[1] = ratings[0], ranks[0]
    deltas = update(ratings, [games] * len(ratings), ranks).deltas
    assert deltas[0] == deltas[1]


@given(_matches(), st.floats(-1000.0, 1000.0))
def test_only_rating_differences_matter(match: tuple[list[float], list[int]], shift: float) -> None:
    ratings, ranks = match
    games = [ESTABLISHED] * len(ratings)
    base = update(ratings, games, ranks).deltas
    moved = update([r + shift for r in ratings], games, ranks).deltas
    assert moved == pytest.approx(base, abs=len(ratings) * GRAIN + 1e-9)


@given(_matches())
def test_outright_winner_never_loses_and_outright_loser_never_gains(
    match: tuple[list[float], list[int]],
) -> None:
    ratings, ranks = match
    deltas = update(ratings, [ESTABLISHED] * len(ratings), ranks).deltas
    for seat, rank in enumerate(ranks):
        others = ranks[:seat] + ranks[seat + 1 :]
        if all(rank < other for other in others):
            assert deltas[seat] >= 0
        if all(rank > other for other in others):
            assert deltas[seat] <= 0
