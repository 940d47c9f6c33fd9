"""Official standings: the fit against an independent brute-force likelihood, its invariances,
its anchoring and intervals, warm starts, and recovery of known strengths."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from random import Random
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize, stats

from ladder.standings import (
    DEFAULT_PARAMS,
    Standing,
    StandingsParams,
    _covariance,
    compile_log,
    default_anchor,
    established,
    extend_log,
    fit,
    fold,
    scale_shift,
)

TO_ELO = 400 / math.log(10)
FloatArray = npt.NDArray[np.float64]
Match = Mapping[str, int]


def _brute_force_objective(
    matches: Sequence[Match], bots: Sequence[str], prior: float
) -> Callable[[FloatArray], float]:
    """Negative log-posterior written out the slow way: every order consistent with the ties,
    its Plackett-Luce log-likelihood stage by stage, averaged; plus the virtual draws."""
    position = {bot: i for i, bot in enumerate(bots)}
    expanded = []
    for match in matches:
        blocks = [
            [position[bot] for bot, rank in match.items() if rank == level]
            for level in sorted(set(match.values()))
        ]
        orders = [
            [bot for block in choice for bot in block]
            for choice in itertools.product(*(itertools.permutations(b) for b in blocks))
        ]
        expanded.append(orders)

    def objective(theta: FloatArray) -> float:
        total = 0.0
        for orders in expanded:
            logliks = [
                sum(
                    theta[order[k]] - math.log(sum(math.exp(theta[j]) for j in order[k:]))
                    for k in range(len(order))
                )
                for order in orders
            ]
            total += sum(logliks) / len(logliks)
        total += prior * sum(0.5 * t - math.log1p(math.exp(t)) for t in theta)
        return -float(total)

    return objective


SMALL_LOG: list[Match] = [
    {"ann": 1, "bob": 2, "cyd": 3, "dee": 4},
    {"ann": 2, "bob": 1, "cyd": 3},
    {"ann": 1, "cyd": 1, "dee": 3},
    {"bob": 1, "dee": 2},
    {"ann": 1, "bob": 1, "cyd": 1, "dee": 1},
    {"cyd": 1, "dee": 2, "ann": 2, "bob": 4},
    {"dee": 1, "ann": 2},
    {"ann": 1, "bob": 2, "cyd": 2, "dee": 2},
]


def test_fit_matches_an_independent_brute_force_maximum() -> None:
    standings = fit(compile_log(SMALL_LOG))
    bots = sorted(standings.log_strengths)
    objective = _brute_force_objective(SMALL_LOG, bots, DEFAULT_PARAMS.prior_draws)
    reference = optimize.minimize(objective, np.zeros(len(bots)), method="BFGS", tol=1e-10)
    assert reference.success
    ours = np.array([standings.log_strengths[bot] for bot in bots])
    assert ours == pytest.approx(reference.x, abs=1e-5)
    assert objective(ours) <= reference.fun + 1e-12


def test_intervals_come_from_the_anchored_inverse_hessian() -> None:
    """Standard errors equal sqrt(c' H^-1 c), c the anchoring contrast, with H the brute-force
    objective's Hessian by central differences."""
    params = StandingsParams(provisional_games=7)
    standings = fit(compile_log(SMALL_LOG), params)
    bots = sorted(standings.log_strengths)
    theta = np.array([standings.log_strengths[bot] for bot in bots])
    objective = _brute_force_objective(SMALL_LOG, bots, params.prior_draws)
    n, h = len(bots), 1e-4
    hessian = np.empty((n, n))
    for i, j in itertools.product(range(n), repeat=2):
        ei, ej = np.eye(n)[i] * h, np.eye(n)[j] * h
        hessian[i, j] = (
            objective(theta + ei + ej)
            - objective(theta + ei - ej)
            - objective(theta - ei + ej)
            + objective(theta - ei - ej)
        ) / (4 * h * h)
    covariance = np.linalg.inv(hessian)
    by_bot = standings.by_bot()
    established = [i for i, bot in enumerate(bots) if not by_bot[bot].provisional]
    assert 0 < len(established) < n
    for i, bot in enumerate(bots):
        contrast = -np.isin(np.arange(n), established).astype(float) / len(established)
        contrast[i] += 1
        expected = TO_ELO * math.sqrt(contrast @ covariance @ contrast)
        assert by_bot[bot].stderr == pytest.approx(expected, rel=1e-4)
        half_width = 1.959963984540054 * by_bot[bot].stderr
        assert by_bot[bot].high - by_bot[bot].rating == pytest.approx(half_width)
        assert by_bot[bot].rating - by_bot[bot].low == pytest.approx(half_width)


def _assert_same_standings(a: Mapping[Any, Standing[Any]], b: Mapping[Any, Standing[Any]]) -> None:
    assert a.keys() == b.keys()
    for bot, entry in a.items():
        other = b[bot]
        assert other.rating == pytest.approx(entry.rating, abs=1e-6)
        for field in ("low", "high", "stderr"):
            value = getattr(entry, field)
            assert getattr(other, field) == pytest.approx(value, abs=1e-6), field
        assert (other.games, other.provisional) == (entry.games, entry.provisional)


def test_a_two_way_tie_is_half_a_win_each_way() -> None:
    tied = [{"a": 1, "b": 1}, {"a": 1, "b": 1}, {"a": 1, "b": 2}, {"b": 1, "c": 2}]
    split = [{"a": 1, "b": 2}, {"a": 2, "b": 1}, {"a": 1, "b": 2}, {"b": 1, "c": 2}]
    _assert_same_standings(fit(compile_log(tied)).by_bot(), fit(compile_log(split)).by_bot())


def test_a_tied_block_counts_as_every_order_of_it_equally() -> None:
    """One tie among x, y, z weighs like each of their 6 orders once, with weight 1/6: so six
    such ties fit exactly like the six orders, each played once."""
    tail = [{"x": 1, "w": 2}, {"w": 1, "y": 2, "z": 3}]
    tied = [{"w": 1, "x": 2, "y": 2, "z": 2}] * 6 + tail
    orders = [
        {"w": 1, **{bot: 2 + k for k, bot in enumerate(order)}}
        for order in itertools.permutations("xyz")
    ]
    _assert_same_standings(
        fit(compile_log(tied)).by_bot(), fit(compile_log(orders + tail)).by_bot()
    )


def test_strengths_are_on_the_elo_scale() -> None:
    """With a vanishing prior, a beating b 3 times in 4 fits P(a beats b) = 3/4 exactly as Elo
    reads a rating gap: 400 log10(3)."""
    params = StandingsParams(prior_draws=1e-9, provisional_games=0)
    matches = [{"a": 1, "b": 2}] * 3 + [{"a": 2, "b": 1}]
    by_bot = fit(compile_log(matches), params).by_bot()
    assert by_bot["a"].rating - by_bot["b"].rating == pytest.approx(400 * math.log10(3), abs=1e-4)
    assert (by_bot["a"].rating + by_bot["b"].rating) / 2 == pytest.approx(1500)


def test_bots_that_only_won_or_only_lost_get_finite_numbers() -> None:
    matches = [{"top": 1, "mid": 2, "low": 3}] * 5
    standings = fit(compile_log(matches))
    assert standings.converged
    ratings = [entry.rating for entry in standings.entries]
    assert [entry.bot for entry in standings.entries] == ["top", "mid", "low"]
    assert all(math.isfinite(value) for value in ratings)
    assert ratings[0] - ratings[2] < 1500


def test_default_anchor_is_the_mean_of_established_bots() -> None:
    matches = [{"a": 1, "b": 2, "c": 3}] * 3 + [{"c": 1, "a": 2}] * 3 + [{"new": 1, "a": 2}]
    params = StandingsParams(provisional_games=4)
    by_bot = fit(compile_log(matches), params).by_bot()
    assert by_bot["new"].provisional and by_bot["new"].games == 1
    assert by_bot["b"].provisional and by_bot["b"].games == 3
    assert not by_bot["a"].provisional and by_bot["a"].games == 7
    assert (by_bot["a"].rating + by_bot["c"].rating) / 2 == pytest.approx(1500, abs=1e-9)


def test_while_nobody_is_established_every_bot_anchors() -> None:
    by_bot = fit(compile_log([{"a": 1, "b": 2}, {"b": 1, "c": 2}])).by_bot()
    assert all(entry.provisional for entry in by_bot.values())
    assert sum(entry.rating for entry in by_bot.values()) / 3 == pytest.approx(1500, abs=1e-9)


def test_the_scale_shift_is_how_far_every_standing_moved_with_the_anchor() -> None:
    matches = [{"a": 1, "b": 2, "c": 3}] * 3 + [{"c": 1, "a": 2}] * 3 + [{"new": 1, "a": 2}]
    params = StandingsParams(provisional_games=4)
    today = fit(compile_log(matches), params)
    assert established(today) == default_anchor(today) == {"a", "c"}
    for before in (["a"], ["c"], ["a", "b", "c", "new"], ["b", "ghost"]):
        then = fit(compile_log(matches), params, anchor=[bot for bot in before if bot != "ghost"])
        shift = scale_shift(today, before, params)
        for bot, standing in today.by_bot().items():
            assert standing.rating - then.by_bot()[bot].rating == pytest.approx(shift, abs=1e-9)
    assert scale_shift(today, ["a", "c"], params) == pytest.approx(0, abs=1e-9)
    assert scale_shift(today, ["ghost"], params) == 0.0
    nobody = fit(compile_log([{"a": 1, "b": 2}]), params)
    assert established(nobody) == frozenset() and default_anchor(nobody) == {"a", "b"}


def test_a_fixed_anchor_pins_its_bots() -> None:
    log = compile_log(SMALL_LOG)
    single = fit(log, anchor=["bob"]).by_bot()
    assert single["bob"].rating == pytest.approx(1500, abs=1e-9)
    assert single["bob"].stderr == pytest.approx(0, abs=1e-6)
    pair = fit(log, StandingsParams(anchor_rating=1000), anchor=["ann", "cyd", "ghost"]).by_bot()
    assert (pair["ann"].rating + pair["cyd"].rating) / 2 == pytest.approx(1000, abs=1e-9)
    gap = single["ann"].rating - single["dee"].rating
    assert pair["ann"].rating - pair["dee"].rating == pytest.approx(gap, abs=1e-9)
    with pytest.raises(ValueError, match="anchor"):
        fit(log, anchor=["ghost"])


def test_empty_log_and_bad_matches() -> None:
    empty = fit(compile_log(list[dict[str, int]]()))
    assert empty.entries == () and empty.matches == 0 and empty.converged
    with pytest.raises(ValueError, match="two bots"):
        compile_log([{"solo": 1}])
    with pytest.raises(ValueError, match="prior_draws"):
        StandingsParams(prior_draws=0)
    with pytest.raises(ValueError, match="confidence"):
        StandingsParams(confidence=1.0)


_small_logs = st.lists(
    st.dictionaries(st.sampled_from("abcdefg"), st.integers(1, 4), min_size=2, max_size=5),
    min_size=1,
    max_size=25,
)


@settings(max_examples=40, deadline=None)
@given(_small_logs, st.randoms(use_true_random=False))
def test_the_fit_does_not_depend_on_the_order_of_the_log(
    matches: list[dict[str, int]], rng: Random
) -> None:
    shuffled = []
    for match in rng.sample(matches, len(matches)):
        seats = list(match.items())
        rng.shuffle(seats)
        shuffled.append(dict(seats))
    first, second = fit(compile_log(matches)), fit(compile_log(shuffled))
    assert first.converged and second.converged
    _assert_same_standings(first.by_bot(), second.by_bot())


@settings(max_examples=25, deadline=None)
@given(_small_logs, st.integers(0, 25))
def test_a_log_built_in_pieces_fits_like_one_built_at_once(
    matches: list[dict[str, int]], cut: int
) -> None:
    whole = compile_log(matches)
    pieces = extend_log(compile_log(matches[:cut]), matches[cut:])
    assert pieces.matches == whole.matches == len(matches)
    _assert_same_standings(fit(whole).by_bot(), fit(pieces).by_bot())


def _plackett_luce_log(
    rng: np.random.Generator, theta: FloatArray, rounds: int
) -> list[dict[int, int]]:
    """Each round seats every bot once at a random four-player table; a finishing order is
    drawn from Plackett-Luce by sorting strengths plus Gumbel noise."""
    matches: list[dict[int, int]] = []
    for _ in range(rounds):
        tables = rng.permutation(theta.size).reshape(-1, 4)
        noisy = theta[tables] + rng.gumbel(size=tables.shape)
        ranks = np.argsort(np.argsort(-noisy, axis=1), axis=1) + 1
        matches.extend(
            {int(bot): int(rank) for bot, rank in zip(table, places, strict=True)}
            for table, places in zip(tables, ranks, strict=True)
        )
    return matches


def test_recovers_known_strengths_with_calibrated_intervals() -> None:
    """200 bots, true ratings spread with a 300-point standard deviation, 100 four-player
    matches each: rank correlation >= 0.99 and the 95% intervals cover >= 90% of the truths,
    the truth put on the same anchored scale (mean of the established bots = 1500)."""
    rng = np.random.default_rng(20240601)
    theta = rng.normal(0.0, 300 / TO_ELO, size=200)
    matches = _plackett_luce_log(rng, theta, rounds=100)
    assert len(matches) == 5000
    standings = fit(compile_log(matches))
    assert standings.converged
    by_bot = standings.by_bot()
    assert all(entry.games == 100 and not entry.provisional for entry in by_bot.values())
    truth = 1500 + TO_ELO * (theta - theta.mean())
    estimate = np.array([by_bot[i].rating for i in range(200)])
    low = np.array([by_bot[i].low for i in range(200)])
    high = np.array([by_bot[i].high for i in range(200)])
    assert stats.spearmanr(estimate, truth).statistic >= 0.99
    assert np.mean((low <= truth) & (truth <= high)) >= 0.90


def test_warm_start_gives_the_same_fit_in_fewer_iterations() -> None:
    """50 new matches on a 5,000-match log (1%): starting from the previous strengths, Newton
    needs about three steps instead of seven."""
    rng = np.random.default_rng(7)
    theta = rng.normal(0.0, 300 / TO_ELO, size=200)
    matches = _plackett_luce_log(rng, theta, rounds=100)
    previous = compile_log(matches[:-50])
    before = fit(previous)
    log = extend_log(previous, matches[-50:])
    cold = fit(log)
    warm = fit(log, warm_start=before.log_strengths)
    assert warm.converged and cold.converged
    _assert_same_standings(cold.by_bot(), warm.by_bot())
    assert warm.iterations <= 3
    assert 2 * warm.iterations < cold.iterations


def test_folding_a_few_matches_into_a_fit_is_close_to_refitting_the_log() -> None:
    """15 new matches (0.5%) and one newcomer's first match folded into a 3,000-match fit of
    40 bots, reading only the new matches, against the exact refit of the whole log."""
    rng = np.random.default_rng(1)
    theta = rng.normal(0.0, 1.0, size=40)
    matches = _plackett_luce_log(rng, theta, rounds=302)
    old, new = matches[:3000], [*matches[3000:3015], {99: 1, 0: 2}]
    before = fit(compile_log(old))
    assert before.posterior is not None
    exact = fit(compile_log([*old, *new])).by_bot()
    folded = fold(before.posterior, new)
    assert folded.converged and folded.iterations <= 4 and folded.matches == 3016
    by_bot = folded.by_bot()
    assert by_bot.keys() == exact.keys() and by_bot[99].games == 1
    for bot, entry in exact.items():
        assert by_bot[bot].rating == pytest.approx(entry.rating, abs=0.05)
        assert by_bot[bot].high == pytest.approx(entry.high, abs=0.5)
        assert by_bot[bot].games == entry.games
    # Nothing new: the fit itself, bit for bit in the strengths.
    same = fold(before.posterior, [])
    assert same.log_strengths == before.log_strengths


def test_intervals_from_the_cholesky_factor_equal_those_of_the_whole_inverse() -> None:
    """``_covariance`` (the diagonal and the anchor means, from the Cholesky factor) against
    the whole inverse, on a fit's Hessian and on a symmetric matrix Cholesky refuses."""
    rng = np.random.default_rng(5)
    log = compile_log(_plackett_luce_log(rng, rng.normal(size=32), 40))
    posterior = fit(log).posterior
    assert posterior is not None
    indefinite = np.array([[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 3.0]])
    for hessian, chosen in ((posterior.hessian, np.arange(0, 32, 3)), (indefinite, np.arange(2))):
        covariance = np.linalg.inv(hessian)
        diagonal, means = _covariance(hessian, chosen)
        np.testing.assert_allclose(diagonal, np.diag(covariance), rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(means, covariance[:, chosen].mean(axis=1), rtol=1e-9, atol=1e-12)
