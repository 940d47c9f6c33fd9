"""From a league's state to its next round's tables, through the registered formats.

The league stores bot names (or "builtin:NAME"); a round's tables and the finished results
come in and go out as plain values. Each round gets its own seed derived from the league's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from workers import formats, league_formats
from workers.league_formats import History, RoundRequest, Table

__all__ = [
    "History",
    "PlayedTable",
    "Table",
    "check",
    "default_rounds",
    "fold_duplicates",
    "plan",
    "standings",
]


@dataclass(frozen=True)
class PlayedTable:
    """A league table as stored: its ranks are None unless its match finished."""

    round: int
    seats: tuple[str, ...]
    seed: str
    group: str | None
    ranks: tuple[int, ...] | None


def fold_duplicates(tables: Sequence[PlayedTable]) -> History:
    """The league's results in play order, each duplicate group scored as one result by
    `formats.score_duplicate` once all its tables finished (a group with a void table is no
    whole rotation and counts for nothing)."""
    results: list[tuple[int, tuple[str, ...], tuple[int, ...]]] = []
    groups: dict[tuple[int, str], list[PlayedTable]] = {}
    order: list[tuple[int, str] | PlayedTable] = []
    for table in tables:
        if table.group is None:
            order.append(table)
            continue
        key = (table.round, table.group)
        if key not in groups:
            order.append(key)
        groups.setdefault(key, []).append(table)
    for item in order:
        if isinstance(item, PlayedTable):
            if item.ranks is not None:
                results.append((item.round, item.seats, item.ranks))
            continue
        group = groups[item]
        if any(t.ranks is None for t in group):
            continue
        score = formats.score_duplicate(
            [formats.Table(t.seats, bytes.fromhex(t.seed), t.group) for t in group],
            [t.ranks for t in group if t.ranks is not None],
        )
        results.append((item[0], tuple(map(str, score.bots)), score.ranks))
    return results


def check(format: str, bots: Sequence[str], players: int) -> None:
    entry = league_formats.get(format)
    if players < 2:
        raise ValueError(
            "league tables seat 2 or more players; play solo matches one by one (the ladder"
            " rates each against its reference opponent)"
        )
    if len(set(bots)) != len(bots):
        raise ValueError("a bot appears twice in the league")
    if len(bots) < players:
        raise ValueError(f"{len(bots)} bots cannot fill {players}-seat tables")
    if len(bots) < entry.min_bots:
        raise ValueError(f"a {format} league needs at least {entry.min_bots} bots")


def default_rounds(format: str, bots: int, players: int) -> int | None:
    """A tournament's natural length; a ladder runs until stopped."""
    return league_formats.get(format).natural_rounds(bots, players)


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
    request = RoundRequest(tuple(bots), players, number, seed, history, ratings)
    return league_formats.get(format).plan(request)


def standings(format: str, bots: Sequence[str], history: History) -> list[dict[str, Any]]:
    """Points from ranks (ties share), then head-to-head, Buchholz and wins, as plain rows."""
    results = [formats.MatchResult(seats, ranks) for _round, seats, ranks in history]
    skipped = league_formats.byes(bots, history) if league_formats.get(format).swiss_byes else []
    return [
        {
            "rank": row.rank,
            "bot": str(row.bot),
            "points": round(float(row.points), 3),
            "games": row.games,
            "wins": row.wins,
        }
        for row in formats.standings(results, bots=bots, byes=skipped)
    ]
