"""The GSPRT on pentanomial pair scores: its maths against known values and invariants, and its
error rates by simulation (identical bots accept H1 no more often than alpha; a clearly
stronger bot accepts H1 quickly)."""

from __future__ import annotations

import math
from random import Random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workers.sprt import (
    SprtParams,
    elo_to_score,
    head_to_head,
    llr,
    pair_score,
    pentanomial,
    score_to_elo,
    state,
)

counts = st.tuples(*[st.integers(0, 60)] * 5)


def test_elo_and_score_are_inverse() -> None:
    assert elo_to_score(0) == 0.5
    assert math.isclose(elo_to_score(400), 10 / 11)
    for elo in (-300.0, -5.0, 0.0, 17.0, 250.0):
        assert math.isclose(score_to_elo(elo_to_score(elo)), elo, abs_tol=1e-9)


def test_pair_scores_from_ranks() -> None:
    assert head_to_head(1, 2) == 1.0 and head_to_head(3, 1) == 0.0 and head_to_head(2, 2) == 0.5
    assert pair_score((1, 2), (2, 1)) == 0.5
    assert pair_score((1, 2), (1, 3)) == 1.0
    assert pair_score((2, 2), (1, 2)) == 0.75
    assert pentanomial([0.5, 1.0, 0.75, 0.5]) == (0, 0, 2, 1, 1)
    with pytest.raises(ValueError, match="not a pair score"):
        pentanomial([0.3])


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="below"):
        SprtParams(elo0=5, elo1=5)
    with pytest.raises(ValueError, match="alpha"):
        SprtParams(alpha=0.0)
    with pytest.raises(ValueError, match="beta"):
        SprtParams(beta=0.6)
    with pytest.raises(ValueError, match="finite"):
        SprtParams(elo1=math.inf)


def test_wald_bounds() -> None:
    params = SprtParams(alpha=0.05, beta=0.05)
    assert math.isclose(params.upper, math.log(19))
    assert math.isclose(params.lower, -math.log(19))


def test_llr_is_zero_before_any_pair() -> None:
    assert llr((0, 0, 0, 0, 0), 0, 10) == 0.0
    assert llr((0, 0, 7, 0, 0), 0, 10) < 0  # seven draws: no sign of +10 Elo


def test_llr_matches_the_normal_approximation_on_large_samples() -> None:
    """For a large sample the GSPRT approaches N (s1 - s0)(2 m - s0 - s1) / (2 var): the known
    closed form, computed independently here."""
    sample = (900, 4100, 10000, 4300, 1000)
    n = sum(sample)
    mean = sum(c * a for c, a in zip(sample, (0, 0.25, 0.5, 0.75, 1), strict=True)) / n
    var = sum(c * (a - mean) ** 2 for c, a in zip(sample, (0, 0.25, 0.5, 0.75, 1), strict=True))
    var /= n
    s0, s1 = elo_to_score(0), elo_to_score(5)
    approx = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert math.isclose(llr(sample, 0, 5), approx, rel_tol=0.02)


@given(counts)
def test_llr_is_antisymmetric_in_the_hypotheses(sample: tuple[int, ...]) -> None:
    assert math.isclose(llr(sample, 0, 10), -llr(sample, 10, 0), abs_tol=1e-9)


@given(counts, st.integers(0, 4))
def test_a_better_result_never_lowers_the_llr(sample: tuple[int, ...], index: int) -> None:
    """Moving one pair from score index to index + 1 cannot make H1 less likely."""
    if index == 4 or sample[index] == 0 or sum(1 for n in sample if n) < 2:
        return
    better = list(sample)
    better[index] -= 1
    better[index + 1] += 1
    if sum(1 for n in better if n) < 2:
        return
    # Within 1e-4: where the move empties a count (1 -> 0), the zero-count regularisation puts
    # a thousandth of a pair back there, which moves the LLR by up to ~3e-5 (a search over
    # 200,000 random samples found no more); elsewhere the root finder's precision, ~1e-7.
    assert llr(better, 0, 10) >= llr(sample, 0, 10) - 1e-4


def _pair(rng: Random, elo: float, draw: float) -> float:
    """One simulated pair: each game A wins, draws or loses, with expected score of ``elo``.

    The two games of a pair are correlated as duplicate games are (same deal): with probability
    one half the second game repeats the first's result."""
    s = elo_to_score(elo)
    win = s - draw / 2

    def game() -> float:
        u = rng.random()
        return 1.0 if u < win else 0.5 if u < win + draw else 0.0

    first = game()
    second = first if rng.random() < 0.5 else game()
    return (first + second) / 2


def _run(rng: Random, elo: float, params: SprtParams, limit: int = 20000) -> tuple[str, int]:
    tally = [0] * 5
    for pairs in range(1, limit + 1):
        tally[round(_pair(rng, elo, 0.2) * 4)] += 1
        if pairs % 4 == 0:
            verdict = state(tally, params).verdict
            if verdict is not None:
                return verdict, pairs
    return "none", limit


def test_identical_bots_accept_h1_no_more_often_than_alpha() -> None:
    """300 tests between equal bots (true Elo 0 = elo0): H1 is accepted at most alpha of the time
    (with three standard errors of slack for the simulation itself)."""
    params = SprtParams(elo0=0, elo1=40, alpha=0.05, beta=0.05)
    rng = Random(19)
    runs = 300
    verdicts = [_run(rng, 0.0, params)[0] for _ in range(runs)]
    false_positives = verdicts.count("H1") / runs
    assert verdicts.count("none") == 0
    assert false_positives <= params.alpha + 3 * math.sqrt(params.alpha * 0.95 / runs)


def test_a_much_stronger_bot_accepts_h1_quickly() -> None:
    params = SprtParams(elo0=0, elo1=40, alpha=0.05, beta=0.05)
    rng = Random(7)
    results = [_run(rng, 300.0, params) for _ in range(50)]
    assert all(verdict == "H1" for verdict, _ in results)
    assert max(pairs for _, pairs in results) <= 40


def test_a_bot_at_elo1_accepts_h0_no_more_often_than_beta() -> None:
    params = SprtParams(elo0=0, elo1=40, alpha=0.05, beta=0.05)
    rng = Random(23)
    runs = 200
    verdicts = [_run(rng, 40.0, params)[0] for _ in range(runs)]
    assert verdicts.count("H0") / runs <= params.beta + 3 * math.sqrt(params.beta * 0.95 / runs)
