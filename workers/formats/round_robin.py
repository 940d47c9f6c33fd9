"""Round robin for tables of 2 to 8 seats: everyone plays equally often, in every seat.

A schedule is built one *cycle* at a time (see `cycle_length`); a longer schedule is whole
cycles cut to the number of rounds asked for, so the first k rounds never depend on how many
come after them and a league may plan round k by asking for k + 1 rounds.

Who sits out. With B bots and N seats, ``B mod N`` bots sit out each round, taken in turn from
a seeded circular order; so after any number of rounds two bots' game counts differ by at most
one, and after a whole cycle they are equal.

Who meets whom. For two seats this is the circle method: each pair meets exactly once per
single round robin (twice per cycle when B is even). For more seats a perfectly balanced design
rarely exists (and with byes, which pairs can meet is partly decided by who sits out), so each
round's players are grouped greedily, then improved by swaps, keeping first the most-met pairs
apart. That spreads meetings well but promises nothing exact; the games and seats do.

Which seat. Tables are then seated by `balance_seats`: within every N consecutive games a bot
sits in each seat once.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence

from games.rng import Rng, Seed, derive_seed
from workers.formats._common import (
    BotId,
    Round,
    Table,
    balance_seats,
    check_bots,
    check_seats,
    shuffled,
    table_seed,
)
from workers.formats.declaration import LeagueFormat, RoundRequest, as_tables
from workers.formats.declaration import Table as LeagueTable

__all__ = ["FORMAT", "cycle_length", "round_robin", "round_robin_round"]

_SWAP_PASSES = 8

# One round before seating: tables as lists of bot indices, and the indices sitting out.
_Plan = tuple[list[list[int]], list[int]]


def cycle_length(bots: int, seats: int) -> int:
    """Rounds in one cycle of `round_robin` for ``bots`` bots at tables of ``seats``.

    A cycle is the shortest stretch after which every bot has played the same number of games
    and sat in every seat equally often; with two seats it is also a whole number of single
    round robins (B - 1 rounds for even B, B for odd), with more seats it is long enough for
    each bot to play at least ``ceil((B - 1) / (N - 1))`` games, the fewest in which it could
    meet everyone.
    """
    check_seats(seats)
    if bots < seats:
        raise ValueError(f"{bots} bots cannot fill a table of {seats}")
    tables = bots // seats
    # Games per bot over r rounds is r * N * T / B; a multiple of N exactly when B | r * T.
    seat_rounds = bots // math.gcd(bots, tables)
    if seats == 2:
        pair_rounds = bots - 1 if bots % 2 == 0 else bots
        return math.lcm(pair_rounds, seat_rounds)
    games = seats * tables // math.gcd(bots, tables)
    needed = -(-(bots - 1) // (seats - 1))
    return seat_rounds * -(-needed // games)


def round_robin(
    bots: Iterable[BotId], seats: int, seed: Seed, *, rounds: int | None = None
) -> tuple[Round, ...]:
    """The first ``rounds`` rounds (one cycle if None) of the round robin of ``bots``.

    The result depends only on the set of bots, ``seats`` and ``seed``, not on the order the
    bots are given in.
    """
    check_seats(seats)
    field = check_bots(bots)
    length = cycle_length(len(field), seats)
    wanted = length if rounds is None else rounds
    if wanted < 0:
        raise ValueError("rounds must be >= 0")
    order = shuffled(field, Rng(derive_seed("premiere-round-robin", seed)))
    cycles = -(-wanted // length)
    plans = (_circle if seats == 2 else _grouped)(len(order), seats, cycles * length)
    out: list[Round] = []
    for start in range(0, len(plans), length):
        out.extend(_seat_cycle(plans[start : start + length], order, seats, seed, start))
    return tuple(out[:wanted])


def _seat_cycle(
    plans: Sequence[_Plan], order: Sequence[BotId], seats: int, seed: Seed, first: int
) -> list[Round]:
    groups = [[order[i] for i in table] for tables, _ in plans for table in tables]
    seated = iter(balance_seats(groups, seats))
    out = []
    for number, (tables, byes) in enumerate(plans, start=first):
        out.append(
            Round(
                tables=tuple(
                    Table(next(seated), table_seed("round-robin", seed, number, table_no))
                    for table_no in range(len(tables))
                ),
                byes=tuple(order[i] for i in byes),
            )
        )
    return out


def _circle(count: int, seats: int, rounds: int) -> list[_Plan]:
    """The circle method: player 0 stays put, the others turn one place a round."""
    ring: list[int | None] = [*range(count), *([None] if count % 2 else [])]
    size = len(ring)
    single: list[_Plan] = []
    for _ in range(size - 1):
        tables: list[list[int]] = []
        byes: list[int] = []
        for i in range(size // 2):
            a, b = ring[i], ring[size - 1 - i]
            if a is not None and b is not None:
                tables.append([a, b])
            else:
                byes.extend(bot for bot in (a, b) if bot is not None)
        single.append((tables, byes))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return [single[k % len(single)] for k in range(rounds)]


def _grouped(count: int, seats: int, rounds: int) -> list[_Plan]:
    """``_grouped_plans``, as fresh lists."""
    return [
        ([list(table) for table in tables], list(byes))
        for tables, byes in _grouped_plans(count, seats, rounds)
    ]


@functools.lru_cache(maxsize=64)
def _grouped_plans(
    count: int, seats: int, rounds: int
) -> tuple[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], ...]:
    """Byes in circular turn; the rest grouped to spread meetings as evenly as possible.

    ``weight[a][b]`` is ``count ** met(a, b)``: a pair meeting again costs more than any number
    of pairs at lower counts in one round, so the search works down the highest counts first.
    Kept per process: a function of its three numbers only, it is the costliest step of
    planning a round (a few hundred milliseconds for 48 bots), and every round of a league, and
    every league of the same size, asks for the same cycle.
    """
    sitting_out = count % seats
    weight = [[1] * count for _ in range(count)]
    out: list[_Plan] = []
    for number in range(rounds):
        first = number * sitting_out
        byes = [(first + j) % count for j in range(sitting_out)]
        players = [(first + sitting_out + j) % count for j in range(count - sitting_out)]
        tables = _group(players, seats, weight)
        for table in tables:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    weight[a][b] *= count
                    weight[b][a] = weight[a][b]
        out.append((tables, byes))
    return tuple((tuple(tuple(table) for table in tables), tuple(byes)) for tables, byes in out)


def _group(players: list[int], seats: int, weight: list[list[int]]) -> list[list[int]]:
    """Greedy tables (each next member the one who has met the table least), then swaps."""
    pool = list(players)
    tables: list[list[int]] = []
    while pool:
        table = [pool.pop(0)]
        while len(table) < seats:
            best = min(range(len(pool)), key=lambda i: (_cost(pool[i], table, weight), i))
            table.append(pool.pop(best))
        tables.append(table)
    _improve(tables, weight)
    return tables


def _cost(bot: int, others: Iterable[int], weight: list[list[int]]) -> int:
    return sum(weight[bot][other] for other in others if other != bot)


def _improve(tables: list[list[int]], weight: list[list[int]]) -> None:
    """Swap two bots between tables while some swap strictly lowers the round's cost."""
    for _ in range(_SWAP_PASSES):
        improved = False
        for i, left in enumerate(tables):
            for right in tables[i + 1 :]:
                improved |= _swap_best(left, right, weight)
        if not improved:
            return


def _swap_best(left: list[int], right: list[int], weight: list[list[int]]) -> bool:
    for x_at, x in enumerate(left):
        for y_at, y in enumerate(right):
            before = _cost(x, left, weight) + _cost(y, right, weight)
            after = _cost(y, (b for b in left if b != x), weight) + _cost(
                x, (b for b in right if b != y), weight
            )
            if after < before:
                left[x_at], right[y_at] = y, x
                return True
    return False


def round_robin_round(request: RoundRequest) -> Round:
    """Round ``number`` of one long schedule: past the first cycle the seating repeats its
    balance, but every round's tables have seeds of their own (a fresh deal)."""
    schedule = round_robin(
        request.bots,
        request.players,
        derive_seed(request.seed, "round-robin"),
        rounds=request.number,
    )
    return schedule[request.number - 1]


def _plan(request: RoundRequest) -> list[LeagueTable]:
    return as_tables(round_robin_round(request).tables)


FORMAT = LeagueFormat("round-robin", _plan, cycle_length)
