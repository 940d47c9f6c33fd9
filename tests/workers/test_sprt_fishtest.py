"""An outside recomputation of the SPRT as docs/leagues.md states it (fishtest's GSPRT on the
pentanomial counts, 0.001 pseudo-counts for empty cells in the maximisation and in the sum,
Wald's bounds with no overshoot correction; fishtest's Elo estimate), by a different method
from ``workers.sprt``: each hypothesis's profile log-likelihood is found by maximising its
concave dual by golden-section search, not by finding the root of its derivative. The two must
agree on the LLR, the verdict, the stopping round and the Elo estimate."""

from __future__ import annotations

import math
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from workers.sprt import SprtParams, elo_estimate, llr, state

SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
EPSILON = 1e-3


def _score(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def _regularised(counts: tuple[int, ...]) -> list[float]:
    return [n if n else EPSILON for n in counts]


def _dual_max(q: list[float], s: float) -> tuple[float, list[float]]:
    """max over x of sum_i q_i log(1 + x (a_i - s)), on the interval where every term is
    defined (the profile log-likelihood at mean s is sum q log q minus it), and the maximising
    distribution q_i / (1 + x (a_i - s))."""
    d = [a - s for a in SCORES]
    low, high = -1 / max(d), -1 / min(d)
    span = high - low
    low, high = low + span * 1e-13, high - span * 1e-13

    def h(x: float) -> float:
        return sum(qi * math.log1p(x * di) for qi, di in zip(q, d, strict=True))

    ratio = (math.sqrt(5) - 1) / 2
    a, b = low, high
    c, e = b - ratio * (b - a), a + ratio * (b - a)
    hc, he = h(c), h(e)
    for _ in range(300):
        if hc > he:
            b, e, he = e, c, hc
            c = b - ratio * (b - a)
            hc = h(c)
        else:
            a, c, hc = c, e, he
            e = a + ratio * (b - a)
            he = h(e)
    x = c if hc > he else e
    return max(hc, he), [qi / (1 + x * di) for qi, di in zip(q, d, strict=True)]


def outside_llr(counts: tuple[int, ...], elo0: float, elo1: float) -> float:
    if not sum(counts):
        return 0.0
    n = _regularised(counts)
    total = sum(n)
    q = [x / total for x in n]
    return total * (_dual_max(q, _score(elo0))[0] - _dual_max(q, _score(elo1))[0])


def outside_verdict(value: float, alpha: float, beta: float) -> str | None:
    if value >= math.log((1 - beta) / alpha):
        return "H1"
    if value <= math.log(beta / (1 - alpha)):
        return "H0"
    return None


pentanomials = st.tuples(*[st.integers(0, 40)] * 5)


@settings(max_examples=200, deadline=None)
@given(pentanomials, st.sampled_from([(0.0, 10.0), (0.0, 40.0), (-10.0, 5.0), (0.0, 300.0)]))
def test_the_llr_agrees_with_an_outside_recomputation(
    counts: tuple[int, ...], bounds: tuple[float, float]
) -> None:
    assert math.isclose(llr(counts, *bounds), outside_llr(counts, *bounds), abs_tol=1e-7)


def test_empty_cells_enter_the_sum_as_fishtest_does() -> None:
    """Where cells are empty the pseudo-counts move the LLR by a few thousandths: leaving them
    out of the sum (as this ladder once did) differs from fishtest by that much."""
    for counts in [(0, 0, 8, 0, 0), (2, 0, 8, 0, 2), (0, 0, 0, 0, 12), (0, 1, 0, 3, 0)]:
        n = _regularised(counts)
        q = [x / sum(n) for x in n]
        p0, p1 = _dual_max(q, _score(0))[1], _dual_max(q, _score(300))[1]
        observed_only = sum(c * math.log(p1[i] / p0[i]) for i, c in enumerate(counts) if c)
        ours = llr(counts, 0, 300)
        assert math.isclose(ours, outside_llr(counts, 0, 300), abs_tol=1e-7), counts
        assert 1e-4 < abs(ours - observed_only) < 0.05, counts


def test_verdicts_and_stopping_rounds_agree() -> None:
    """Simulated leagues of four pairs a round: the round each one stops at, and its verdict."""
    rng = Random(30)
    params = SprtParams(0.0, 40.0, 0.05, 0.05)
    stops = []
    for elo in (0.0, 20.0, 40.0, 120.0):
        for _ in range(40):
            s = _score(elo)
            counts = [0] * 5
            ours = theirs = None
            for number in range(1, 300):
                for _pair in range(4):
                    games = [1.0 if rng.random() < s else 0.0 for _ in range(2)]
                    counts[int(sum(games) * 2)] += 1
                found = state(counts, params).verdict
                expected = outside_verdict(outside_llr(tuple(counts), 0.0, 40.0), 0.05, 0.05)
                if ours is None and found is not None:
                    ours = (number, found)
                if theirs is None and expected is not None:
                    theirs = (number, expected)
                if ours and theirs:
                    break
            assert ours == theirs
            stops.append(ours)
    assert {verdict for _n, verdict in stops} == {"H0", "H1"}


@given(pentanomials)
def test_the_elo_estimate_agrees_with_fishtests_formula(counts: tuple[int, ...]) -> None:
    found = elo_estimate(counts)
    if not sum(counts):
        assert found is None
        return
    assert found is not None
    n = _regularised(counts)
    total = sum(n)
    mu = sum(x * a for x, a in zip(n, SCORES, strict=True)) / total
    var = sum(x * (a - mu) ** 2 for x, a in zip(n, SCORES, strict=True)) / total
    half = 1.959963984540054 * math.sqrt(var / total)

    def elo(score: float) -> float:
        return -400 * math.log10(1 / score - 1)

    assert math.isclose(found.elo, elo(mu), abs_tol=1e-9)
    if mu - half > 0 and mu + half < 1:
        assert found.error is not None
        assert math.isclose(found.error, (elo(mu + half) - elo(mu - half)) / 2, rel_tol=1e-9)
    else:
        assert found.error is None
    assert 0.0 <= found.los <= 1.0
