"""What the league pages show: every league (format, schedule, progress) and one league's
standings, rounds, tables and results, and the progress of a format that ends on its own, as
its format draws it (``workers.formats``).

Read-only queries over the workers' league tables and the arbiter's match tables; no seeds.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import psycopg

from ladder import paging
from ladder.queries import NotFound
from ladder.store import tuples
from workers.formats import match_points, registry
from workers.formats.declaration import LeagueFormat, Shown
from workers.planning import shown

Connection = psycopg.Connection[Any]

MAX_PROGRESS_ROUNDS = 2000


@dataclass(frozen=True, slots=True)
class LeagueSummary:
    name: str
    game: str
    format: str
    players: int
    bots: tuple[str, ...]
    status: str
    schedule: str
    rounds: int | None
    rounds_closed: int
    rounds_opened: int
    tables: int
    tables_done: int
    created_at: datetime.datetime
    finished_at: datetime.datetime | None
    ends_early: bool
    """Whether its format may stop it at a verdict before its last round."""
    duplicate: bool
    """Whether each of its tables is a duplicate group, scored as one result."""
    group_noun: str
    """What its format calls a group of tables sharing one deal."""


@dataclass(frozen=True, slots=True)
class LeagueTable:
    table: int
    group: str | None
    seats: tuple[str, ...]
    status: str
    match_id: str | None
    ranks: tuple[int, ...] | None
    scores: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class LeagueGroup:
    """A duplicate group: its tables share one deal with the seats rotated, and it counts as
    one game in the standings, its bots ranked by their points summed over its tables."""

    group: str
    number: int
    """The group's place in its round, from 1 (how the page names it)."""
    tables: int
    finished: int
    bots: tuple[str, ...]
    """Best first once every table has finished; else in the first table's seat order."""
    points: tuple[float, ...] | None
    ranks: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class LeagueRound:
    number: int
    status: str
    opened_at: datetime.datetime
    closed_at: datetime.datetime | None
    tables: tuple[LeagueTable, ...]
    groups: tuple[LeagueGroup, ...] = ()


def duplicate_groups(tables: tuple[LeagueTable, ...]) -> tuple[LeagueGroup, ...]:
    """The round's duplicate groups with each one's result once all its tables finished
    (points per table from the places, as the league's standings count them)."""
    by_group: dict[str, list[LeagueTable]] = {}
    for table in tables:
        if table.group is not None:
            by_group.setdefault(table.group, []).append(table)
    out = []
    for number, (name, members) in enumerate(by_group.items(), start=1):
        done = [t for t in members if t.ranks is not None]
        bots: tuple[str, ...] = members[0].seats
        points: tuple[float, ...] | None = None
        ranks: tuple[int, ...] | None = None
        if len(done) == len(members) == len(members[0].seats):
            total: dict[str, Fraction] = {bot: Fraction(0) for bot in members[0].seats}
            for table in done:
                assert table.ranks is not None
                for bot, value in zip(table.seats, match_points(table.ranks), strict=True):
                    total[bot] += value
            bots = tuple(sorted(total, key=lambda bot: (-total[bot], bot)))
            points = tuple(float(total[bot]) for bot in bots)
            ranks = tuple(1 + points.index(p) for p in points)
        out.append(LeagueGroup(name, number, len(members), len(done), bots, points, ranks))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class LeagueDetail:
    league: LeagueSummary
    options: dict[str, Any]
    standings: tuple[dict[str, Any], ...]
    standings_round: int | None
    rounds: tuple[LeagueRound, ...]
    settings: dict[str, Any]
    rated: bool
    progress: dict[str, Any] | None
    """What a format that ends on its own (the SPRT) said after the last round closed."""
    shown: Shown | None
    """That progress as the page draws it, whatever the format (``workers.formats``)."""
    progress_history: tuple[dict[str, Any], ...]
    """What it said after every round, oldest first: ``round``, its progress and ``point``,
    the progress as a point of ``shown.series``."""


_SUMMARY = (
    "SELECT l.name, l.game, l.format, l.players, l.bots, l.status, l.every_seconds, l.cron,"
    " l.rounds, l.created_at, l.finished_at,"
    " (SELECT count(*) FROM league_rounds r WHERE r.league_id = l.id AND r.status = 'closed'),"
    " (SELECT count(*) FROM league_rounds r WHERE r.league_id = l.id),"
    " (SELECT count(*) FROM league_tables t WHERE t.league_id = l.id),"
    " (SELECT count(*) FROM league_tables t WHERE t.league_id = l.id"
    "  AND t.status IN ('finished', 'void')), l.id, l.options, l.settings, l.rated, l.progress"
    " FROM leagues l"
)


def _schedule(every: int | None, cron: str | None) -> str:
    if cron:
        return f"cron {cron}"
    if every:
        return f"every {every} s"
    return "back to back"


def _format(name: str) -> LeagueFormat | None:
    try:
        return registry.get(name)
    except ValueError:  # a format this version no longer has
        return None


