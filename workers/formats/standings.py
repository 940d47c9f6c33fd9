"""Tournament standings: points from each match's ranks, then ranks with tie-breaks.

Points. A match of n seats awards ``points[p]`` to the seat finishing in position p (0 = first).
Bots tied on a rank share the positions they cover equally: two bots tied for first in a
two-seat match each get ``(points[0] + points[1]) / 2``. The default table is ``n - 1, n - 2,
..., 0``: one point per bot beaten, a half per bot tied with. Sums are exact (fractions), so
ties in the table are true ties, never float noise.

Ranks. Bots are ordered by points, then by each tie-break in turn, applied only among the bots
still level:

- ``head-to-head``: pairwise score against the other still-level bots, over the matches they
  shared (1 per bot finished above, a half per tie);
- ``buchholz``: the sum, over every match played, of the final points of the bots met in it
  (the Swiss measure of the strength of opposition);
- ``wins``: matches finished first alone (a tie for first is not a win).

Bots level on everything share a rank (competition ranking: 1, 2, 2, 4) and are listed by id.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from workers.formats._common import BotId, bot_key, check_bots

__all__ = [
    "DEFAULT_TIEBREAKS",
    "MatchResult",
    "Standing",
    "Tiebreak",
    "match_points",
    "standings",
]


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One finished match: the bots in seat order and their ranks (1 = best, equal = tied)."""

    seats: tuple[BotId, ...]
    ranks: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.seats) != len(self.ranks) or len(self.seats) < 2:
            raise ValueError("a result needs one rank per seat and at least two seats")
        check_bots(self.seats)
        if any(rank < 1 for rank in self.ranks):
            raise ValueError("ranks start at 1")


class Tiebreak(StrEnum):
    HEAD_TO_HEAD = "head-to-head"
    BUCHHOLZ = "buchholz"
    WINS = "wins"


DEFAULT_TIEBREAKS = (Tiebreak.HEAD_TO_HEAD, Tiebreak.BUCHHOLZ, Tiebreak.WINS)


@dataclass(frozen=True, slots=True)
class Standing:
    bot: BotId
    rank: int
    points: float
    games: int
    wins: int
    buchholz: float
    byes: int


def match_points(
    ranks: Sequence[int], points: Sequence[float] | None = None
) -> tuple[Fraction, ...]:
    """Each seat's points, exactly, for a match finishing with ``ranks`` (see the module doc)."""
    size = len(ranks)
    table = [Fraction(p) for p in points] if points is not None else _default_table(size)
    if len(table) != size:
        raise ValueError(f"a points table of {len(table)} entries for a match of {size} seats")
    by_rank = sorted(range(size), key=lambda seat: ranks[seat])
    out = [Fraction(0)] * size
    start = 0
    for _, level in itertools.groupby(by_rank, key=lambda seat: ranks[seat]):
        seats = list(level)
        share = sum(table[start : start + len(seats)], Fraction(0)) / len(seats)
        for seat in seats:
            out[seat] = share
        start += len(seats)
    return tuple(out)


