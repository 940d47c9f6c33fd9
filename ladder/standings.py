"""Official standings: a maximum-likelihood Plackett-Luce fit over a ladder's whole match log.

The model. Bot i has a strength w_i = exp(theta_i). A match's finishing order is drawn like names
from a hat: the winner is bot i with probability w_i / (sum of the strengths still in the match),
it leaves, second place is drawn the same way from the rest, and so on. For two players this is
Bradley-Terry, and on the Elo scale (rating = 400 * log10 w) it is exactly Elo's expected score,
so the fitted numbers read like Elo ratings. Unlike live Elo the fit depends only on *which*
results happened, never on the order in which they arrived.

Ties. A tie is a result whose order we did not get to see, and it is scored like live Elo scores
it: as half a win each way. Concretely, a block of m tied bots contributes the average, over all
m! orders of the block, of the log-likelihood of that order (for two bots: half a win and half a
loss). Averaging the log-likelihoods, rather than the likelihoods, keeps the objective concave,
so the optimum is unique and Newton's method finds it; for results without ties the likelihood is
the exact Plackett-Luce one. The average over orders needs one term per subset of the block, not
one per order (a four-way tie costs 15 terms, not 24), see ``_tied_match``.

The prior. Every bot also gets ``prior_draws`` virtual draws against an average bot (theta = 0).
This is a weak prior (two draws against the hundreds of real results of an established bot) that
makes the fit defined when a bot has only won or only lost, keeps newcomers' numbers finite, and
makes the objective strictly concave, so the Hessian is invertible.

Anchoring. The likelihood does not change if every strength is multiplied by the same factor, so
the published numbers are differences: by default the mean of the established (non-provisional)
bots is held at ``anchor_rating``; a fixed set of reference bots can be held there instead, or
pinned players each at a rating of its own (``anchor`` as a mapping). Pins fix the offset, not
the scale (which the model fixes): the published numbers are the fitted differences shifted by
the offset that matches the pins best in least squares, which puts the pins' mean at the mean
of the pinned players' fitted numbers, and each pinned player within its fitted distance of its
pin. Two ladders pinned alike then report the same numbers for the same bots, up to their
intervals. The 95% interval of a bot is that of its anchored number: the variance of theta_i
minus the anchor mean, taken from the inverse of the observed information (the Hessian of the
negative log-posterior at the optimum), so the uncertainty of the anchor itself is included.

The fit. Newton's method on the log-posterior with the analytic gradient and a dense Hessian,
vectorised with numpy: eight or nine steps from a cold start on the benchmark's ladders, about
three from the previous fit's strengths (``warm_start``). Memory grows with the square of the
number of bots, which is fine for the few thousand bots a ladder holds.

Folding in new matches. A fit also leaves its ``Posterior``: the strengths at the optimum and the
Hessian there. ``fold`` refits after a few new matches without touching the old ones: the old
log's negative log-posterior is replaced by its second-order expansion at the previous optimum
(where its gradient is zero), and only the new matches enter exactly. Each Newton step then
costs one pass over the new matches and one dense solve, whatever the length of the log. The
error this leaves is of third order in the shift the new matches cause, and grows with the share
of the log folded in: folding 0.5% of a 3,000-match log among 40 bots moves no rating by more
than 0.05 Elo and no interval end by more than 0.5 Elo from the exact refit
(tests/ladder/test_standings.py). That is why the caller refits exactly from the whole log once
the share folded since the last exact fit gets large.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Hashable, Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations
from operator import itemgetter
from statistics import NormalDist
from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt
from scipy.linalg import cho_factor, cho_solve
from scipy.linalg.lapack import dtrtri

__all__ = [
    "DEFAULT_PARAMS",
    "BotId",
    "MatchLog",
    "Posterior",
    "Standing",
    "Standings",
    "StandingsParams",
    "compile_log",
    "default_anchor",
    "established",
    "extend_log",
    "fit",
    "fold",
    "pinned_offset",
    "scale_shift",
]

BotId = TypeVar("BotId", bound=Hashable)
"""Whatever identifies a bot (a database id, a name): hashable, and the same type throughout."""
FloatArray = npt.NDArray[np.float64]
IndexArray = npt.NDArray[np.intp]
_Scalar = TypeVar("_Scalar", bound=np.generic)
Anchor = Collection[BotId] | Mapping[BotId, float]
"""Bots whose mean is held at ``anchor_rating``, or bots pinned each at a rating."""


@dataclass(frozen=True, slots=True)
class StandingsParams:
    """Constants of the official standings.

    ``prior_draws`` virtual draws per bot against an average bot; ``provisional_games`` is the
    number of matches below which a bot is flagged provisional and left out of the default
    anchor; ``confidence`` is the coverage of the published interval; ``tolerance`` is a
    Newton step (in natural-log strength) small enough to be the last: the error left after it
    is of the order of its square.
    """

    anchor_rating: float = 1500.0
    scale: float = 400.0
    prior_draws: float = 2.0
    provisional_games: int = 20
    confidence: float = 0.95
    tolerance: float = 1e-6
    max_iterations: int = 100

    def __post_init__(self) -> None:
        if not math.isfinite(self.anchor_rating):
            raise ValueError("anchor_rating must be finite")
        if not (math.isfinite(self.scale) and self.scale > 0):
            raise ValueError("scale must be finite and > 0")
        if not (math.isfinite(self.prior_draws) and self.prior_draws > 0):
            raise ValueError("prior_draws must be finite and > 0; it keeps the fit defined")
        if self.provisional_games < 0:
            raise ValueError("provisional_games must be >= 0")
        if not 0 < self.confidence < 1:
            raise ValueError("confidence must lie strictly between 0 and 1")
        if not self.tolerance > 0:
            raise ValueError("tolerance must be > 0")
        if self.max_iterations < 1:
            raise ValueError("max_iterations must be >= 1")


DEFAULT_PARAMS = StandingsParams()


@dataclass(frozen=True, slots=True, eq=False)
class _Terms:
    """Denominator terms of one size s: log-likelihood -= weight * log(sum of w over members)."""

    members: IndexArray
    weights: FloatArray


@dataclass(frozen=True, slots=True, eq=False)
class MatchLog(Generic[BotId]):
    """A match log compiled for fitting: the sufficient statistics of the log-likelihood.

    The log-likelihood is ``linear @ theta - sum over terms of weight * log(sum exp theta)``.
    Build one with ``compile_log``, add matches with ``extend_log``; arrays are read-only.
    """

    bots: tuple[BotId, ...]
    index: Mapping[BotId, int]
    games: npt.NDArray[np.int64]
    linear: FloatArray
    terms: tuple[_Terms, ...]
    matches: int


@dataclass(frozen=True, slots=True)
class Standing(Generic[BotId]):
    """One bot's official standing on the Elo scale, with its confidence interval."""

    bot: BotId
    rating: float
    low: float
    high: float
    stderr: float
    games: int
    provisional: bool


