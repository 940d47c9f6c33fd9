"""Seat advantage from a match log: how much sitting in a seat is worth, with an interval.

For one match of N players, seat s scores ``h_s``, its mean head-to-head result against the
other N - 1 seats (1 for each seat it finished above, 1/2 level, 0 below). Without a seat
advantage every seat's expected ``h_s`` is 1/2 whatever the bots, provided the bots are seated
without regard to seat (every league format rotates seats; docs/leagues.md). The estimate for
seat s is the mean of ``h_s`` over the matches of that player count, with a normal-approximation
interval from the sample variance (the per-match values are bounded, and there are many); its
Elo equivalent is ``-400 log10(1 / h - 1)``, the rating edge that would give the same score.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

__all__ = ["SeatEstimate", "SeatTable", "seat_advantage", "seat_scores"]

Z95 = NormalDist().inv_cdf(0.975)
_ELO_CAP = 800.0


@dataclass(frozen=True, slots=True)
class SeatEstimate:
    seat: int
    score: float
    low: float
    high: float
    elo: float
    """The Elo edge equivalent to ``score`` (capped at +-800 for a seat that always wins)."""


@dataclass(frozen=True, slots=True)
class SeatTable:
    players: int
    matches: int
    seats: tuple[SeatEstimate, ...]


def seat_scores(ranks: Sequence[int]) -> list[float]:
    """Each seat's mean head-to-head score against the other seats of one match."""
    n = len(ranks)
    if n < 2:
        raise ValueError("seat advantage needs two or more seats")
    out = []
    for s, mine in enumerate(ranks):
        total = sum(
            1.0 if mine < other else 0.5 if mine == other else 0.0
            for t, other in enumerate(ranks)
            if t != s
        )
        out.append(total / (n - 1))
    return out


def _elo(score: float) -> float:
    if score <= 0.0:
        return -_ELO_CAP
    if score >= 1.0:
        return _ELO_CAP
    return max(-_ELO_CAP, min(_ELO_CAP, -400.0 * math.log10(1.0 / score - 1.0)))


def _estimate(seat: int, values: Sequence[float]) -> SeatEstimate:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        low, high = 0.0, 1.0
    else:
        variance = sum((v - mean) ** 2 for v in values) / (n - 1)
        half = Z95 * math.sqrt(variance / n)
        low, high = max(0.0, mean - half), min(1.0, mean + half)
    return SeatEstimate(seat, mean, low, high, _elo(mean))


def seat_advantage(matches: Iterable[Sequence[int]]) -> list[SeatTable]:
    """One table per player count seen, fewest players first, from each match's ranks in seat
    order (matches with fewer than two seats are skipped)."""
    by_count: dict[int, list[list[float]]] = {}
    for ranks in matches:
        if len(ranks) < 2:
            continue
        by_count.setdefault(len(ranks), []).append(seat_scores(ranks))
    tables = []
    for players in sorted(by_count):
        rows = by_count[players]
        seats = tuple(_estimate(s, [row[s] for row in rows]) for s in range(players))
        tables.append(SeatTable(players, len(rows), seats))
    return tables
