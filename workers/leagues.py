"""Leagues in PostgreSQL: creating them, opening rounds, planning and tracking their tables.

Every function re-reads what it needs and writes idempotently (unique keys, ON CONFLICT, row
locks), so a task delivered twice, or two beats ticking at once, changes nothing the second
time.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg.rows import dict_row

import games
from games.bots import bot_names
from games.reference import reference_result
from premiere.seeds import new_seed, strong_seed
from workers import formats
from workers.gate import resolve_seats, seated, withdrawn
from workers.planning import (
    Groups,
    History,
    PlayedTable,
    Table,
    default_rounds,
    ends_early,
    fold_duplicates,
    lengthened,
    plan,
    progress_of,
    rated_by_default,
    resolve_settings,
    standings,
)
from workers.schedule import due_slot

Row = dict[str, Any]


@dataclass(frozen=True)
class League:
    id: int
    name: str
    game: str
    format: str
    players: int
    options: dict[str, Any]
    bots: tuple[str, ...]
    every_seconds: int | None
    cron: str | None
    rounds: int | None
    seed: str
    move_time_ms: int
    time_bank_ms: int
    status: str
    settings: dict[str, Any]
    rated: bool
    progress: dict[str, Any] | None
    allow_same_owner: bool = False
    hosted_only: bool = False

    @classmethod
    def from_row(cls, row: Row) -> League:
        return cls(
            id=row["id"],
            name=row["name"],
            game=row["game"],
            format=row["format"],
            players=row["players"],
            options=row["options"],
            bots=tuple(row["bots"]),
            every_seconds=row["every_seconds"],
            cron=row["cron"],
            rounds=row["rounds"],
            seed=row["seed"],
            move_time_ms=row["move_time_ms"],
            time_bank_ms=row["time_bank_ms"],
            status=row["status"],
            settings=row["settings"],
            rated=row["rated"],
            progress=row["progress"],
            allow_same_owner=row.get("allow_same_owner", False),
            hosted_only=row.get("hosted_only", False),
        )


def connect(database_url: str) -> psycopg.Connection[Row]:
    return psycopg.connect(database_url, row_factory=dict_row, autocommit=True)


def create_league(
    conn: psycopg.Connection[Row],
    *,
    name: str,
    game: str,
    format: str,
    players: int,
    bots: Sequence[str],
    options: dict[str, Any] | None = None,
    every_seconds: int | None = None,
    cron: str | None = None,
    rounds: int | None = None,
    seed: str | None = None,
    move_time_ms: int = 0,
    time_bank_ms: int = 0,
    settings: dict[str, Any] | None = None,
    rated: bool | None = None,
    allow_same_owner: bool = False,
    hosted_only: bool = False,
) -> League:
    """Validate against the game and the format, then store the league. ``rated`` None takes
    the format's default (every format rates its matches but the SPRT). A rated league seats
    no owner twice (``premiere.admission``) unless ``allow_same_owner``: then the tables that
    do are played unrated."""
    engine = games.get(game)
    if players not in engine.player_counts:
        raise ValueError(f"{game} is played by {engine.player_counts} players, not {players}")
    resolved = engine.resolve_options(options)
    resolved_settings = resolve_settings(format, bots, players, settings)
    for bot in bots:
        if bot.startswith("builtin:") and bot.removeprefix("builtin:") not in bot_names(engine):
            raise ValueError(f"{game} has no built-in bot {bot!r}; it has {bot_names(engine)}")
    _check_registered(conn, game, [bot for bot in bots if not bot.startswith("builtin:")])
    if rated is None:
        rated = rated_by_default(format)
    _check_accepted(conn, [b for b in bots if not b.startswith("builtin:")], players, rated)
    if rated and not allow_same_owner:
        _check_owners(conn, [b for b in bots if not b.startswith("builtin:")])
    if hosted_only:
        dialling = not_hosted(conn, bots)
        if dialling:
            raise ValueError(
                f"{', '.join(map(repr, dialling))} dial in (the version seated is not an uploaded"
                " bundle): a --hosted-only league seats hosted bots and built-ins only"
            )
    if rounds is None:
        rounds = default_rounds(format, len(bots), players, resolved_settings)
    row = conn.execute(
        "INSERT INTO leagues (name, game, format, players, options, bots, every_seconds, cron,"
        " rounds, seed, move_time_ms, time_bank_ms, settings, rated, allow_same_owner,"
        " hosted_only)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING *",
        (
            name,
            game,
            format,
            players,
            json.dumps(resolved),
            list(bots),
            every_seconds,
            cron,
            rounds,
            _league_seed(seed),
            move_time_ms,
            time_bank_ms,
            json.dumps(resolved_settings),
            rated,
            allow_same_owner,
            hosted_only,
        ),
    ).fetchone()
    assert row is not None
    return League.from_row(row)


def _check_owners(conn: psycopg.Connection[Row], names: Sequence[str]) -> None:
    """No two bots of one owner in a rated league (every version of a bot is that bot; the bots
    of an account share it)."""
    rows_of = seated(conn, names)
    owners = {
        row["name"]: row["owner"]
        for row in conn.execute(
            "SELECT name, owner FROM bot_lineage WHERE name = ANY(%s)", (list(rows_of.values()),)
        ).fetchall()
    }
    seen: dict[str, str] = {}
    for name in names:
        owner = owners.get(rows_of.get(name, ""))
        if owner is None:
            continue
        if owner in seen:
            raise ValueError(
                f"{seen[owner]!r} and {name!r} have one owner ({owner}): a rated league seats"
                " each owner once; make it --unrated, or --allow-same-owner (their tables are"
                " then played unrated)"
            )
        seen[owner] = name


def _check_registered(conn: psycopg.Connection[Row], game: str, names: Sequence[str]) -> None:
    """Every named bot is registered, not removed, and (if it has connected) plays the game."""
    rows_of = seated(conn, names)
    rows = conn.execute(
        "SELECT name, games, removed FROM bot_directory WHERE name = ANY(%s)",
        (list(rows_of.values()),),
    ).fetchall()
    directory = {row["name"]: row for row in rows if not row["removed"]}
    known = {name: directory[row] for name, row in rows_of.items() if row in directory}
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ValueError(
            f"no registered bot named {', '.join(map(repr, unknown))}: register it with"
            " `premiere bots add NAME`, or seat a built-in as builtin:NAME"
        )
    for name in names:
        plays = known[name]["games"]
        if plays and game not in plays:
            raise ValueError(f"bot {name!r} does not play {game}; it plays {', '.join(plays)}")


def not_hosted(conn: psycopg.Connection[Row], seats: Sequence[str]) -> list[str]:
    """The seats among ``seats`` (built-ins aside) whose bots row, as seated now, is not a
    hosted version (``bot_hosting``)."""
    named = [seat for seat in seats if not seat.startswith("builtin:")]
    rows_of = seated(conn, named)
    hosted = {
        row["name"]
        for row in conn.execute(
            "SELECT name FROM bot_hosting WHERE hosted AND name = ANY(%s)",
            (list(rows_of.values()),),
        ).fetchall()
    }
    return [seat for seat in named if rows_of.get(seat) not in hosted]


def _check_accepted(
    conn: psycopg.Connection[Row], names: Sequence[str], players: int, rated: bool
) -> None:
    """No bot is seated at a table size, or in a kind of match, it said it does not accept."""
    rows = conn.execute(
        "SELECT name, player_counts, accepts FROM bot_directory WHERE name = ANY(%s)",
        (list(seated(conn, names).values()),),
    ).fetchall()
    for row in rows:
        if row["player_counts"] is not None and players not in row["player_counts"]:
            raise ValueError(
                f"bot {row['name']!r} accepts tables of {row['player_counts']} players,"
                f" not {players}"
            )
        if row["accepts"] == ("casual" if rated else "rated"):
            kind = "rated" if rated else "unrated"
            raise ValueError(
                f"bot {row['name']!r} accepts only {row['accepts']} matches, not {kind}"
            )


def _league_seed(seed: str | None) -> str:
    """Every deal of a league derives from its seed, so it must not be guessable: 256 random
    bits by default, and a chosen one needs at least 128 bits (32 hex digits)."""
    if seed is None or seed == "":
        return new_seed()
    if not strong_seed(seed):
        raise ValueError(
            "a league seed is at least 32 lowercase hex digits (128 bits); leave it out for a"
            " random one"
        )
    return seed


def get_league(conn: psycopg.Connection[Row], key: str | int) -> League | None:
    if isinstance(key, int) or str(key).isdigit():
        row = conn.execute("SELECT * FROM leagues WHERE id = %s", (int(key),)).fetchone()
    else:
        row = conn.execute("SELECT * FROM leagues WHERE name = %s", (key,)).fetchone()
    return League.from_row(row) if row else None


def set_status(conn: psycopg.Connection[Row], league_id: int, status: str) -> str:
    """Pause, resume or cancel a league; returns its status afterwards.

    Pausing stops new rounds and new matches (matches already created play on); resuming lets
    them go on; cancelling ends the league for good. A finished or cancelled league stays so.
    """
    allowed = {"paused": ("active",), "active": ("paused",), "cancelled": ("active", "paused")}
    if status not in allowed:
        raise ValueError(f"cannot set a league {status}")
    with conn.transaction():
        row = conn.execute(
            "SELECT status FROM leagues WHERE id = %s FOR UPDATE", (league_id,)
        ).fetchone()
        if row is None:
            raise LookupError(f"no league {league_id}")
        if row["status"] == status:
            return status
        if row["status"] not in allowed[status]:
            raise ValueError(f"the league is {row['status']}; it cannot become {status}")
        conn.execute(
            "UPDATE leagues SET status = %s,"
            " finished_at = CASE WHEN %s = 'cancelled' THEN now() ELSE finished_at END"
            " WHERE id = %s",
            (status, status, league_id),
        )
    return status


def extend_league(conn: psycopg.Connection[Row], league_id: int, rounds: int) -> None:
    """Give a league with a fixed length `rounds` more rounds; a finished one plays again."""
    conn.execute(
        "UPDATE leagues SET rounds = rounds + %s,"
        " status = CASE WHEN status = 'finished' THEN 'active' ELSE status END,"
        " finished_at = CASE WHEN status = 'finished' THEN NULL ELSE finished_at END"
        " WHERE id = %s AND rounds IS NOT NULL",
        (rounds, league_id),
    )


def list_leagues(conn: psycopg.Connection[Row], active_only: bool = False) -> list[League]:
    where = "WHERE status = 'active'" if active_only else ""
    rows = conn.execute(f"SELECT * FROM leagues {where} ORDER BY id").fetchall()
    return [League.from_row(row) for row in rows]


# --- rounds --------------------------------------------------------------------------------


def open_round(
    conn: psycopg.Connection[Row], league_id: int, now: datetime, manual: bool = False
) -> int | None:
    """Open the league's next round if one is due (or asked for); returns its number.

    Under the league's row lock: nothing opens while a round is still open, after the last
    round, or twice for the same schedule slot. A league without a schedule chains its rounds:
    the next opens as soon as the previous closes.
    """
    with conn.transaction():
        row = conn.execute(
            "SELECT * FROM leagues WHERE id = %s FOR UPDATE", (league_id,)
        ).fetchone()
        if row is None or row["status"] != "active":
            return None
        league = League.from_row(row)
        state = conn.execute(
            "SELECT count(*) AS rounds, count(*) FILTER (WHERE status = 'open') AS open,"
            " coalesce(max(number), 0) AS last FROM league_rounds WHERE league_id = %s",
            (league_id,),
        ).fetchone()
        assert state is not None
        if state["open"]:
            return None
        if league.rounds is not None and state["rounds"] >= league.rounds:
            _finish(conn, league_id)
            return None
        if manual:
            slot = f"now:{uuid.uuid4().hex}"
        else:
            slot = due_slot(league.every_seconds, league.cron, now) or f"after:{state['last']}"
        opened = conn.execute(
            "INSERT INTO league_rounds (league_id, number, slot) VALUES (%s, %s, %s)"
            " ON CONFLICT (league_id, slot) DO NOTHING RETURNING number",
            (league_id, state["last"] + 1, slot),
        ).fetchone()
        return int(opened["number"]) if opened else None


def _finish(conn: psycopg.Connection[Row], league_id: int) -> None:
    conn.execute(
        "UPDATE leagues SET status = 'finished', finished_at = now()"
        " WHERE id = %s AND status = 'active'",
        (league_id,),
    )


def history(conn: psycopg.Connection[Row], league_id: int) -> History:
    """The league's results in play order: round, seats and ranks of every finished table, a
    duplicate group counting as one result once all its tables finished.

    A solo table reads as a two-seat result against the reference player it was played
    against (``builtin:<name>``), ranked by points, as the ladder rates it."""
    rows = conn.execute(
        "SELECT t.round, t.seats, t.seed, t.grp, l.game,"
        " CASE WHEN t.status = 'finished' AND m.status = 'finished' THEN m.outcome END AS outcome"
        " FROM league_tables t JOIN leagues l ON l.id = t.league_id"
        " LEFT JOIN match_results m ON m.id = t.match_id"
        " WHERE t.league_id = %s ORDER BY t.round, t.table_no",
        (league_id,),
    ).fetchall()
    return fold_duplicates([_played(row) for row in rows])


def _played(row: Row) -> PlayedTable:
    seats, outcome = tuple(row["seats"]), row["outcome"]
    if outcome is None:
        return PlayedTable(row["round"], seats, row["seed"], row["grp"], None)
    against = reference_result(outcome, games.get(row["game"]).reference_players)
    if len(seats) == 1 and against is not None:
        seats = (seats[0], f"builtin:{against.player}")
        return PlayedTable(row["round"], seats, row["seed"], row["grp"], against.ranks)
    return PlayedTable(row["round"], seats, row["seed"], row["grp"], tuple(outcome["ranks"]))


def groups(conn: psycopg.Connection[Row], league_id: int) -> Groups:
    """The finished tables by group (a table without a group is a group of its own), in the
    order the groups were planned."""
    rows = conn.execute(
        "SELECT t.round, t.table_no, t.grp, t.seats, m.outcome FROM league_tables t"
        " JOIN match_results m ON m.id = t.match_id"
        " WHERE t.league_id = %s AND t.status = 'finished' AND m.status = 'finished'"
        " ORDER BY t.round, t.table_no",
        (league_id,),
    ).fetchall()
    out: dict[str, list[tuple[tuple[str, ...], tuple[int, ...]]]] = {}
    for row in rows:
        key = row["grp"] or f"r{row['round']}t{row['table_no']}"
        out.setdefault(key, []).append((tuple(row["seats"]), tuple(row["outcome"]["ranks"])))
    return list(out.items())


def plan_round(conn: psycopg.Connection[Row], league_id: int, number: int) -> list[Table]:
    """The round's tables: planned once by the league's format, then read back."""
    league = get_league(conn, league_id)
    assert league is not None
    existing = _tables(conn, league_id, number)
    if existing:
        return existing
    ratings = _ratings(conn, league)
    accepts, provisional = _declared(conn, league)
    gone = withdrawn(conn, league.game, league.bots)
    tables = plan(
        league.format,
        league.bots,
        league.players,
        number,
        league.seed,
        history(conn, league_id),
        ratings,
        league.settings,
        _resting(conn, league, number),
        accepts,
        provisional,
        league.rated,
        gone,
        withdrawn_at(conn, league_id),
    )
    with conn.transaction():
        conn.execute(
            "UPDATE league_rounds SET withdrawn = %s WHERE league_id = %s AND number = %s"
            " AND NOT EXISTS (SELECT 1 FROM league_tables t WHERE t.league_id = %s"
            " AND t.round = %s)",
            (sorted(gone), league_id, number, league_id, number),
        )
        for table_no, table in enumerate(tables):
            seed = table.seed
            conn.execute(
                "INSERT INTO league_tables (league_id, round, table_no, seats, seed, grp)"
                " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (league_id, number, table_no, list(table.seats), seed, table.group),
            )
    return _tables(conn, league_id, number)


def withdrawn_at(conn: psycopg.Connection[Row], league_id: int) -> dict[int, frozenset[str]]:
    """The bots the arena no longer seated when each round was planned, by round."""
    rows = conn.execute(
        "SELECT number, withdrawn FROM league_rounds WHERE league_id = %s"
        " AND cardinality(withdrawn) > 0",
        (league_id,),
    ).fetchall()
    return {row["number"]: frozenset(row["withdrawn"]) for row in rows}


def _tables(conn: psycopg.Connection[Row], league_id: int, number: int) -> list[Table]:
    rows = conn.execute(
        "SELECT seats, seed, grp FROM league_tables WHERE league_id = %s AND round = %s"
        " ORDER BY table_no",
        (league_id, number),
    ).fetchall()
    return [Table(tuple(r["seats"]), r["seed"], r["grp"]) for r in rows]


def _resting(conn: psycopg.Connection[Row], league: League, number: int) -> frozenset[str]:
    """Bots on probation sit out every other round of a format without a fixed schedule."""
    if number % 2 == 0:
        return frozenset()
    states = resolve_seats(conn, league.bots)
    return frozenset(bot for bot, state in states.items() if state == "probation")


PROVISIONAL_GAMES = 20
"""The ladder's provisional count (``ladder.elo.EloParams.provisional_games``)."""