@dataclass(frozen=True, slots=True, eq=False)
class Posterior(Generic[BotId]):
    """What a fit leaves for ``fold``: the log-strengths at the optimum, the Hessian of the
    negative log-posterior there (prior included), and each bot's games, in ``bots`` order."""

    bots: tuple[BotId, ...]
    theta: FloatArray
    hessian: FloatArray
    games: npt.NDArray[np.int64]
    matches: int


@dataclass(frozen=True, slots=True)
class Standings(Generic[BotId]):
    """A fitted ladder: entries best first, plus what the next (warm) fit starts from."""

    entries: tuple[Standing[BotId], ...]
    log_strengths: dict[BotId, float]
    iterations: int
    converged: bool
    matches: int
    posterior: Posterior[BotId] | None = None

    def by_bot(self) -> dict[BotId, Standing[BotId]]:
        return {entry.bot: entry for entry in self.entries}


def compile_log(matches: Iterable[Mapping[BotId, int]]) -> MatchLog[BotId]:
    """Compile a match log; each match maps its bots to their final ranks (1 best, ties equal)."""
    empty: MatchLog[BotId] = MatchLog(
        bots=(),
        index={},
        games=np.zeros(0, dtype=np.int64),
        linear=np.zeros(0),
        terms=(),
        matches=0,
    )
    return extend_log(empty, matches)


