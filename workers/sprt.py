"""A generalised sequential probability ratio test (GSPRT) on paired game results.

The question: is bot A stronger than bot B by ``elo1`` Elo (H1), or by no more than ``elo0``
(H0)? Games are played in *pairs* on one deal with A and B's seats swapped, so the luck of the
deal and the seat cancel inside each pair. A pair scores A's mean head-to-head score over its
two games, one of the five values 0, 1/4, 1/2, 3/4, 1: fishtest's pentanomial model.

Head-to-head score of one game: 1 if A finished above B, 1/2 level, 0 below. In a 2-player game
that is the game's result; in a 3-8-player game the other seats hold fixed built-ins (the same
ones, in the same seats, in both games of the pair), and only A's place relative to B counts.
So every player count gives the same five-valued statistic and the same test.

The statistic (Van den Bergh's GSPRT, as fishtest uses it): the counts ``n_0..n_4`` of the five
pair scores are a multinomial sample. For a hypothesised expected score ``s`` the likelihood is
maximised over every distribution with mean ``s`` (the maximum-likelihood distribution under
that constraint, found exactly below), and

    LLR = sum_i n'_i * log(p1_i / p0_i),

``n'`` the counts with every empty cell taken as ``REGULARISE`` (0.001) of a pair, in the
maximisation and in the sum alike, exactly as fishtest's ``LLR_logistic`` does;
``p0``/``p1`` those maximisers for the expected scores ``s0``/``s1`` of ``elo0``/``elo1`` (logistic
Elo: ``s = 1 / (1 + 10 ** (-elo / 400))``, Elo of a game, not of a pair). Wald's bounds:
accept H1 when LLR >= log((1 - beta) / alpha), H0 when LLR <= log(beta / (1 - alpha)), with
no overshoot correction (fishtest's optional correction of the bounds is not applied).
``alpha`` is the false-positive rate (accepting H1 when A is no better than ``elo0``), ``beta``
the false-negative rate at ``elo1``. tests/workers/test_sprt.py checks both by simulation.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "PAIR_SCORES",
    "EloEstimate",
    "SprtParams",
    "SprtState",
    "elo_estimate",
    "elo_to_score",
    "llr",
    "pair_score",
    "pentanomial",
    "score_to_elo",
    "state",
]

REGULARISE = 1e-3
"""What an unseen pair score counts as, in the maximisation and the sum (fishtest's choice)."""

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""The five scores a pair can have, indexing the pentanomial counts."""


@dataclass(frozen=True, slots=True)
class SprtParams:
    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1)):
            raise ValueError("elo0 and elo1 must be finite")
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 ({self.elo0}) must be below elo1 ({self.elo1})")
        if max(abs(self.elo0), abs(self.elo1)) > 1000:
            raise ValueError("Elo bounds are at most 1000 in size")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 0.5:
                raise ValueError(f"{name} must be in (0, 0.5), not {value}")

    @property
    def lower(self) -> float:
        """LLR at or below which H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """LLR at or above which H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)


@dataclass(frozen=True, slots=True)
class SprtState:
    pairs: tuple[int, int, int, int, int]
    llr: float
    lower: float
    upper: float
    verdict: str | None
    """'H1' (A is better by elo1), 'H0' (not better than elo0), or None: play on."""

    @property
    def games(self) -> int:
        return 2 * sum(self.pairs)

    @property
    def score(self) -> float | None:
        """A's mean score per game so far."""
        total = sum(self.pairs)
        if not total:
            return None
        return sum(n * a for n, a in zip(self.pairs, PAIR_SCORES, strict=True)) / total


def elo_to_score(elo: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def score_to_elo(score: float) -> float:
    if not 0.0 < score < 1.0:
        raise ValueError("a score strictly between 0 and 1 has a finite Elo")
    return -400.0 * math.log10(1.0 / score - 1.0)


def head_to_head(rank_a: int, rank_b: int) -> float:
    """A's score against B from their ranks in one game (1 is first)."""
    if rank_a < rank_b:
        return 1.0
    if rank_a > rank_b:
        return 0.0
    return 0.5


def pair_score(first: tuple[int, int], second: tuple[int, int]) -> float:
    """A pair's score from (rank of A, rank of B) in each of its two games."""
    return (head_to_head(*first) + head_to_head(*second)) / 2


def pentanomial(scores: Iterable[float]) -> tuple[int, int, int, int, int]:
    counts = [0] * 5
    for score in scores:
        index = round(score * 4)
        if not (0 <= index <= 4 and abs(index / 4 - score) < 1e-9):
            raise ValueError(f"{score} is not a pair score (0, 1/4, 1/2, 3/4 or 1)")
        counts[index] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def _mle(counts: Sequence[float], mean: float) -> list[float]:
    """The distribution on ``PAIR_SCORES`` with the given mean that maximises the likelihood of
    ``counts``; only outcomes seen carry weight.

    By Lagrange, p_i = q_i / (1 + theta * (a_i - mean)), q the empirical frequencies, with
    theta the root of sum_i q_i (a_i - mean) / (1 + theta (a_i - mean)) = 0 in the interval
    keeping every denominator positive; that function is strictly decreasing in theta, so
    bisection finds the root.
    """
    total = sum(counts)
    q = [n / total for n in counts]
    seen = [i for i, n in enumerate(counts) if n]
    deviations = [PAIR_SCORES[i] - mean for i in seen]
    top = max(deviations)
    bottom = min(deviations)
    if top <= 0 or bottom >= 0:
        raise ValueError("the mean lies outside what was seen")
    low, high = -1.0 / top, -1.0 / bottom
    margin = (high - low) * 1e-12

    def f(theta: float) -> float:
        return sum(q[i] * d / (1 + theta * d) for i, d in zip(seen, deviations, strict=True))

    low, high = low + margin, high - margin
    for _ in range(200):
        middle = (low + high) / 2
        if f(middle) > 0:
            low = middle
        else:
            high = middle
        if high - low < 1e-15:
            break
    theta = (low + high) / 2
    p = [0.0] * 5
    for i, d in zip(seen, deviations, strict=True):
        p[i] = q[i] / (1 + theta * d)
    norm = sum(p)
    return [value / norm for value in p]


def llr(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) for the pentanomial
    ``counts``; zero before the first pair.

    As fishtest does, a count of zero is replaced by ``REGULARISE`` (a thousandth of a pair),
    both when maximising and in the sum, so every mean in (0, 1) is reachable and a few early
    pairs that happen to agree cannot give an infinite (or merely huge) ratio."""
    if len(counts) != 5 or any(n < 0 for n in counts):
        raise ValueError("pentanomial counts are five non-negative integers")
    if not sum(counts):
        return 0.0
    regular = [float(n) if n else REGULARISE for n in counts]
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    p0, p1 = _mle(regular, s0), _mle(regular, s1)
    return sum(n * math.log(p1[i] / p0[i]) for i, n in enumerate(regular))


def state(counts: Sequence[int], params: SprtParams) -> SprtState:
    value = llr(counts, params.elo0, params.elo1)
    verdict = "H1" if value >= params.upper else "H0" if value <= params.lower else None
    c = tuple(int(n) for n in counts)
    return SprtState(
        pairs=(c[0], c[1], c[2], c[3], c[4]),
        llr=value,
        lower=params.lower,
        upper=params.upper,
        verdict=verdict,
    )


@dataclass(frozen=True, slots=True)
class EloEstimate:
    elo: float
    """A's Elo over B per game, from its mean score."""
    error: float | None
    """Half the width of the 95% confidence interval, in Elo; None when the interval reaches
    a score of 0 or 1 (an unbounded Elo: too few pairs, or all one way)."""
    low: float | None
    high: float | None
    """The interval's ends in Elo (None: unbounded on that side)."""
    los: float
    """Likelihood of superiority: the probability that A is stronger than B at all."""


def elo_estimate(counts: Sequence[int]) -> EloEstimate | None:
    """Fishtest's Elo estimate from pentanomial counts (``stat_util.get_elo``): the counts
    regularised as in ``llr``, their mean score ``mu`` and per-pair variance ``var``, the 95%
    interval ``mu +- 1.959964 sqrt(var / N)`` mapped to Elo, and half its width as the error.
    Where fishtest would fail (an end of the interval at or past a score of 0 or 1), that end
    and the error are None. None before the first pair."""
    if len(counts) != 5 or any(n < 0 for n in counts):
        raise ValueError("pentanomial counts are five non-negative integers")
    if not sum(counts):
        return None
    regular = [float(n) if n else REGULARISE for n in counts]
    total = sum(regular)
    mu = sum(n * a for n, a in zip(regular, PAIR_SCORES, strict=True)) / total
    var = sum(n * (a - mu) ** 2 for n, a in zip(regular, PAIR_SCORES, strict=True)) / total
    spread = _Z95 * math.sqrt(var / total)
    low = score_to_elo(mu - spread) if mu - spread > 0 else None
    high = score_to_elo(mu + spread) if mu + spread < 1 else None
    los = 0.5 * (1 + math.erf((mu - 0.5) / math.sqrt(2 * var / total)))
    return EloEstimate(
        elo=score_to_elo(mu),
        error=None if low is None or high is None else (high - low) / 2,
        low=low,
        high=high,
        los=los,
    )


_Z95 = 1.959963984540054