def standings(
    results: Iterable[MatchResult],
    *,
    bots: Iterable[BotId] = (),
    points: Sequence[float] | None = None,
    byes: Iterable[BotId] = (),
    bye_points: float | None = None,
    tiebreaks: Sequence[Tiebreak] = DEFAULT_TIEBREAKS,
) -> tuple[Standing, ...]:
    """The table of a tournament, best first.

    ``bots`` adds bots that have not played yet; ``byes`` has one entry per bye given, each
    worth ``bye_points``, by default the mean points of a seat (so sitting out neither helps
    nor hurts on average).
    """
    played = list(results)
    bye_list = list(byes)
    totals: dict[BotId, Fraction] = defaultdict(Fraction)
    for bot in check_bots(set(bots) | {b for r in played for b in r.seats} | set(bye_list)):
        totals[bot] = Fraction(0)
    per_match = [match_points(result.ranks, points) for result in played]
    for result, awarded in zip(played, per_match, strict=True):
        for bot, value in zip(result.seats, awarded, strict=True):
            totals[bot] += value
    bye_value = _bye_value(played, points, bye_points) if bye_list else Fraction(0)
    for bot in bye_list:
        totals[bot] += bye_value
    buchholz = _buchholz(played, totals)
    wins = Counter(
        bot
        for result in played
        for bot, rank in zip(result.seats, result.ranks, strict=True)
        if rank == min(result.ranks) and result.ranks.count(rank) == 1
    )
    games = Counter(bot for result in played for bot in result.seats)
    bye_counts = Counter(bye_list)
    criteria: list[Callable[[list[BotId]], Mapping[BotId, Fraction | int]]] = [lambda block: totals]
    named: dict[Tiebreak, Callable[[list[BotId]], Mapping[BotId, Fraction | int]]] = {
        Tiebreak.HEAD_TO_HEAD: lambda block: _head_to_head(played, block),
        Tiebreak.BUCHHOLZ: lambda block: buchholz,
        Tiebreak.WINS: lambda block: wins,
    }
    criteria.extend(named[Tiebreak(t)] for t in tiebreaks)
    out: list[Standing] = []
    for level in _order(sorted(totals, key=bot_key), criteria):
        rank = len(out) + 1
        out.extend(
            Standing(
                bot=bot,
                rank=rank,
                points=float(totals[bot]),
                games=games[bot],
                wins=wins[bot],
                buchholz=float(buchholz[bot]),
                byes=bye_counts[bot],
            )
            for bot in level
        )
    return tuple(out)


def _default_table(size: int) -> list[Fraction]:
    return [Fraction(size - 1 - position) for position in range(size)]


def _bye_value(
    played: Sequence[MatchResult], points: Sequence[float] | None, bye_points: float | None
) -> Fraction:
    if bye_points is not None:
        return Fraction(bye_points)
    if points is not None:
        return sum((Fraction(p) for p in points), Fraction(0)) / len(points)
    sizes = {len(result.seats) for result in played}
    if len(sizes) != 1:
        raise ValueError("give bye_points: the size of a match is not known from the results")
    return Fraction(sizes.pop() - 1, 2)


def _buchholz(
    played: Iterable[MatchResult], totals: Mapping[BotId, Fraction]
) -> dict[BotId, Fraction]:
    out: dict[BotId, Fraction] = defaultdict(Fraction)
    for result in played:
        for bot in result.seats:
            out[bot] += sum((totals[o] for o in result.seats if o != bot), Fraction(0))
    return out


def _head_to_head(played: Iterable[MatchResult], block: Sequence[BotId]) -> dict[BotId, Fraction]:
    """Pairwise score of each bot of ``block`` against the others of ``block``."""
    members = set(block)
    out: dict[BotId, Fraction] = defaultdict(Fraction)
    for result in played:
        here = [(b, r) for b, r in zip(result.seats, result.ranks, strict=True) if b in members]
        for (a, rank_a), (b, rank_b) in itertools.combinations(here, 2):
            if rank_a == rank_b:
                out[a] += Fraction(1, 2)
                out[b] += Fraction(1, 2)
            else:
                out[a if rank_a < rank_b else b] += 1
    return out


def _order(
    block: list[BotId], criteria: Sequence[Callable[[list[BotId]], Mapping[BotId, Fraction | int]]]
) -> list[list[BotId]]:
    """``block`` split into levels, best first: by the first criterion, then the rest within
    each level that the first leaves tied."""
    if len(block) <= 1 or not criteria:
        return [block]
    values = criteria[0](block)
    levels: list[list[BotId]] = []
    for value in sorted({values.get(bot, 0) for bot in block}, reverse=True):
        level = [bot for bot in block if values.get(bot, 0) == value]
        levels.extend(_order(level, criteria[1:]))
    return levels