def _declared(
    conn: psycopg.Connection[Row], league: League
) -> tuple[dict[str, formats.Accepts], frozenset[str]]:
    """What each registered bot of the league (its active version) declared it accepts, and
    which of them are provisional on the league's game (new: fewer than 20 rated games)."""
    rows_of = seated(conn, league.bots)
    by_row = conn.execute(
        "SELECT d.name, d.player_counts, d.accepts, d.max_matches,"
        " coalesce(r.games, 0) AS games FROM bot_directory d"
        " LEFT JOIN ladder_ratings r ON r.player = d.name AND r.game = %s"
        " WHERE d.name = ANY(%s)",
        (league.game, list(rows_of.values())),
    ).fetchall()
    found = {row["name"]: row for row in by_row}
    rows = [{**found[row], "bot": bot} for bot, row in rows_of.items() if row in found]
    accepts = {
        row["bot"]: formats.Accepts(
            player_counts=frozenset(row["player_counts"])
            if row["player_counts"] is not None
            else None,
            rated=row["accepts"] != "casual",
            casual=row["accepts"] != "rated",
            max_pending=row["max_matches"],
        )
        for row in rows
    }
    provisional = frozenset(row["bot"] for row in rows if row["games"] < PROVISIONAL_GAMES)
    return accepts, provisional