def extend_log(log: MatchLog[BotId], matches: Iterable[Mapping[BotId, int]]) -> MatchLog[BotId]:
    """A new log holding ``log``'s matches and ``matches``; ``log`` itself is not changed."""
    index = dict(log.index)
    bots = list(log.bots)
    strict: dict[int, list[list[int]]] = {}
    tied_terms: dict[int, tuple[list[list[int]], list[float]]] = {}
    tied_linear: dict[int, float] = {}
    played: list[int] = []
    count = 0
    for match in matches:
        if len(match) < 2:
            raise ValueError(f"a match needs at least two bots, got {dict(match)!r}")
        ordered = sorted(match.items(), key=itemgetter(1))
        seats = []
        for bot, _ in ordered:
            position = index.get(bot)
            if position is None:
                position = index[bot] = len(bots)
                bots.append(bot)
            seats.append(position)
        played.extend(seats)
        ranks = [rank for _, rank in ordered]
        if len(set(ranks)) == len(ranks):
            strict.setdefault(len(seats), []).append(seats)
        else:
            _tied_match(seats, ranks, tied_terms, tied_linear)
        count += 1

    n = len(bots)
    games = _grow(log.games, n) + np.bincount(np.asarray(played, dtype=np.intp), minlength=n)
    linear = _grow(log.linear, n)
    by_size: dict[int, list[_Terms]] = {}
    for terms in log.terms:
        by_size.setdefault(terms.members.shape[1], []).append(terms)
    for size, rows in strict.items():
        order = np.asarray(rows, dtype=np.intp)
        linear += np.bincount(order[:, :-1].ravel(), minlength=n)
        for first in range(size - 1):
            members = np.ascontiguousarray(order[:, first:])
            weights = np.ones(len(rows), dtype=np.float64)
            by_size.setdefault(size - first, []).append(_Terms(members, weights))
    for size, (members_list, weights_list) in tied_terms.items():
        members = np.asarray(members_list, dtype=np.intp)
        weights = np.asarray(weights_list, dtype=np.float64)
        by_size.setdefault(size, []).append(_Terms(members, weights))
    for position, amount in tied_linear.items():
        linear[position] += amount

    merged = []
    for size in sorted(by_size):
        parts = by_size[size]
        members = np.concatenate([part.members for part in parts])
        weights = np.concatenate([part.weights for part in parts])
        merged.append(_Terms(_frozen(members), _frozen(weights)))
    return MatchLog(
        bots=tuple(bots),
        index=index,
        games=_frozen(games),
        linear=_frozen(linear),
        terms=tuple(merged),
        matches=log.matches + count,
    )


def fit(
    log: MatchLog[BotId],
    params: StandingsParams = DEFAULT_PARAMS,
    warm_start: Mapping[BotId, float] | None = None,
    anchor: Anchor[BotId] | None = None,
) -> Standings[BotId]:
    """Fit the standings of ``log``.

    ``warm_start`` is a previous fit's ``log_strengths``: bots it knows start there, others at
    the average, and a refit after a few new matches then takes about three Newton steps.
    ``anchor`` pins the mean of those bots (the ones present in the log) at
    ``params.anchor_rating``; by default the established bots are the anchor, or every bot
    while none is established yet. A mapping of bots to ratings pins each at its own rating
    (``pinned_offset``); pinned bots absent from the log are left out, and with none present
    the default anchor applies.
    """
    n = len(log.bots)
    if n == 0:
        return Standings(entries=(), log_strengths={}, iterations=0, converged=True, matches=0)
    theta = np.zeros(n)
    if warm_start is not None:
        for bot, value in warm_start.items():
            position = log.index.get(bot)
            if position is not None:
                theta[position] = value
    objective = _Objective(log, np.full(n, params.prior_draws))
    theta, iterations, converged = _newton(objective, theta, params)
    _, _, hessian = objective.derivatives(theta)
    posterior = Posterior(log.bots, theta, hessian, log.games, log.matches)
    return _standings(posterior, params, anchor, iterations, converged)


