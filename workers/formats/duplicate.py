"""Duplicate tables: one deal played N times with the seats rotated, so the deal's luck cancels.

A group of N bots plays N tables that share one match seed (so one deal, one shuffle of every
deck). The seatings are the rows of a Latin square: each bot sits in each seat exactly once, so
whatever seat s was dealt, every bot held it once. For even N the square is a Williams square,
in which each bot also sits immediately before each other bot exactly once (who plays after
whom matters in most card games); for odd N no such square of N rows exists, and the square is
the cyclic one.

The group is then scored as a whole (`score_duplicate`): a bot's total is its points summed
over the N tables, and the group's ranking by those totals is one result for the standings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from games.rng import Rng, Seed, derive_seed
from workers.formats._common import BotId, Table, bot_key, check_bots, check_seats, shuffled
from workers.formats.declaration import LeagueFormat, RoundRequest, as_tables
from workers.formats.declaration import Table as LeagueTable
from workers.formats.round_robin import cycle_length, round_robin_round
from workers.formats.standings import MatchResult, match_points

__all__ = [
    "FORMAT",
    "DuplicateScore",
    "as_duplicate_groups",
    "duplicate_tables",
    "score_duplicate",
    "seat_square",
]


@dataclass(frozen=True, slots=True)
class DuplicateScore:
    """A duplicate group's result: bots best first, their summed points and their ranks."""

    bots: tuple[BotId, ...]
    totals: tuple[float, ...]
    ranks: tuple[int, ...]

    def result(self) -> MatchResult:
        """The group as one result, for `standings`."""
        return MatchResult(self.bots, self.ranks)


def seat_square(size: int) -> tuple[tuple[int, ...], ...]:
    """Row k lists, seat by seat, which of ``size`` players sits there at table k."""
    if size % 2:
        first = list(range(size))
    else:
        # 0, 1, n-1, 2, n-2, ...: consecutive differences take every nonzero value mod n once.
        first = [0]
        for step in range(1, size):
            first.append(step // 2 + 1 if step % 2 else size - step // 2)
        first = [f % size for f in first]
    return tuple(tuple((f + k) % size for f in first) for k in range(size))


def duplicate_tables(
    bots: Sequence[BotId], seed: Seed, *, group: str | None = None
) -> tuple[Table, ...]:
    """The N tables of a duplicate group of the N ``bots``, all sharing one match seed.

    ``group`` names the group on every table (by default the seed's first 16 hex digits).
    """
    check_seats(len(bots))
    field = check_bots(bots)
    match_seed = derive_seed("premiere-duplicate", seed)
    order = shuffled(field, Rng(derive_seed("premiere-duplicate-seats", seed)))
    name = group if group is not None else match_seed.hex()[:16]
    return tuple(
        Table(tuple(order[player] for player in row), match_seed, name)
        for row in seat_square(len(field))
    )


def score_duplicate(
    tables: Sequence[Table],
    ranks: Sequence[Sequence[int]],
    *,
    points: Sequence[float] | None = None,
) -> DuplicateScore:
    """Score a played duplicate group: ``ranks[k]`` are table k's ranks in seat order.

    Refuses anything that is not a whole group (one seed, one group name, each bot once in
    each seat), since a partial rotation does not cancel the deal's luck.
    """
    _check_group(tables)
    if len(ranks) != len(tables):
        raise ValueError("one list of ranks per table")
    exact = {bot: Fraction(0) for bot in tables[0].seats}
    for table, table_ranks in zip(tables, ranks, strict=True):
        if len(table_ranks) != len(table.seats):
            raise ValueError("one rank per seat")
        for bot, value in zip(table.seats, match_points(table_ranks, points), strict=True):
            exact[bot] += value
    order = sorted(exact, key=lambda bot: (-exact[bot], bot_key(bot)))
    group_ranks = [1 + [exact[o] for o in order].index(exact[bot]) for bot in order]
    return DuplicateScore(
        bots=tuple(order),
        totals=tuple(float(exact[bot]) for bot in order),
        ranks=tuple(group_ranks),
    )


def _check_group(tables: Sequence[Table]) -> None:
    if not tables:
        raise ValueError("an empty duplicate group")
    size = len(tables[0].seats)
    bots = set(tables[0].seats)
    if len(tables) != size:
        raise ValueError(f"a duplicate group of {size} bots has {size} tables, not {len(tables)}")
    if len({(table.seed, table.group) for table in tables}) != 1:
        raise ValueError("the tables of a duplicate group share one seed and one group")
    for seat in range(size):
        if {table.seats[seat] for table in tables} != bots:
            raise ValueError(f"seat {seat} is not held once by each bot of the group")


def as_duplicate_groups(
    request: RoundRequest, tables: Sequence[LeagueTable], kind: str
) -> list[LeagueTable]:
    """Each planned table becomes a duplicate group of its bots: one deal, seats rotated."""
    grouped: list[LeagueTable] = []
    for index, table in enumerate(tables):
        label = f"r{request.number}g{index}"
        group_seed = derive_seed(request.seed, kind, request.number, index)
        grouped += as_tables(duplicate_tables(table.seats, group_seed, group=label))
    return grouped


def _plan(request: RoundRequest) -> list[LeagueTable]:
    """Round robin groups, each played as a duplicate group."""
    tables: list[LeagueTable] = []
    for index, group in enumerate(round_robin_round(request).tables):
        label = f"r{request.number}g{index}"
        group_seed = derive_seed(request.seed, "duplicate", request.number, index)
        tables += as_tables(duplicate_tables(group.seats, group_seed, group=label))
    return tables


FORMAT = LeagueFormat("duplicate", _plan, cycle_length, duplicate=True)
