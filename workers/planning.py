"""From a league's state to its next round's tables, through the registered formats.

The league stores bot names (or "builtin:NAME"); a round's tables and the finished results
come in and go out as plain values. Each round gets its own seed derived from the league's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from workers import formats
from workers.formats import registry
from workers.formats.declaration import (
    Groups,
    History,
    Progress,
    RoundRequest,
    Shown,
    Table,
    byes,
    plan_solo,
)

__all__ = [
    "Groups",
    "History",
    "PlayedTable",
    "Progress",
    "Shown",
    "Table",
    "check",
    "default_rounds",
    "ends_early",
    "fold_duplicates",
    "lengthened",
    "plan",
    "progress_of",
    "rated_by_default",
    "resolve_settings",
    "shown",
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
        if len(group) != len(group[0].seats):
            # Tables sharing a deal that are no whole rotation (an SPRT pair at a table of
            # three or more): each finished one is a result of its own.
            results += [(t.round, t.seats, t.ranks) for t in group if t.ranks is not None]
            continue
        if any(t.ranks is None for t in group):
            continue
        score = formats.score_duplicate(
            [formats.Table(t.seats, bytes.fromhex(t.seed), t.group) for t in group],
            [t.ranks for t in group if t.ranks is not None],
        )
        results.append((item[0], tuple(map(str, score.bots)), score.ranks))
    return results


def check(format: str, bots: Sequence[str], players: int) -> None:
    entry = registry.get(format)
    if players < 1:
        raise ValueError("league tables seat 1 or more players")
    if len(set(bots)) != len(bots):
        raise ValueError("a bot appears twice in the league")
    if len(bots) < players:
        raise ValueError(f"{len(bots)} bots cannot fill {players}-seat tables")
    if len(bots) < entry.min_bots:
        raise ValueError(f"a {format} league needs at least {entry.min_bots} bots")
    if players == 1 and entry.progress is not None:
        raise ValueError(f"a {format} league compares bots at one table: it needs 2 or more seats")


def resolve_settings(
    format: str, bots: Sequence[str], players: int, settings: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The format's settings with its defaults, refused (ValueError) if they do not fit."""
    check(format, bots, players)
    return registry.get(format).settings(bots, players, dict(settings or {}))


def default_rounds(
    format: str, bots: int, players: int, settings: Mapping[str, Any] | None = None
) -> int | None:
    """A tournament's natural length; a ladder runs until stopped. Solo leagues (one seat a
    table) play one round unless told more, as there is no one to meet."""
    entry = registry.get(format)
    if players == 1:
        return None if entry.endless else 1
    if entry.settings_rounds is not None:
        return entry.settings_rounds(settings or {})
    return entry.natural_rounds(bots, players)


def progress_of(
    format: str, bots: Sequence[str], groups: Groups, settings: Mapping[str, Any]
) -> Progress | None:
    """Where a format that ends on its own stands (None for the others)."""
    hook = registry.get(format).progress
    return hook(bots, groups, settings) if hook is not None else None


def shown(format: str, progress: Mapping[str, Any] | None) -> Shown | None:
    """A progress as the pages and the command draw it (None without one, or for a format
    that reports none)."""
    if progress is None:
        return None
    try:
        show = registry.get(format).show
    except ValueError:
        return None
    return show(progress) if show is not None else None


def lengthened(
    format: str,
    bots: Sequence[str],
    players: int,
    settings: Mapping[str, Any],
    history: History,
    closed: int,
) -> int | None:
    """The league's length as its results have made it, for a format whose results lengthen
    it (None for the others)."""
    hook = registry.get(format).length
    return hook(bots, players, settings, history, closed) if hook is not None else None


def ends_early(format: str) -> bool:
    """Whether the format reports progress after each round and may end the league."""
    return registry.get(format).progress is not None


def rated_by_default(format: str) -> bool:
    return registry.get(format).rated


def plan(
    format: str,
    bots: Sequence[str],
    players: int,
    number: int,
    seed: str,
    history: History,
    ratings: Mapping[str, float],
    settings: Mapping[str, Any] | None = None,
    resting: frozenset[str] = frozenset(),
    accepts: Mapping[str, formats.Accepts] | None = None,
    provisional: frozenset[str] = frozenset(),
    rated: bool = True,
    withdrawn: frozenset[str] = frozenset(),
    withdrawn_at: Mapping[int, frozenset[str]] | None = None,
) -> list[Table]:
    """The tables of round `number` (from 1)."""
    check(format, bots, players)
    request = RoundRequest(
        tuple(bots),
        players,
        number,
        seed,
        history,
        ratings,
        dict(settings or {}),
        resting,
        dict(accepts or {}),
        provisional,
        rated,
        withdrawn,
        dict(withdrawn_at or {}),
    )
    if players == 1:
        return plan_solo(request)
    return registry.get(format).plan(request)


def standings(format: str, bots: Sequence[str], history: History) -> list[dict[str, Any]]:
    """Points from ranks (ties share), then head-to-head, Buchholz and wins, as plain rows.

    Only the league's bots are listed: a solo table's reference opponent (a seat the history
    adds, see `workers.leagues.history`) scores its games but takes no place."""
    results = [formats.MatchResult(seats, ranks) for _round, seats, ranks in history]
    skipped = byes(bots, history) if registry.get(format).swiss_byes else []
    members = set(bots)
    rows = [
        row for row in formats.standings(results, bots=bots, byes=skipped) if row.bot in members
    ]
    places: list[int] = []
    for index, row in enumerate(rows):
        tied = index > 0 and row.rank == rows[index - 1].rank
        places.append(places[-1] if tied else index + 1)
    return [
        {
            "rank": place,
            "bot": str(row.bot),
            "points": round(float(row.points), 3),
            "games": row.games,
            "wins": row.wins,
        }
        for place, row in zip(places, rows, strict=True)
    ]