def fold(
    posterior: Posterior[BotId],
    matches: Iterable[Mapping[BotId, int]],
    params: StandingsParams = DEFAULT_PARAMS,
    anchor: Anchor[BotId] | None = None,
) -> Standings[BotId]:
    """The standings after ``matches`` are added to the log ``posterior`` was fitted on,
    starting from that fit and reading only the new matches (module doc: an approximation
    whose error grows with the share of the log folded in). Bots new to the log get the prior;
    the others' prior is already part of ``posterior.hessian``."""
    known = len(posterior.bots)
    base: MatchLog[BotId] = MatchLog(
        bots=posterior.bots,
        index={bot: i for i, bot in enumerate(posterior.bots)},
        games=posterior.games,
        linear=np.zeros(known),
        terms=(),
        matches=posterior.matches,
    )
    log = extend_log(base, matches)
    n = len(log.bots)
    prior = np.zeros(n)
    prior[known:] = params.prior_draws
    center = _grow(posterior.theta, n)
    curvature = np.zeros((n, n))
    curvature[:known, :known] = posterior.hessian
    objective = _Objective(log, prior, center, curvature)
    theta, iterations, converged = _newton(objective, center.copy(), params)
    _, _, hessian = objective.derivatives(theta)
    folded = Posterior(log.bots, theta, hessian, log.games, log.matches)
    return _standings(folded, params, anchor, iterations, converged)


def pinned_offset(pins: Mapping[BotId, float], fitted: Mapping[BotId, float]) -> float:
    """The offset c that puts fitted numbers (known up to an offset) on the pins' scale: it
    minimises the sum over pinned bots of (c + fitted[bot] - pins[bot])^2, so c is the mean of
    pins - fitted. Only bots in both mappings count."""
    present = [bot for bot in pins if bot in fitted]
    if not present:
        raise ValueError("none of the pinned bots has played a match in this log")
    return math.fsum(pins[bot] - fitted[bot] for bot in present) / len(present)


def scale_shift(
    standings: Standings[BotId],
    before: Collection[BotId],
    params: StandingsParams = DEFAULT_PARAMS,
) -> float:
    """How far every official standing of ``standings`` moved because the set of established
    bots (the default anchor, held at ``anchor_rating`` on average) is not ``before`` any
    more: the standings on today's anchor minus what they would read on ``before``, both from
    this one fit. Zero when no bot of ``before`` is in the fit (nothing to compare with)."""
    posterior = standings.posterior
    if posterior is None:
        return 0.0
    index = {bot: i for i, bot in enumerate(posterior.bots)}
    old = [index[bot] for bot in before if bot in index]
    new = [index[bot] for bot in default_anchor(standings)]
    if not old or not new:
        return 0.0
    to_elo = params.scale / math.log(10.0)
    theta = posterior.theta
    return float(to_elo * (theta[old].mean() - theta[new].mean()))


def established(standings: Standings[BotId]) -> frozenset[BotId]:
    """The established bots of a fit (the default anchor, unless none is)."""
    return frozenset(entry.bot for entry in standings.entries if not entry.provisional)


def default_anchor(standings: Standings[BotId]) -> frozenset[BotId]:
    """The bots the default anchor is made of: the established ones, or every bot while none
    is (as ``fit`` anchors them)."""
    return established(standings) or frozenset(entry.bot for entry in standings.entries)


def _standings(
    posterior: Posterior[BotId],
    params: StandingsParams,
    anchor: Anchor[BotId] | None,
    iterations: int,
    converged: bool,
) -> Standings[BotId]:
    """Anchored ratings and intervals of a fit, from its optimum and Hessian."""
    n = len(posterior.bots)
    theta, games = posterior.theta, posterior.games
    provisional = games < params.provisional_games
    to_elo = params.scale / math.log(10.0)
    pins: Mapping[BotId, float] = {}
    if isinstance(anchor, Mapping):
        pins = anchor
        anchor = [bot for bot in posterior.bots if bot in pins] or None
    if anchor is None:
        chosen = np.flatnonzero(~provisional)
        if chosen.size == 0:
            chosen = np.arange(n)
    else:
        index = {bot: i for i, bot in enumerate(posterior.bots)}
        chosen = np.asarray(sorted(index[bot] for bot in anchor if bot in index))
        if chosen.size == 0:
            raise ValueError("none of the anchor bots has played a match in this log")
    diagonal, anchor_mean = _covariance(posterior.hessian, chosen)
    variance = diagonal - 2.0 * anchor_mean + anchor_mean[chosen].mean()
    if pins and anchor is not None:
        fitted = {bot: float(to_elo * theta[i]) for i, bot in enumerate(posterior.bots)}
        ratings = pinned_offset(pins, fitted) + to_elo * theta
    else:
        ratings = params.anchor_rating + to_elo * (theta - theta[chosen].mean())
    stderr = to_elo * np.sqrt(np.maximum(variance, 0.0))
    z = NormalDist().inv_cdf(0.5 + params.confidence / 2.0)

    entries = [
        Standing(
            bot=posterior.bots[i],
            rating=float(ratings[i]),
            low=float(ratings[i] - z * stderr[i]),
            high=float(ratings[i] + z * stderr[i]),
            stderr=float(stderr[i]),
            games=int(games[i]),
            provisional=bool(provisional[i]),
        )
        for i in range(n)
    ]
    entries.sort(key=lambda entry: -entry.rating)
    return Standings(
        entries=tuple(entries),
        log_strengths={bot: float(theta[i]) for i, bot in enumerate(posterior.bots)},
        iterations=iterations,
        converged=converged,
        matches=posterior.matches,
        posterior=posterior,
    )