def _ratings(conn: psycopg.Connection[Row], league: League) -> dict[str, float]:
    """Live Elo on the league's game of each of its bots when rated already: a registered
    bot's is that of its active version."""
    rows_of = seated(conn, league.bots)
    players = {row: bot for bot, row in rows_of.items()}
    players.update({bot: bot for bot in league.bots if bot.startswith("builtin:")})
    rows = conn.execute(
        "SELECT player, rating FROM ladder_ratings WHERE game = %s AND player = ANY(%s)",
        (league.game, list(players)),
    ).fetchall()
    return {players[row["player"]]: float(row["rating"]) for row in rows}


# --- tables and matches ------------------------------------------------------------------


def idempotency_key(league_id: int, number: int, table_no: int) -> str:
    return f"league:{league_id}:round:{number}:table:{table_no}"


SIBLING_DONE = (
    "NOT EXISTS (SELECT 1 FROM league_tables s WHERE s.league_id = t.league_id"
    " AND s.round = t.round AND s.grp = t.grp AND s.table_no < t.table_no"
    " AND s.status IN ('planned', 'dispatched'))"
)
"""The tables of a duplicate group share one deal, so they are played one after another: a
bot must not learn, at one table, the hands it will face at a sibling table."""


def tables_to_dispatch(conn: psycopg.Connection[Row]) -> list[tuple[int, int, int]]:
    rows = conn.execute(
        "SELECT t.league_id, t.round, t.table_no FROM league_tables t"
        " JOIN leagues l ON l.id = t.league_id"
        f" WHERE t.status = 'planned' AND l.status = 'active' AND {SIBLING_DONE}"
        " ORDER BY t.league_id, t.round, t.table_no"
    ).fetchall()
    return [(r["league_id"], r["round"], r["table_no"]) for r in rows]


