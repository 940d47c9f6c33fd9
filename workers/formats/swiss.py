"""Swiss: each round pairs bots of like score, never repeating a pairing that can be avoided.

The rule, in order of precedence:

1. Byes (``B mod N`` bots sit out) go to the bots with the fewest byes so far; that is never
   traded for anything else.
2. The round has as few *repeated pairs* as possible: a repeated pair is two bots at one table
   that have already shared a table (for two seats: a rematch). In particular a round repeats
   nothing whenever some choice of fair byes and tables repeats nothing.
3. Among the choices as good on 1 and 2, the byes go to the lowest-ranked bots, and tables are
   filled top-down: the best-ranked unseated bot sits with the next best-ranked bots that keep
   2 (a depth-first search in rank order, so score groups stay together and a clash is
   resolved as low in the standings as possible).

The search (depth-first, with a lower bound on the repeats still to come and a memo of dead
ends) is exact up to ``budget`` steps. Past that the round is built greedily and improved by
swaps, which can repeat a pairing an exhaustive search would have avoided. Two-seat fields
have not been seen to need the fallback; tables of 3 or 4 do once most of the field has met
(docs/leagues.md gives the measurements).

Seats follow the history too: each table's seating is the assignment that puts every bot in
the seats it has used least (a minimum-cost assignment over the table's seats).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence

from games.rng import Rng, Seed, derive_seed
from workers.formats._common import (
    BotId,
    Round,
    Table,
    check_bots,
    check_seats,
    shuffled,
    table_seed,
)
from workers.formats.declaration import (
    LeagueFormat,
    RoundRequest,
    as_tables,
    byes,
    round_seed,
)
from workers.formats.declaration import Table as LeagueTable
from workers.formats.standings import MatchResult, standings

__all__ = [
    "DEFAULT_BUDGET",
    "FORMAT",
    "plan_swiss",
    "repeated_pairs",
    "swiss_length",
    "swiss_round",
]

DEFAULT_BUDGET = 200_000


def swiss_round(
    points: Mapping[str, float] | Mapping[int, float] | Mapping[BotId, float],
    seats: int,
    seed: Seed,
    *,
    history: Iterable[Sequence[BotId]] = (),
    byes: Iterable[BotId] = (),
    budget: int = DEFAULT_BUDGET,
) -> Round:
    """Pair the next Swiss round.

    ``points`` holds every bot in the tournament and its score so far (bots on equal points are
    ordered by the seed); ``history`` is every table played so far, in seat order (tables of
    bots no longer in ``points`` are fine and count only for the bots still in); ``byes`` lists
    one entry per bye already given. ``seed`` must be new for each round (derive it from the
    tournament's seed and the round number): it breaks ties in the ranking and seeds the
    tables' matches.
    """
    check_seats(seats)
    score: dict[BotId, float] = dict(points.items())
    field = check_bots(score)
    if len(field) < seats:
        raise ValueError(f"{len(field)} bots cannot fill a table of {seats}")
    order = shuffled(field, Rng(derive_seed("premiere-swiss", seed)))
    ranking = sorted(order, key=lambda bot: -score[bot])
    index = {bot: i for i, bot in enumerate(ranking)}
    met, seat_use = _read_history(history, index, seats)
    bye_count = Counter(index[bot] for bot in byes if bot in index)
    tables, sitting_out = _pair(len(ranking), seats, met, bye_count, budget)
    return Round(
        tables=tuple(
            Table(
                tuple(ranking[i] for i in _seat(table, seat_use)),
                table_seed("swiss", seed, table_no),
            )
            for table_no, table in enumerate(tables)
        ),
        byes=tuple(ranking[i] for i in sitting_out),
    )


def repeated_pairs(tables: Iterable[Sequence[BotId]], history: Iterable[Sequence[BotId]]) -> int:
    """How many pairs of bots seated together in ``tables`` already shared a table before."""
    seen = {frozenset(pair) for table in history for pair in itertools.combinations(table, 2)}
    return sum(
        frozenset(pair) in seen for table in tables for pair in itertools.combinations(table, 2)
    )


def _read_history(
    history: Iterable[Sequence[BotId]], index: Mapping[BotId, int], seats: int
) -> tuple[list[list[bool]], list[list[int]]]:
    """Who has shared a table with whom, and how often each bot used each seat."""
    size = len(index)
    met = [[False] * size for _ in range(size)]
    seat_use = [[0] * seats for _ in range(size)]
    for table in history:
        known = [(seat, index[bot]) for seat, bot in enumerate(table) if bot in index]
        for seat, bot in known:
            if seat < seats:
                seat_use[bot][seat] += 1
        for (_, a), (_, b) in itertools.combinations(known, 2):
            met[a][b] = met[b][a] = True
    return met, seat_use


def _bye_options(size: int, sitting_out: int, bye_count: Counter[int]) -> list[tuple[int, ...]]:
    """Every fair set of bots to sit out, the preferred (lowest-ranked) sets first.

    Fair: nobody sits out while a bot with fewer byes plays. Bots are rank indices, so a larger
    index is a lower-ranked bot.
    """
    if sitting_out == 0:
        return [()]
    preference = sorted(range(size), key=lambda i: (bye_count[i], -i))
    level = bye_count[preference[sitting_out - 1]]
    must = tuple(i for i in preference if bye_count[i] < level)
    tier = [i for i in preference if bye_count[i] == level]
    return [must + extra for extra in itertools.combinations(tier, sitting_out - len(must))]


def _pair(
    size: int, seats: int, met: list[list[bool]], bye_count: Counter[int], budget: int
) -> tuple[list[list[int]], tuple[int, ...]]:
    options = _bye_options(size, size % seats, bye_count)
    search = _Search(met, seats, budget)
    most = (size // seats) * seats * (seats - 1) // 2
    try:
        for allowed in range(most + 1):
            for sitting_out in options:
                players = [i for i in range(size) if i not in sitting_out]
                tables = search.tables(tuple(players), allowed)
                if tables is not None:
                    return tables, sitting_out
    except _OutOfBudget:
        pass
    players = [i for i in range(size) if i not in options[0]]
    return _greedy(players, seats, met), options[0]


class _OutOfBudget(Exception):
    pass


class _Search:
    """Depth-first search for tables with at most ``allowed`` repeated pairs, in rank order."""

    def __init__(self, met: list[list[bool]], seats: int, budget: int) -> None:
        self.met = met
        self.seats = seats
        self.budget = budget
        self.failed: set[tuple[tuple[int, ...], int]] = set()

    def tables(self, players: tuple[int, ...], allowed: int) -> list[list[int]] | None:
        if not players:
            return []
        if (players, allowed) in self.failed or self._bound(players) > allowed:
            return None
        anchor, rest = players[0], players[1:]
        for table, cost in self._tables_of(anchor, rest, allowed):
            left = tuple(p for p in rest if p not in table)
            found = self.tables(left, allowed - cost)
            if found is not None:
                return [table, *found]
        self.failed.add((players, allowed))
        return None

    def _tables_of(
        self, anchor: int, rest: tuple[int, ...], allowed: int
    ) -> Iterator[tuple[list[int], int]]:
        """Tables for ``anchor`` with at most ``allowed`` repeats, nearest ranks first."""

        def extend(table: list[int], start: int, cost: int) -> Iterator[tuple[list[int], int]]:
            if len(table) == self.seats:
                yield table, cost
                return
            for at in range(start, len(rest) - (self.seats - len(table)) + 1):
                bot = rest[at]
                more = cost + sum(self.met[bot][other] for other in table)
                if more <= allowed:
                    self._step()
                    yield from extend([*table, bot], at + 1, more)

        yield from extend([anchor], 0, 0)

    def _bound(self, players: tuple[int, ...]) -> int:
        """A lower bound on the repeats any tables of ``players`` must have.

        A bot that has met all but u of the others left needs at least N - 1 - u repeated
        pairs at its table, and a repeated pair is counted by both its bots.
        """
        need = self.seats - 1
        short = 0
        for bot in players:
            row = self.met[bot]
            fresh = sum(1 for other in players if not row[other]) - 1
            short += max(0, need - fresh)
        return (short + 1) // 2

    def _step(self) -> None:
        self.budget -= 1
        if self.budget < 0:
            raise _OutOfBudget


def _greedy(players: list[int], seats: int, met: list[list[bool]]) -> list[list[int]]:
    """Top-down tables, each new member the nearest-ranked bot adding the fewest repeats; then
    swaps between tables while a swap removes a repeat."""
    pool = list(players)
    tables = []
    while pool:
        table = [pool.pop(0)]
        while len(table) < seats:
            at = min(range(len(pool)), key=lambda i: (_clashes(pool[i], table, met), i))
            table.append(pool.pop(at))
        tables.append(table)
    while any(
        _swap(left, right, met) for i, left in enumerate(tables) for right in tables[i + 1 :]
    ):
        pass
    return tables


def _clashes(bot: int, table: Iterable[int], met: list[list[bool]]) -> int:
    return sum(met[bot][other] for other in table if other != bot)


def _swap(left: list[int], right: list[int], met: list[list[bool]]) -> bool:
    """Swap one bot of ``left`` with one of ``right`` if that lowers their repeats."""
    for i, x in enumerate(left):
        for j, y in enumerate(right):
            before = _clashes(x, left, met) + _clashes(y, right, met)
            after = _clashes(y, (b for b in left if b != x), met) + _clashes(
                x, (b for b in right if b != y), met
            )
            if after < before:
                left[i], right[j] = y, x
                return True
    return False


def _seat(table: Sequence[int], seat_use: list[list[int]]) -> tuple[int, ...]:
    """The seating of ``table`` that minimises the bots' past uses of their seats.

    A dynamic programme over which bots are seated so far (at most 2**8 states); on equal cost
    the better-ranked bot keeps the earlier seat.
    """
    size = len(table)
    best: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}
    for seat in range(size):
        nxt: dict[int, tuple[int, tuple[int, ...]]] = {}
        for mask, (cost, order) in best.items():
            for k, bot in enumerate(table):
                if mask >> k & 1:
                    continue
                candidate = (cost + seat_use[bot][seat], (*order, bot))
                key = mask | 1 << k
                if key not in nxt or candidate < nxt[key]:
                    nxt[key] = candidate
        best = nxt
    return best[(1 << size) - 1][1]


def plan_swiss(request: RoundRequest) -> list[LeagueTable]:
    """Round ``number`` paired on the points so far, the byes counted."""
    results = [MatchResult(seats, ranks) for _round, seats, ranks in request.history]
    skipped = byes(request.bots, request.history)
    points = {
        str(row.bot): round(float(row.points), 3)
        for row in standings(results, bots=request.bots, byes=skipped)
    }
    met = [seats for _round, seats, _ranks in request.history]
    return as_tables(
        swiss_round(points, request.players, round_seed(request), history=met, byes=skipped).tables
    )


def swiss_length(bots: int, _players: int) -> int:
    """Enough rounds to tell a winner apart: log2 of the field, rounded up."""
    return max(1, math.ceil(math.log2(max(bots, 2))))


FORMAT = LeagueFormat("swiss", plan_swiss, swiss_length, swiss_byes=True)