def _summary(row: tuple[Any, ...]) -> LeagueSummary:
    (name, game, fmt, players, bots, status, every, cron, rounds, created, finished) = row[:11]
    closed, opened, tables, done = (int(v) for v in row[11:15])
    declared = _format(fmt)
    return LeagueSummary(
        name=name,
        game=game,
        format=fmt,
        players=players,
        bots=tuple(bots),
        status=status,
        schedule=_schedule(every, cron),
        rounds=rounds,
        rounds_closed=closed,
        rounds_opened=opened,
        tables=tables,
        tables_done=done,
        created_at=created,
        finished_at=finished,
        ends_early=declared is not None and declared.progress is not None,
        duplicate=declared is not None and declared.duplicate,
        group_noun=declared.group_noun if declared is not None else "group",
    )


def list_leagues(
    conn: Connection, limit: int = 100, cursor: str = ""
) -> tuple[tuple[LeagueSummary, ...], str]:
    """Leagues newest first, ``limit`` of them after ``cursor``'s, and the next page's cursor
    (empty: none); the keyset is (created_at, id)."""
    after = paging.decode("leagues", cursor, (datetime.datetime, int)) if cursor else None
    rows = (
        tuples(conn)
        .execute(
            _SUMMARY + " WHERE %s::timestamptz IS NULL OR (l.created_at, l.id) < (%s, %s)"
            " ORDER BY l.created_at DESC, l.id DESC LIMIT %s",
            (after and after[0], after and after[0], after and after[1], limit + 1),
        )
        .fetchall()
    )
    token = ""
    if len(rows) > limit:
        last = rows[limit - 1]
        token = paging.encode("leagues", (last[9], int(last[15])))
    return tuple(_summary(row) for row in rows[:limit]), token


def league(
    conn: Connection, name: str, max_rounds: int = 50, since: int | None = None
) -> LeagueDetail:
    """One league: its summary, the standings its format stored at the last closed round
    (points from ranks, head-to-head, Buchholz, wins; ``docs/leagues.md``), and its last
    ``max_rounds`` rounds with each table's seats, group (duplicate tables), match and result.

    With ``since``, only the rounds numbered ``since`` or later and the progress after them: a
    page that already holds the closed rounds before (which never change) asks only for what
    can still change."""
    with conn.transaction():
        cur = tuples(conn)
        row = cur.execute(_SUMMARY + " WHERE l.name = %s", (name,)).fetchone()
        if row is None:
            raise NotFound(f"no league {name[:80]!r}")
        league_id, options, settings, rated, latest = row[15], row[16], row[17], row[18], row[19]
        first = since or 0
        history = cur.execute(
            "SELECT round, progress FROM league_progress_history WHERE league_id = %s"
            " AND round >= %s ORDER BY round DESC LIMIT %s",
            (league_id, first, MAX_PROGRESS_ROUNDS),
        ).fetchall()
        last = cur.execute(
            "SELECT number, standings FROM league_rounds WHERE league_id = %s"
            " AND status = 'closed' ORDER BY number DESC LIMIT 1",
            (league_id,),
        ).fetchone()
        rounds = cur.execute(
            "SELECT number, status, opened_at, closed_at FROM league_rounds"
            " WHERE league_id = %s AND number >= %s ORDER BY number DESC LIMIT %s",
            (league_id, first, max_rounds),
        ).fetchall()
        numbers = [r[0] for r in rounds]
        tables = cur.execute(
            "SELECT t.round, t.table_no, t.grp, t.seats, t.status, t.match_id, m.status,"
            " m.outcome FROM league_tables t LEFT JOIN matches m ON m.id = t.match_id"
            " WHERE t.league_id = %s AND t.round = ANY(%s) ORDER BY t.round, t.table_no",
            (league_id, numbers),
        ).fetchall()
    by_round: dict[int, list[LeagueTable]] = {}
    for number, table_no, grp, seats, status, match_id, match_status, outcome in tables:
        finished = match_status == "finished" and outcome is not None
        by_round.setdefault(number, []).append(
            LeagueTable(
                table=table_no,
                group=grp,
                seats=tuple(seats),
                status=status,
                match_id=str(match_id) if match_id is not None else None,
                ranks=tuple(outcome.get("ranks") or ()) if finished else None,
                scores=tuple(outcome.get("scores") or ()) if finished else None,
            )
        )
    return LeagueDetail(
        league=_summary(row),
        options=dict(options),
        standings=tuple(last[1] or ()) if last is not None else (),
        standings_round=last[0] if last is not None else None,
        rounds=tuple(
            LeagueRound(
                number,
                status,
                opened,
                closed,
                tuple(by_round.get(number, ())),
                duplicate_groups(tuple(by_round.get(number, ()))),
            )
            for number, status, opened, closed in rounds
        ),
        settings=dict(settings or {}),
        rated=bool(rated),
        progress=latest,
        shown=shown(row[2], latest),
        progress_history=tuple(
            {"round": number, **progress, "point": _point(row[2], progress)}
            for number, progress in reversed(history)
        ),
    )


def _point(fmt: str, progress: dict[str, Any]) -> tuple[float, float] | None:
    drawn = shown(fmt, progress)
    return drawn.point if drawn is not None else None