def table_request(
    conn: psycopg.Connection[Row], league_id: int, number: int, table_no: int
) -> tuple[League, Row] | None:
    """The league and the table, if the table still waits for its match (and, in a duplicate
    group, the group's earlier tables have ended). `deal_tables` is how many tables share its
    deal."""
    league = get_league(conn, league_id)
    row = conn.execute(
        "SELECT t.*, (SELECT count(*) FROM league_tables s WHERE s.league_id = t.league_id"
        "  AND s.round = t.round AND s.grp = t.grp) AS deal_tables"
        " FROM league_tables t"
        f" WHERE t.league_id = %s AND t.round = %s AND t.table_no = %s AND {SIBLING_DONE}",
        (league_id, number, table_no),
    ).fetchone()
    if league is None or league.status != "active" or row is None or row["status"] != "planned":
        return None
    return league, row


def record_refusal(
    conn: psycopg.Connection[Row], league_id: int, number: int, table_no: int
) -> None:
    """The arbiter refused the table's match for good (a bot removed since, say): the table is
    void, so the round can close instead of asking again every tick."""
    conn.execute(
        "UPDATE league_tables SET status = 'void'"
        " WHERE league_id = %s AND round = %s AND table_no = %s AND status = 'planned'",
        (league_id, number, table_no),
    )