def _covariance(hessian: FloatArray, chosen: IndexArray) -> tuple[FloatArray, FloatArray]:
    """The diagonal of the covariance (the inverse of ``hessian``) and its rows' means over the
    columns ``chosen``, without the whole inverse: from the Cholesky factor L of the Hessian
    (which the prior makes positive definite), the inverse is inv(L)' inv(L), so its diagonal is
    the column sums of squares of inv(L), and the means are inv(L)' (inv(L) w) for the weights
    w of ``chosen``. A third of the arithmetic of ``np.linalg.inv``."""
    n = hessian.shape[0]
    weights = np.zeros(n)
    weights[chosen] = 1.0 / chosen.size
    try:
        lower = np.linalg.cholesky(hessian)
        inverse, info = dtrtri(lower, lower=1)
        if info != 0:
            raise np.linalg.LinAlgError(f"dtrtri: info {info}")
    except np.linalg.LinAlgError:  # not numerically positive definite: the general inverse
        covariance = np.linalg.inv(hessian)
        return np.diag(covariance).copy(), covariance @ weights
    diagonal: FloatArray = np.einsum("ij,ij->j", inverse, inverse)
    means: FloatArray = inverse.T @ (inverse @ weights)
    return diagonal, means


def _solve(hessian: FloatArray, gradient: FloatArray) -> FloatArray:
    """The Newton step: ``hessian`` is positive definite (a strictly convex objective), so by
    Cholesky, twice as fast as a general solve; the general solve if rounding says otherwise."""
    try:
        factor = cho_factor(hessian, lower=True, check_finite=False)
    except np.linalg.LinAlgError:
        return np.asarray(np.linalg.solve(hessian, gradient))
    return np.asarray(cho_solve(factor, gradient, check_finite=False))


def _tied_match(
    seats: list[int],
    ranks: list[int],
    terms: dict[int, tuple[list[list[int]], list[float]]],
    linear: dict[int, float],
) -> None:
    """Add a match with ties, seats sorted best first, as averaged Plackett-Luce terms.

    Placing a tied block B (m bots) next, from the bots R still unplaced, in a uniformly random
    order, has expected log-likelihood sum_B theta - sum_{k<m} mean_{S in B, |S|=k} log W(R - S):
    the k-th draw's denominator is the strength left after a random k-subset of B has gone.
    A one-bot denominator log W = theta_j is linear and is folded into ``linear``.
    """
    remaining = list(seats)
    start = 0
    while start < len(seats):
        stop = start + 1
        while stop < len(seats) and ranks[stop] == ranks[start]:
            stop += 1
        block = seats[start:stop]
        for bot in block:
            linear[bot] = linear.get(bot, 0.0) + 1.0
        for k in range(len(block)):
            weight = 1.0 / math.comb(len(block), k)
            for gone in combinations(block, k):
                rest = [bot for bot in remaining if bot not in gone]
                if len(rest) == 1:
                    linear[rest[0]] = linear.get(rest[0], 0.0) - weight
                else:
                    members, weights = terms.setdefault(len(rest), ([], []))
                    members.append(rest)
                    weights.append(weight)
        remaining = [bot for bot in remaining if bot not in block]
        start = stop


