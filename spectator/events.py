"""Events on the pages: the list (home and /events) and one event (/events/<name>): its rules,
schedule, state, entrants, standings once it runs, the bracket of a knockout and the season
tables of divisions, rebuilt from the league's results by the format's own code
(``workers.formats.knockout.walk``, ``workers.formats.divisions.seasons``); and a bot's
division history, for its page."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

import psycopg
from psycopg.rows import dict_row

from ladder import paging
from ladder.errors import BadRequest
from ladder.queries import NotFound
from premiere.entry_rules import describe
from workers.formats.divisions import seasons
from workers.formats.knockout import walk
from workers.planning import History, PlayedTable, fold_duplicates

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


def _start(text: str, cursor: str) -> Decimal:
    """A cursor's start key (the epoch seconds ``_KEYSET`` orders by, as text), as the number
    the query compares; BadRequest for anything else (it went to PostgreSQL's numeric as it
    came, so text that is no number there failed the query: a 500)."""
    try:
        value = Decimal(text)
    except InvalidOperation:
        value = Decimal("NaN")
    if not value.is_finite() or value.adjusted() >= 15:
        raise BadRequest(f"bad cursor {cursor[:80]!r}: pass back the `next` of the previous page")
    return value.quantize(Decimal("1e-6"))


def list_events(
    conn: psycopg.Connection[Any], limit: int = 100, cursor: str = ""
) -> tuple[list[Row], str]:
    """Events: those still to come or running first (soonest start first), then the ended
    ones, newest first; ``limit`` of them after ``cursor``'s, and the next page's cursor."""
    after = paging.decode("events", cursor, (bool, str, int)) if cursor else None
    if after is not None:
        after = (after[0], _start(after[1], cursor), after[2])
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
        divisions = None
        if row["league_id"] is not None:
            league = cur.execute(
                "SELECT name, bots, status, rounds, settings,"
                " (SELECT count(*) FROM league_rounds r WHERE r.league_id = l.id"
                "  AND r.status = 'closed') AS rounds_closed FROM leagues l WHERE id = %s",
                (row["league_id"],),
            ).fetchone()
            last = cur.execute(
                "SELECT standings FROM league_rounds WHERE league_id = %s AND status = 'closed'"
                " ORDER BY number DESC LIMIT 1",
                (row["league_id"],),
            ).fetchone()
            standings = list(last["standings"] or []) if last else []
            if league is not None and row["format"] == "knockout":
                bracket = _bracket(
                    cur,
                    row["league_id"],
                    league["bots"],
                    row["players"],
                    league["rounds_closed"],
                    int((league["settings"] or {}).get("deals", 1)),
                )
            if league is not None and row["format"] == "divisions":
                divisions = season_tables(
                    played_history(cur, row["league_id"]),
                    league["bots"],
                    row["players"],
                    league["settings"],
                    league["rounds_closed"],
                )
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
        "divisions": divisions,
    }


def played_history(cur: psycopg.Cursor[Row], league_id: int) -> History:
    """The league's tables as the formats read them: a table's ranks only once both it and its
    match have finished, so nothing of a running match is read."""
    tables = cur.execute(
        "SELECT t.round, t.seats, t.seed, t.grp, CASE WHEN t.status = 'finished'"
        " AND m.status = 'finished' THEN m.outcome END AS outcome FROM league_tables t"
        " LEFT JOIN match_results m ON m.id = t.match_id WHERE t.league_id = %s"
        " ORDER BY t.round, t.table_no",
        (league_id,),
    ).fetchall()
    return fold_duplicates(
        [
            PlayedTable(
                t["round"],
                tuple(t["seats"]),
                t["seed"],
                t["grp"],
                tuple(t["outcome"]["ranks"]) if t["outcome"] else None,
            )
            for t in tables
        ]
    )


def _bracket(
    cur: psycopg.Cursor[Row], league_id: int, bots: list[str], seats: int, closed: int, deals: int
) -> Row:
    """The knockout's rounds: each heat (seed order) with its finishing order once decided,
    the tables of it being played,
    how often it was dealt (a void deal is dealt again) and whether the tie-break decided it,
    the byes, how many of each heat go through, and the final ranking once decided."""
    withdrawn = {
        r["number"]: frozenset(r["withdrawn"])
        for r in cur.execute(
            "SELECT number, withdrawn FROM league_rounds WHERE league_id = %s", (league_id,)
        ).fetchall()
    }
    tables = cur.execute(
        "SELECT round, grp, status, match_id FROM league_tables WHERE league_id = %s"
        " ORDER BY round, table_no",
        (league_id,),
    ).fetchall()
    planned = {t["round"] for t in tables}
    playing: dict[tuple[int, str], list[str]] = {}
    for t in tables:
        if t["status"] == "dispatched" and t["match_id"] is not None and t["grp"]:
            heat = t["grp"].split("d")[0]  # r<round>h<heat>, d<deal> where a heat deals more
            playing.setdefault((t["round"], heat), []).append(str(t["match_id"]))
    walked = walk(bots, seats, played_history(cur, league_id), closed, withdrawn, deals)
    return {
        "rounds": [
            {
                "number": number,
                "planned": any(heat.dealt[0] in planned for heat in heats if heat.dealt),
                "byes": list(shape.byes),
                "advance": shape.advancing(seats),
                "heats": [
                    {
                        "seeds": list(heat.seeds),
                        "order": list(heat.order) if heat.order is not None else None,
                        "deals": len([n for n in heat.dealt if n in planned]),
                        "by_tiebreak": heat.by_tiebreak,
                        "live": playing.get((heat.dealt[-1], f"r{heat.dealt[-1]}h{index}"), [])
                        if heat.order is None and heat.dealt
                        else [],
                    }
                    for index, heat in enumerate(heats)
                ],
            }
            for number, (shape, heats) in enumerate(
                zip(walked.rounds, walked.heats, strict=True), start=1
            )
        ],
        "champion": walked.final[0] if walked.final else None,
        "ranking": list(walked.final) if walked.final else None,
    }


def season_tables(
    history: History, bots: list[str], seats: int, settings: dict[str, Any], closed: int
) -> list[Row]:
    """Each season begun: its divisions, each best first with points, games and moves."""
    return [
        {
            "season": season.number,
            "over": season.over,
            "divisions": [
                [
                    {
                        "bot": place.bot,
                        "place": place.place,
                        "points": float(place.points),
                        "games": place.games,
                        "move": place.move,
                    }
                    for place in division
                ]
                for division in season.divisions
            ],
        }
        for season in seasons(bots, seats, settings, history, closed)
    ]


def division_history(conn: psycopg.Connection[Any], player: str) -> list[Row]:
    """A bot's seasons in every divisions league it played (a version's seat name counts as
    the bot's): league, event, season, division, place and move, newest league first."""
    out: list[Row] = []
    with conn.cursor(row_factory=dict_row) as cur:
        leagues = cur.execute(
            "SELECT l.id, l.name, l.bots, l.players, l.settings, e.name AS event,"
            " (SELECT count(*) FROM league_rounds r WHERE r.league_id = l.id"
            "  AND r.status = 'closed') AS closed"
            " FROM leagues l LEFT JOIN events e ON e.league_id = l.id"
            " WHERE l.format = 'divisions' AND EXISTS (SELECT 1 FROM unnest(l.bots) b"
            "  WHERE split_part(b, '@', 1) = %s) ORDER BY l.id DESC LIMIT 20",
            (player,),
        ).fetchall()
        for league in leagues:
            mine = [b for b in league["bots"] if b.split("@")[0] == player]
            shown = season_tables(
                played_history(cur, league["id"]),
                league["bots"],
                league["players"],
                league["settings"],
                league["closed"],
            )
            for season in shown:
                for index, division in enumerate(season["divisions"], start=1):
                    for place in division:
                        if place["bot"] in mine:
                            out.append(
                                {
                                    "league": league["name"],
                                    "event": league["event"],
                                    "bot": place["bot"],
                                    "season": season["season"],
                                    "over": season["over"],
                                    "division": index,
                                    "divisions": len(season["divisions"]),
                                    "place": place["place"],
                                    "of": len(division),
                                    "points": place["points"],
                                    "move": place["move"],
                                }
                            )
    return out