def record_dispatch(
    conn: psycopg.Connection[Row], league_id: int, number: int, table_no: int, match_id: str
) -> bool:
    updated = conn.execute(
        "UPDATE league_tables SET match_id = %s, status = 'dispatched'"
        " WHERE league_id = %s AND round = %s AND table_no = %s AND status = 'planned'",
        (match_id, league_id, number, table_no),
    )
    return updated.rowcount == 1


def collect(conn: psycopg.Connection[Row]) -> list[tuple[int, int, str, str]]:
    """Mark tables whose match ended; returns (league, round, match id, status) for each."""
    rows = conn.execute(
        "UPDATE league_tables t SET status = m.status FROM match_results m"
        " WHERE t.match_id = m.id AND t.status = 'dispatched'"
        " AND m.status IN ('finished', 'void')"
        " RETURNING t.league_id, t.round, t.match_id, m.status"
    ).fetchall()
    return [(r["league_id"], r["round"], str(r["match_id"]), r["status"]) for r in rows]


def rounds_to_close(conn: psycopg.Connection[Row]) -> list[tuple[int, int]]:
    rows = conn.execute(
        "SELECT r.league_id, r.number FROM league_rounds r WHERE r.status = 'open'"
        " AND EXISTS (SELECT 1 FROM league_tables t"
        "             WHERE t.league_id = r.league_id AND t.round = r.number)"
        " AND NOT EXISTS (SELECT 1 FROM league_tables t WHERE t.league_id = r.league_id"
        "                 AND t.round = r.number AND t.status IN ('planned', 'dispatched'))"
    ).fetchall()
    return [(r["league_id"], r["number"]) for r in rows]


