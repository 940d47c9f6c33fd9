"""Gauntlet: one challenger against the field, every table the challenger plus N - 1 others.

The field, in seeded order, is read as a circle, and table j takes the next N - 1 bots on it;
so over any number of tables the challenger has met every field bot equally often, give or
take one. Seats come from `balance_seats`, which puts the challenger (and every field bot) in
each seat once within every N consecutive games it plays.

A *cycle* (`gauntlet_length`) is the shortest run after which all of that is exact: the
challenger has met each field bot the same number of times, and every bot, challenger and
field alike, has sat in every seat equally often.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from games.rng import Rng, Seed, derive_seed
from workers.formats._common import (
    BotId,
    Table,
    balance_seats,
    check_bots,
    check_seats,
    shuffled,
    table_seed,
)
from workers.formats.declaration import LeagueFormat, RoundRequest, as_tables, round_seed
from workers.formats.declaration import Table as LeagueTable

__all__ = ["FORMAT", "gauntlet", "gauntlet_length"]


def gauntlet_length(field: int, seats: int) -> int:
    """Tables in one cycle of `gauntlet` against ``field`` bots at tables of ``seats``.

    Each field bot plays ``t * (N - 1) / F`` of ``t`` tables, which must be a multiple of N for
    its seats to balance: the least such ``t`` is ``F * N / gcd(F, N - 1)``.
    """
    check_seats(seats)
    if field < seats - 1:
        raise ValueError(f"a field of {field} cannot fill a table of {seats} with a challenger")
    return field * seats // math.gcd(field, seats - 1)


def gauntlet(
    challenger: BotId,
    field: Iterable[BotId],
    seats: int,
    seed: Seed,
    *,
    tables: int | None = None,
) -> tuple[Table, ...]:
    """The first ``tables`` tables (one cycle if None) of ``challenger``'s gauntlet.

    The tables need not be played one after another: the guarantees hold for every prefix of
    the returned order, so dispatching them in that order keeps a half-run gauntlet fair.
    """
    check_seats(seats)
    others = check_bots(field)
    check_bots([challenger, *others])
    length = gauntlet_length(len(others), seats)
    wanted = length if tables is None else tables
    if wanted < 0:
        raise ValueError("tables must be >= 0")
    order = shuffled(others, Rng(derive_seed("premiere-gauntlet", seed)))
    groups = [
        [challenger, *(order[(j * (seats - 1) + i) % len(order)] for i in range(seats - 1))]
        for j in range(length)
    ]
    cycle = balance_seats(groups, seats)
    return tuple(Table(cycle[j % length], table_seed("gauntlet", seed, j)) for j in range(wanted))


def _plan(request: RoundRequest) -> list[LeagueTable]:
    challenger, *field = request.bots
    return as_tables(gauntlet(challenger, field, request.players, round_seed(request)))


FORMAT = LeagueFormat("gauntlet", _plan, lambda _bots, _players: 1, min_bots=2)
