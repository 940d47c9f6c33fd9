"""From a league's state to its next round's tables, through the pure formats.

The league stores bot names (or "builtin:NAME"); a round's tables and the finished results
come in and go out as plain values. Each round gets its own seed derived from the league's.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.rng import derive_seed
from workers import formats

FORMATS = ("round-robin", "swiss", "gauntlet", "ladder", "duplicate")

History = Sequence[tuple[int, tuple[str, ...], tuple[int, ...]]]
"""Finished tables in play order: (round, seats, ranks)."""


@dataclass(frozen=True)
class Table:
    seats: tuple[str, ...]
    seed: str | None
    group: str | None = None


def check(format: str, bots: Sequence[str], players: int) -> None:
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; choose from {', '.join(FORMATS)}")
    if players < 2:
        raise ValueError(
            "league tables seat 2 or more players; play solo matches one by one (the ladder"
            " rates each against its reference opponent)"
        )
    if len(set(bots)) != len(bots):
        raise ValueError("a bot appears twice in the league")
    if len(bots) < players:
        raise ValueError(f"{len(bots)} bots cannot fill {players}-seat tables")
    if format == "gauntlet" and len(bots) < 2:
        raise ValueError("a gauntlet needs a challenger (the first bot) and a field")


def default_rounds(format: str, bots: int, players: int) -> int | None:
    """A tournament's natural length; a ladder runs until stopped."""
    if format in ("round-robin", "duplicate"):
        return formats.cycle_length(bots, players)
    if format == "swiss":
        return max(1, math.ceil(math.log2(max(bots, 2))))
    if format == "gauntlet":
        return 1
    return None


def plan(
    format: str,
    bots: Sequence[str],
    players: int,
    number: int,
    seed: str,
    history: History,
    ratings: Mapping[str, float],
) -> list[Table]:
    """The tables of round `number` (from 1)."""
    check(format, bots, players)
    round_seed = derive_seed(seed, "round", number)
    if format == "round-robin":
        return _tables(_round_robin_round(bots, players, seed, number).tables)
    if format == "duplicate":
        tables: list[Table] = []
        for index, group in enumerate(_round_robin_round(bots, players, seed, number).tables):
            label = f"r{number}g{index}"
            group_seed = derive_seed(seed, "duplicate", number, index)
            tables += _tables(formats.duplicate_tables(group.seats, group_seed, group=label))
        return tables
    if format == "swiss":
        points = {row["bot"]: row["points"] for row in standings(format, bots, history)}
        met = [seats for _round, seats, _ranks in history]
        return _tables(
            formats.swiss_round(
                points, players, round_seed, history=met, byes=_byes(bots, history)
            ).tables
        )
    if format == "gauntlet":
        challenger, *field = bots
        return _tables(formats.gauntlet(challenger, field, players, round_seed))
    games = Counter(bot for _round, seats, _ranks in history for bot in seats)
    entries = [formats.LadderEntry(bot, ratings.get(bot, 1500.0), games[bot], 0) for bot in bots]
    return _tables(formats.matchmake(entries, players, round_seed).tables)


def _round_robin_round(bots: Sequence[str], players: int, seed: str, number: int) -> formats.Round:
    cycle = formats.cycle_length(len(bots), players)
    rounds = formats.round_robin(bots, players, derive_seed(seed, "round-robin"), rounds=cycle)
    return rounds[(number - 1) % cycle]


def _tables(tables: Sequence[formats.Table]) -> list[Table]:
    return [Table(tuple(str(bot) for bot in t.seats), t.seed.hex()[:16], t.group) for t in tables]


def _byes(bots: Sequence[str], history: History) -> list[str]:
    """Bots that sat out a round in which others played."""
    seated: dict[int, set[str]] = {}
    for number, seats, _ranks in history:
        seated.setdefault(number, set()).update(seats)
    return [bot for players in seated.values() for bot in bots if bot not in players]


def standings(format: str, bots: Sequence[str], history: History) -> list[dict[str, Any]]:
    """Points from ranks (ties share), then head-to-head, Buchholz and wins, as plain rows."""
    results = [formats.MatchResult(seats, ranks) for _round, seats, ranks in history]
    byes = _byes(bots, history) if format == "swiss" else []
    return [
        {
            "rank": row.rank,
            "bot": str(row.bot),
            "points": round(float(row.points), 3),
            "games": row.games,
            "wins": row.wins,
        }
        for row in formats.standings(results, bots=bots, byes=byes)
    ]