class _Objective:
    """The negative log-posterior, its gradient and Hessian, vectorised over the terms.

    ``prior_draws`` is per bot. A ``center`` and ``curvature`` add the quadratic
    0.5 (theta - center)' curvature (theta - center): a folded fit's stand-in for the old log.
    """

    def __init__(
        self,
        log: MatchLog[Any],
        prior_draws: FloatArray,
        center: FloatArray | None = None,
        curvature: FloatArray | None = None,
    ) -> None:
        self.n = len(log.bots)
        self.linear = log.linear
        self.terms = log.terms
        self.prior_draws = prior_draws
        self.center = center
        self.curvature = curvature
        self._pairs: list[IndexArray] | None = None

    def value(self, theta: FloatArray) -> float:
        total = -float(self.linear @ theta)
        for terms in self.terms:
            total += float(terms.weights @ _log_sum_exp(theta[terms.members]))
        prior = np.logaddexp(0.0, theta) - 0.5 * theta
        total += float(self.prior_draws @ prior)
        if self.center is not None and self.curvature is not None:
            shift = theta - self.center
            total += 0.5 * float(shift @ (self.curvature @ shift))
        return total

    def derivatives(self, theta: FloatArray) -> tuple[float, FloatArray, FloatArray]:
        """Value, gradient and Hessian at ``theta``."""
        n = self.n
        if self._pairs is None:
            self._pairs = [
                (terms.members[:, :, None] * n + terms.members[:, None, :]).ravel()
                for terms in self.terms
            ]
        total = -float(self.linear @ theta)
        expected = np.zeros(n)
        outer = np.zeros(n * n)
        for terms, pairs in zip(self.terms, self._pairs, strict=True):
            gathered = theta[terms.members]
            peak = gathered.max(axis=1, keepdims=True)
            exps = np.exp(gathered - peak)
            sums = exps.sum(axis=1)
            total += float(terms.weights @ (np.log(sums) + peak[:, 0]))
            shares = exps / sums[:, None]
            weighted = shares * terms.weights[:, None]
            expected += np.bincount(terms.members.ravel(), weighted.ravel(), minlength=n)
            products = weighted[:, :, None] * shares[:, None, :]
            outer += np.bincount(pairs, products.ravel(), minlength=n * n)
        sigmoid = 0.5 * (1.0 + np.tanh(0.5 * theta))
        prior = np.logaddexp(0.0, theta) - 0.5 * theta
        total += float(self.prior_draws @ prior)
        gradient = expected - self.linear + self.prior_draws * (sigmoid - 0.5)
        hessian = -outer.reshape(n, n)
        hessian[np.diag_indices(n)] += expected + self.prior_draws * sigmoid * (1.0 - sigmoid)
        if self.center is not None and self.curvature is not None:
            shift = theta - self.center
            pulled = self.curvature @ shift
            total += 0.5 * float(shift @ pulled)
            gradient += pulled
            hessian += self.curvature
        return total, gradient, hessian


def _newton(
    objective: _Objective, theta: FloatArray, params: StandingsParams
) -> tuple[FloatArray, int, bool]:
    """Damped Newton: backtracking (Armijo) while far from the optimum, full steps near it.

    Stops after applying a step no larger than ``params.tolerance``: Newton converges
    quadratically, so the error left is of the order of the square of that step. Returns the
    optimum, the number of Newton steps (Hessians evaluated) and whether it converged.
    """
    for iteration in range(1, params.max_iterations + 1):
        value, gradient, hessian = objective.derivatives(theta)
        step = _solve(hessian, gradient)
        if float(np.abs(step).max()) <= params.tolerance:
            return theta - step, iteration, True
        decrement = float(gradient @ step)
        size = 1.0
        while decrement > _FULL_STEP_DECREMENT:
            if objective.value(theta - size * step) <= value - 1e-4 * size * decrement:
                break
            size *= 0.5
            if size < 1e-12:
                return theta, iteration, False
        theta = theta - size * step
    return theta, params.max_iterations, False


_FULL_STEP_DECREMENT = 1e-2
"""Below this Newton decrement (twice the predicted gain) a full step is taken unchecked: the
quadratic model is then accurate, and checking would cost one more pass over the terms."""


def _log_sum_exp(values: FloatArray) -> FloatArray:
    peak = values.max(axis=1)
    result: FloatArray = np.log(np.exp(values - peak[:, None]).sum(axis=1)) + peak
    return result


def _grow(array: npt.NDArray[_Scalar], n: int) -> npt.NDArray[_Scalar]:
    grown = np.zeros(n, dtype=array.dtype)
    grown[: array.size] = array
    return grown


def _frozen(array: npt.NDArray[_Scalar]) -> npt.NDArray[_Scalar]:
    array.flags.writeable = False
    return array
