"""League formats by name. Each format is registered explicitly, with how it plans a round and
how long it naturally runs, so adding one is one entry here (and its pure pairing function in
``workers.formats``); nothing else branches on a format's name.

Every round gets its own deal: table seeds are derived from the league seed, the round number
and the table, so no two tables of a league share one, however many rounds it runs.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from games.rng import derive_seed
from workers import formats

History = Sequence[tuple[int, tuple[str, ...], tuple[int, ...]]]
"""Finished results in play order: (round, seats, ranks). A whole duplicate group is one
result (its bots best first, ranked by their points summed over the group's tables)."""


@dataclass(frozen=True)
class Table:
    seats: tuple[str, ...]
    seed: str
    group: str | None = None


@dataclass(frozen=True)
class RoundRequest:
    """Everything a format may look at to plan round ``number`` (from 1)."""

    bots: tuple[str, ...]
    players: int
    number: int
    seed: str
    history: History
    ratings: Mapping[str, float]


@dataclass(frozen=True)
class LeagueFormat:
    name: str
    plan: Callable[[RoundRequest], list[Table]]
    natural_rounds: Callable[[int, int], int | None]
    """From (bots, seats per table): the format's natural length; None runs until stopped."""
    min_bots: int = 1
    swiss_byes: bool = False
    """Whether a bot left out of a round counts a bye in the standings."""


def byes(bots: Sequence[str], history: History) -> list[str]:
    """Bots that sat out a round in which others played."""
    seated: dict[int, set[str]] = {}
    for number, seats, _ranks in history:
        seated.setdefault(number, set()).update(seats)
    return [bot for players in seated.values() for bot in bots if bot not in players]


def _tables(tables: Sequence[formats.Table]) -> list[Table]:
    return [Table(tuple(str(bot) for bot in t.seats), t.seed.hex(), t.group) for t in tables]


def _round_robin_round(request: RoundRequest) -> formats.Round:
    """Round ``number`` of one long schedule: past the first cycle the seating repeats its
    balance, but every round's tables have seeds of their own (a fresh deal)."""
    schedule = formats.round_robin(
        request.bots,
        request.players,
        derive_seed(request.seed, "round-robin"),
        rounds=request.number,
    )
    return schedule[request.number - 1]


def _round_seed(request: RoundRequest) -> bytes:
    return derive_seed(request.seed, "round", request.number)


def _plan_round_robin(request: RoundRequest) -> list[Table]:
    return _tables(_round_robin_round(request).tables)


def _plan_duplicate(request: RoundRequest) -> list[Table]:
    tables: list[Table] = []
    for index, group in enumerate(_round_robin_round(request).tables):
        label = f"r{request.number}g{index}"
        group_seed = derive_seed(request.seed, "duplicate", request.number, index)
        tables += _tables(formats.duplicate_tables(group.seats, group_seed, group=label))
    return tables


def _as_duplicate_groups(request: RoundRequest, tables: list[Table], kind: str) -> list[Table]:
    """Each planned table becomes a duplicate group of its bots: one deal, seats rotated."""
    grouped: list[Table] = []
    for index, table in enumerate(tables):
        label = f"r{request.number}g{index}"
        group_seed = derive_seed(request.seed, kind, request.number, index)
        grouped += _tables(formats.duplicate_tables(table.seats, group_seed, group=label))
    return grouped


def _plan_duplicate_swiss(request: RoundRequest) -> list[Table]:
    """Swiss pairing (on each group's one result so far), every table a duplicate group."""
    return _as_duplicate_groups(request, _plan_swiss(request), "duplicate-swiss")


def _plan_swiss(request: RoundRequest) -> list[Table]:
    results = [formats.MatchResult(seats, ranks) for _round, seats, ranks in request.history]
    skipped = byes(request.bots, request.history)
    points = {
        str(row.bot): round(float(row.points), 3)
        for row in formats.standings(results, bots=request.bots, byes=skipped)
    }
    met = [seats for _round, seats, _ranks in request.history]
    return _tables(
        formats.swiss_round(
            points, request.players, _round_seed(request), history=met, byes=skipped
        ).tables
    )


def _plan_gauntlet(request: RoundRequest) -> list[Table]:
    challenger, *field = request.bots
    return _tables(formats.gauntlet(challenger, field, request.players, _round_seed(request)))


def _plan_ladder(request: RoundRequest) -> list[Table]:
    games = Counter(bot for _round, seats, _ranks in request.history for bot in seats)
    entries = [
        formats.LadderEntry(bot, request.ratings.get(bot, 1500.0), games[bot], 0)
        for bot in request.bots
    ]
    return _tables(formats.matchmake(entries, request.players, _round_seed(request)).tables)


_FORMATS: dict[str, LeagueFormat] = {
    entry.name: entry
    for entry in (
        LeagueFormat("round-robin", _plan_round_robin, formats.cycle_length),
        LeagueFormat(
            "swiss",
            _plan_swiss,
            lambda bots, _players: max(1, math.ceil(math.log2(max(bots, 2)))),
            swiss_byes=True,
        ),
        LeagueFormat("gauntlet", _plan_gauntlet, lambda _bots, _players: 1, min_bots=2),
        LeagueFormat("ladder", _plan_ladder, lambda _bots, _players: None),
        LeagueFormat("duplicate", _plan_duplicate, formats.cycle_length),
        LeagueFormat(
            "duplicate-swiss",
            _plan_duplicate_swiss,
            lambda bots, _players: max(1, math.ceil(math.log2(max(bots, 2)))),
            swiss_byes=True,
        ),
    )
}


def get(name: str) -> LeagueFormat:
    try:
        return _FORMATS[name]
    except KeyError:
        raise ValueError(f"unknown format {name!r}; choose from {', '.join(names())}") from None


def names() -> tuple[str, ...]:
    return tuple(_FORMATS)
