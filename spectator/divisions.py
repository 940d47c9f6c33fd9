"""One division of one season of a divisions event, for its page
(``/events/<name>/seasons/<season>/divisions/<division>``): where it sits among the divisions,
its table best first (place, bot, owner, points, games, the move at the season's end and the
zones that move), its tables with their matches, its neighbours in time and in tier, and how a
table's places turn into points.

The table comes from the format's own code (``workers.formats.divisions.seasons``) over the
league's results, as on the event page. Nothing of a running match is read: a table's ranks
only once it and its match have finished, a running one only by its id (for its live page).
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.rows import dict_row

from ladder import paging
from ladder.queries import NotFound
from spectator.events import Row, played_history, season_tables
from workers.formats import match_points
from workers.planning import resolve_settings

ENDED = ("finished", "cancelled")

_MATCHES = (
    "SELECT t.round, t.table_no, t.seats, t.status, t.match_id,"
    " CASE WHEN t.status = 'finished' AND m.status = 'finished' THEN m.outcome->'ranks' END"
    " AS ranks FROM league_tables t LEFT JOIN match_results m ON m.id = t.match_id"
    " WHERE t.league_id = %s AND t.round BETWEEN %s AND %s AND t.seats <@ %s::text[]"
    " AND (%s::bigint IS NULL OR t.round < %s OR (t.round = %s AND t.table_no > %s))"
    " ORDER BY t.round DESC, t.table_no LIMIT %s"
)
"""The division's tables in the season, newest round first, after the cursor's (round,
table); every seat of a table sits in one division, so its seats are inside the division's."""


def division(
    conn: psycopg.Connection[Any],
    name: str,
    season: int,
    number: int,
    limit: int = 200,
    cursor: str = "",
) -> Row:
    """Division ``number`` of season ``season`` of event ``name`` (NotFound, in words, for an
    event, season or division that is not there) and ``limit`` of its tables after
    ``cursor``'s, with the next page's cursor (None on the last)."""
    after = paging.decode("division-tables", cursor, (int, int)) if cursor else None
    with conn.transaction(), conn.cursor(row_factory=dict_row) as cur:
        row = cur.execute(
            "SELECT e.id, e.name, e.game, e.format, e.players, e.status, e.league_id, l.bots,"
            " l.settings, (SELECT count(*) FROM league_rounds r WHERE r.league_id = l.id"
            "  AND r.status = 'closed') AS closed"
            " FROM events e LEFT JOIN leagues l ON l.id = e.league_id WHERE e.name = %s",
            (name,),
        ).fetchone()
        if row is None:
            raise NotFound(f"no event {name[:80]!r}")
        if row["format"] != "divisions":
            raise NotFound(f"event {name[:80]!r} is a {row['format']}, not played in divisions")
        if row["league_id"] is None:
            raise NotFound(f"event {name[:80]!r} has not started: its divisions come when it does")
        settings = dict(row["settings"] or {})
        if "season_rounds" not in settings:
            settings = resolve_settings("divisions", row["bots"], row["players"], settings)
        shown = season_tables(
            played_history(cur, row["league_id"]),
            row["bots"],
            row["players"],
            settings,
            row["closed"],
        )
        if not 1 <= season <= len(shown):
            begun = "season 1 has" if len(shown) == 1 else f"seasons 1 to {len(shown)} have"
            raise NotFound(f"event {name[:80]!r} has no season {season}: {begun} begun")
        this = shown[season - 1]
        count = len(this["divisions"])
        if not 1 <= number <= count:
            raise NotFound(
                f"event {name[:80]!r} has no division {number}: its divisions are 1 to {count}"
            )
        places = this["divisions"][number - 1]
        owners = _owners(cur, row["id"], [p["bot"] for p in places])
        length = int(settings["season_rounds"])
        first = (season - 1) * length + 1
        tables = cur.execute(
            _MATCHES,
            (
                row["league_id"],
                first,
                season * length,
                [p["bot"] for p in places],
                after and after[0],
                after and after[0],
                after and after[0],
                after and after[1],
                limit + 1,
            ),
        ).fetchall()
    token = None
    if len(tables) > limit:
        last = tables[limit - 1]
        token = paging.encode("division-tables", (last["round"], last["table_no"]))
    moves = int(settings["move"])
    last_season = int(settings["seasons"])
    up = moves if number > 1 and season < last_season else 0
    down = moves if number < count and season < last_season else 0
    return {
        "event": row["name"],
        "game": row["game"],
        "players": row["players"],
        "status": row["status"],
        "season": season,
        "seasons": last_season,
        "seasons_begun": len(shown),
        "over": this["over"],
        "division": number,
        "divisions": count,
        "up": up,
        "down": down,
        "previous": season - 1 if season > 1 else None,
        "following": season + 1 if season < len(shown) else None,
        "above": number - 1 if number > 1 else None,
        "below": number + 1 if number < count else None,
        "place_points": [float(p) for p in match_points(tuple(range(1, row["players"] + 1)))],
        "standings": [
            {
                **place,
                "owner": owners.get(place["bot"].split("@")[0]),
                "zone": "up"
                if place["place"] <= up
                else "down"
                if place["place"] > len(places) - down
                else None,
            }
            for place in places
        ],
        "matches": [_table(t, season, length) for t in tables[:limit]],
        "next": token,
    }


def _owners(cur: psycopg.Cursor[Row], event_id: int, bots: list[str]) -> dict[str, str]:
    """Each bot's owner: the account that entered it in the event, else the one it belongs
    to."""
    names = sorted({bot.split("@")[0] for bot in bots})
    found: dict[str, str] = {
        r["name"]: r["account"]
        for r in cur.execute(
            "SELECT name, account FROM bot_lineage WHERE name = ANY(%s)", (names,)
        ).fetchall()
    }
    for r in cur.execute(
        "SELECT bot, account FROM event_entries WHERE event_id = %s AND bot = ANY(%s)",
        (event_id, names),
    ).fetchall():
        found[r["bot"]] = r["account"]
    return found


def _table(t: Row, season: int, length: int) -> Row:
    """One table: its round (in the league and in the season), seats, state, match and, once
    it and its match have finished, each seat's place and points."""
    ranks = tuple(t["ranks"]) if t["ranks"] else None
    if ranks is not None:
        state = "finished"
    elif t["status"] == "dispatched":
        state = "playing"
    elif t["status"] == "planned":
        state = "to come"
    else:
        state = "void" if t["status"] == "void" else "no result"
    return {
        "round": t["round"],
        "season_round": t["round"] - (season - 1) * length,
        "table": t["table_no"] + 1,
        "seats": list(t["seats"]),
        "state": state,
        "match_id": str(t["match_id"]) if t["match_id"] is not None else None,
        "ranks": list(ranks) if ranks else None,
        "points": [float(p) for p in match_points(ranks)] if ranks else None,
    }