def rounds_to_plan(conn: psycopg.Connection[Row]) -> list[tuple[int, int]]:
    rows = conn.execute(
        "SELECT r.league_id, r.number FROM league_rounds r WHERE r.status = 'open'"
        " AND NOT EXISTS (SELECT 1 FROM league_tables t"
        "                 WHERE t.league_id = r.league_id AND t.round = r.number)"
    ).fetchall()
    return [(r["league_id"], r["number"]) for r in rows]


def close_round(conn: psycopg.Connection[Row], league_id: int, number: int) -> float | None:
    """Close a round whose tables all ended, storing the standings so far.

    Returns the round's duration in seconds, or None if it was not closable (already closed,
    or a table still running).
    """
    with conn.transaction():
        row = conn.execute(
            "SELECT * FROM league_rounds WHERE league_id = %s AND number = %s FOR UPDATE",
            (league_id, number),
        ).fetchone()
        pending = conn.execute(
            "SELECT count(*) AS n FROM league_tables WHERE league_id = %s AND round = %s"
            " AND status IN ('planned', 'dispatched')",
            (league_id, number),
        ).fetchone()
        if row is None or row["status"] != "open" or pending is None or pending["n"]:
            return None
        league = get_league(conn, league_id)
        assert league is not None
        results = history(conn, league_id)
        table = standings(league.format, league.bots, results)
        closed = conn.execute(
            "UPDATE league_rounds SET status = 'closed', closed_at = now(), standings = %s"
            " WHERE league_id = %s AND number = %s RETURNING closed_at - opened_at AS took",
            (json.dumps(table), league_id, number),
        ).fetchone()
        verdict = None
        state = (
            progress_of(league.format, league.bots, groups(conn, league_id), league.settings)
            if ends_early(league.format)
            else None
        )
        if state is not None:
            conn.execute(
                "UPDATE leagues SET progress = %s, progress_at = now() WHERE id = %s",
                (json.dumps(dict(state.state)), league_id),
            )
            conn.execute(
                "INSERT INTO league_progress_rounds (league_id, round, progress)"
                " VALUES (%s, %s, %s) ON CONFLICT (league_id, round)"
                " DO UPDATE SET progress = excluded.progress, at = now()",
                (league_id, number, json.dumps(dict(state.state))),
            )
            verdict = state.verdict
        rounds = league.rounds
        longer = lengthened(
            league.format, league.bots, league.players, league.settings, results, number
        )
        if rounds is not None and longer is not None and longer > rounds:
            conn.execute("UPDATE leagues SET rounds = %s WHERE id = %s", (longer, league_id))
            rounds = longer
        if verdict is not None or (rounds is not None and number >= rounds):
            _finish(conn, league_id)
    assert closed is not None
    return float(closed["took"].total_seconds())


def progress(conn: psycopg.Connection[Row], league_id: int) -> Row:
    """Rounds and tables by state, for `premiere league show` and the demo."""
    row = conn.execute(
        "SELECT"
        " (SELECT count(*) FROM league_rounds WHERE league_id = %(id)s AND status = 'closed')"
        "   AS rounds_closed,"
        " (SELECT count(*) FROM league_rounds WHERE league_id = %(id)s) AS rounds_opened,"
        " (SELECT count(*) FROM league_tables WHERE league_id = %(id)s) AS tables,"
        " (SELECT count(*) FROM league_tables WHERE league_id = %(id)s"
        "   AND status IN ('finished', 'void')) AS tables_done",
        {"id": league_id},
    ).fetchone()
    assert row is not None
    return row


def current_standings(conn: psycopg.Connection[Row], league: League) -> list[dict[str, Any]]:
    return standings(league.format, league.bots, history(conn, league.id))
