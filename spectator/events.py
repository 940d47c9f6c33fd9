"""Events on the pages: the list (home and /events) and one event (/events/<name>): its rules,
schedule, state, entrants, standings once it runs, and the bracket of a knockout, rebuilt from
the league's results by the format's own code (``workers.formats.knockout.replay``)."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.rows import dict_row

from ladder import paging
from ladder.queries import NotFound
from premiere.entry_rules import describe
from workers.formats.knockout import replay
from workers.planning import PlayedTable, fold_duplicates

Row = dict[str, Any]

_LIST = (
    "SELECT e.name, e.game, e.format, e.players, e.status, e.reason, e.opens_at, e.starts_at,"
    " e.finished_at, l.name AS league, (SELECT count(*) FROM event_entries n"
    " WHERE n.event_id = e.id) AS entrants FROM events e LEFT JOIN leagues l ON l.id = e.league_id"
)


_ENDED = "e.status IN ('finished', 'cancelled')"
_KEYSET = (
    f", {_ENDED} AS ended_, (CASE WHEN {_ENDED} THEN -extract(epoch FROM e.starts_at)"
    " ELSE extract(epoch FROM e.starts_at) END) AS start_, e.id AS id_ FROM events e"
)
"""The list's order: those to come or running first (soonest start first), then the ended
ones (newest first), then by id; the keyset of its cursor."""


def list_events(
    conn: psycopg.Connection[Any], limit: int = 100, cursor: str = ""
) -> tuple[list[Row], str]:
    """Events: those still to come or running first (soonest start first), then the ended
    ones, newest first; ``limit`` of them after ``cursor``'s, and the next page's cursor."""
    after = paging.decode("events", cursor, (bool, str, int)) if cursor else None
    with conn.cursor(row_factory=dict_row) as cur:
        rows = cur.execute(
            f"SELECT * FROM ({_LIST.replace(' FROM events e', _KEYSET)}) s"
            " WHERE %s::boolean IS NULL OR (ended_, start_, id_) > (%s, %s::numeric, %s)"
            " ORDER BY ended_, start_, id_ LIMIT %s",
            (after and after[0], *(after or (None, None, None)), limit + 1),
        ).fetchall()
    token = ""
    if len(rows) > limit:
        last = rows[limit - 1]
        token = paging.encode("events", (bool(last["ended_"]), str(last["start_"]), last["id_"]))
    for row in rows:
        for column in ("ended_", "start_", "id_"):
            del row[column]
    return rows[:limit], token


def event(conn: psycopg.Connection[Any], name: str) -> Row:
    with conn.cursor(row_factory=dict_row) as cur:
        row = cur.execute("SELECT * FROM events WHERE name = %s", (name,)).fetchone()
        if row is None:
            raise NotFound(f"no event {name[:80]!r}")
        entrants = cur.execute(
            "SELECT bot, account, entered_at FROM event_entries WHERE event_id = %s"
            " ORDER BY entered_at, bot",
            (row["id"],),
        ).fetchall()
        league = None
        standings: list[Row] = []
        bracket = None
        if row["league_id"] is not None:
            league = cur.execute(
                "SELECT name, bots, status, rounds,"
                " (SELECT count(*) FROM league_rounds r WHERE r.league_id = l.id"
                "  AND r.status = 'closed') AS rounds_closed FROM leagues l WHERE id = %s",
                (row["league_id"],),
            ).fetchone()
            last = cur.execute(
                "SELECT standings FROM league_rounds WHERE league_id = %s AND status = 'closed'"
                " ORDER BY number DESC LIMIT 1",
                (row["league_id"],),
            ).fetchone()
            standings = list(last["standings"]) if last else []
            if league is not None and row["format"] == "knockout":
                bracket = _bracket(cur, row["league_id"], league["bots"], row["players"])
    return {
        "name": row["name"],
        "game": row["game"],
        "format": row["format"],
        "players": row["players"],
        "status": row["status"],
        "reason": row["reason"],
        "opens_at": row["opens_at"],
        "starts_at": row["starts_at"],
        "finished_at": row["finished_at"],
        "rules": describe(row),
        "entrants": entrants,
        "league": league,
        "standings": standings,
        "bracket": bracket,
    }


def _bracket(cur: psycopg.Cursor[Row], league_id: int, bots: list[str], seats: int) -> Row:
    """The knockout's rounds: each heat (seed order) with its finishing order once played, the
    byes, how many of each heat go through, and the final ranking once the final is played."""
    tables = cur.execute(
        "SELECT t.round, t.seats, t.seed, t.grp, CASE WHEN t.status = 'finished'"
        " AND m.status = 'finished' THEN m.outcome END AS outcome FROM league_tables t"
        " LEFT JOIN match_results m ON m.id = t.match_id WHERE t.league_id = %s"
        " ORDER BY t.round, t.table_no",
        (league_id,),
    ).fetchall()
    played = [
        PlayedTable(
            t["round"],
            tuple(t["seats"]),
            t["seed"],
            t["grp"],
            tuple(t["outcome"]["ranks"]) if t["outcome"] else None,
        )
        for t in tables
    ]
    rounds, results, final = replay(bots, seats, fold_duplicates(played))
    planned = {t["round"] for t in tables}
    return {
        "rounds": [
            {
                "number": number,
                "planned": number in planned,
                "byes": list(shape.byes),
                "advance": shape.advancing(seats),
                "heats": [
                    {
                        "seeds": list(heat),
                        "order": next(
                            (done for done in results[number - 1] if set(done) == set(heat)),
                            None,
                        ),
                    }
                    for heat in shape.heats
                ],
            }
            for number, shape in enumerate(rounds, start=1)
        ],
        "champion": final[0] if final else None,
        "ranking": final,
    }
