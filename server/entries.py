"""Authors' entries to events: list, enter, withdraw (AuthorService's event calls).

An entry passes the one gate every rated table passes (``premiere.admission.judge`` on the
``seat_admission`` view, as the arbiter reads it for a match): the bot is in rated play in the
event's game, not removed or disabled, and no account holds two entries unless the event allows
it. Then the event's own rules: entry open and the start not reached, invited accounts, hosted
bots, a minimum of rated games or rating. Entries of one event are taken one at a time (a
transaction lock on the event), so two entries at once cannot both pass the owner check.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg.rows import dict_row

import games
from premiere.admission import SeatStanding, judge
from server import accounts
from server.store import SEAT_STANDINGS

Row = dict[str, Any]


class EntryRefused(ValueError):
    """The entry (or withdrawal) breaks a rule of the gate or of the event; says which."""


def _connect(database_url: str) -> psycopg.Connection[Row]:
    return psycopg.connect(database_url, row_factory=dict_row)


def list_events(database_url: str) -> list[tuple[Row, list[str]]]:
    """Every event, soonest start first, with its entrants."""
    with _connect(database_url) as conn:
        rows = conn.execute("SELECT * FROM events ORDER BY starts_at, id").fetchall()
        entries = conn.execute(
            "SELECT event_id, bot FROM event_entries ORDER BY entered_at, bot"
        ).fetchall()
    by_event: dict[int, list[str]] = {}
    for entry in entries:
        by_event.setdefault(entry["event_id"], []).append(entry["bot"])
    return [(row, by_event.get(row["id"], [])) for row in rows]


def _event(conn: psycopg.Connection[Row], name: str) -> Row:
    row = conn.execute("SELECT * FROM events WHERE name = %s", (name,)).fetchone()
    if row is None:
        raise LookupError(f"no event named {name[:70]!r}")
    conn.execute("SELECT pg_advisory_xact_lock(hashtext('event-entries'), %s::int)", (row["id"],))
    return row


def _window(row: Row, now: datetime, doing: str) -> None:
    if row["status"] == "open" and now < row["starts_at"]:
        return
    if row["status"] == "announced":
        when = row["opens_at"].astimezone(UTC).isoformat(timespec="seconds")
        raise EntryRefused(f"entry to {row['name']} is not open yet: it opens at {when}")
    if row["status"] in ("open", "running", "finished"):
        raise EntryRefused(f"{row['name']} has started: too late to {doing}")
    raise EntryRefused(f"{row['name']} is {row['status']}: no {doing} now")


def _standings(conn: psycopg.Connection[Row], names: list[str]) -> dict[str, SeatStanding]:
    rows = conn.execute(SEAT_STANDINGS, (names,)).fetchall()
    return {row["seat"]: SeatStanding.from_row(row) for row in rows}


def enter(database_url: str, account: accounts.Account, event: str, bot: str) -> int:
    """Enter ``bot`` (the account's) in ``event``; returns the number of entrants."""
    root = accounts.bot_of(database_url, account, bot)
    now = datetime.now(UTC)
    with _connect(database_url) as conn, conn.transaction():
        row = _event(conn, event)
        _window(row, now, "enter")
        if row["invited"] is not None and account.name not in row["invited"]:
            raise EntryRefused(f"{row['name']} is by invitation; your account is not invited")
        entered = [
            r["bot"]
            for r in conn.execute(
                "SELECT bot FROM event_entries WHERE event_id = %s", (row["id"],)
            ).fetchall()
        ]
        if root in entered:
            raise EntryRefused(f"{root} is already entered in {row['name']}")
        standings = _standings(conn, [root, *entered])
        mine = standings.get(root)
        if mine is None:
            raise EntryRefused(
                f"{root} is not in rated play in {row['game']} (it has not passed validation):"
                " only bots rated in the event's game enter"
            )
        alone = judge(row["game"], [mine], rated=True)
        if alone.refused is not None:
            raise EntryRefused(f"{root} cannot be seated: {alone.refused}")
        if not alone.rated:
            raise EntryRefused(
                f"{root} is not in rated play in {row['game']} ({alone.unrated_reason}):"
                " only bots rated in the event's game enter"
            )
        field = [standings[name] for name in [root, *entered] if name in standings]
        together = judge(row["game"], field, rated=True, allow_same_owner=row["allow_same_owner"])
        if together.refused is not None:
            raise EntryRefused(
                f"your account already has a bot in {row['name']}, which seats one bot an"
                f" account ({together.refused})"
            )
        _check_record(conn, row, root, mine.bot)
        conn.execute(
            "INSERT INTO event_entries (event_id, bot, account) VALUES (%s, %s, %s)",
            (row["id"], root, account.name),
        )
        return len(entered) + 1


def _check_record(conn: psycopg.Connection[Row], row: Row, root: str, seated: str) -> None:
    """The event's own rules on the version the bot seats: hosted, games played, rating."""
    if row["hosted_only"]:
        hosted = conn.execute(
            "SELECT 1 FROM bot_hosting WHERE name = %s AND hosted", (seated,)
        ).fetchone()
        if hosted is None:
            raise EntryRefused(f"{row['name']} seats hosted bots only; {root} dials in")
    if row["min_games"] or row["min_rating"] is not None:
        rating = conn.execute(
            "SELECT rating, games FROM public_ratings WHERE game = %s AND player = %s",
            (row["game"], seated),
        ).fetchone()
        games = rating["games"] if rating else 0
        if games < row["min_games"]:
            raise EntryRefused(
                f"{row['name']} needs {row['min_games']} rated games of {row['game']};"
                f" {root} has {games}"
            )
        if row["min_rating"] is not None and (
            rating is None or rating["rating"] < row["min_rating"]
        ):
            has = f"{rating['rating']:.0f}" if rating else "none"
            raise EntryRefused(
                f"{row['name']} needs a rating of {row['min_rating']:g}; {root} has {has}"
            )


def propose(
    database_url: str,
    account: accounts.Account,
    name: str,
    game: str,
    fmt: str,
    players: int,
    opens_at: datetime,
    starts_at: datetime,
    rounds: int | None,
    min_games: int,
    min_rating: float | None,
    hosted_only: bool,
) -> None:
    """An author's proposed event, checked here as far as the arbiter can (the name, the game
    and its table size, the times); the workers check its format when they announce it."""
    if not accounts.valid_name(name):
        raise ValueError(f"an event's name is {accounts.NAME_RULE}")
    if game not in games.ids():
        raise ValueError(f"no game {game[:40]!r}; games: {', '.join(games.ids())}")
    engine = games.get(game)
    if players not in engine.player_counts:
        raise ValueError(f"{game} is played by {engine.player_counts} players, not {players}")
    if not fmt:
        raise ValueError("give the event's format")
    if starts_at <= datetime.now(UTC):
        raise ValueError("an event starts in the future")
    if starts_at < opens_at:
        raise ValueError("an event starts after its entry opens")
    if min_games < 0 or (rounds is not None and rounds < 1):
        raise ValueError("rounds are 1 or more, minimum games 0 or more")
    with _connect(database_url) as conn, conn.transaction():
        taken = conn.execute(
            "SELECT 1 FROM events WHERE name = %s UNION SELECT 1 FROM event_proposals"
            " WHERE name = %s",
            (name, name),
        ).fetchone()
        if taken is not None:
            raise accounts.Exists(f"an event named {name!r} exists already")
        conn.execute(
            "INSERT INTO event_proposals (name, account, game, format, players, rounds,"
            " opens_at, starts_at, hosted_only, min_games, min_rating)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                name,
                account.name,
                game,
                fmt,
                players,
                rounds,
                opens_at,
                starts_at,
                hosted_only,
                min_games,
                min_rating,
            ),
        )


def withdraw(database_url: str, account: accounts.Account, event: str, bot: str) -> int:
    """Withdraw ``bot`` (the account's) from ``event`` before its start; returns the number
    of entrants left."""
    root = accounts.bot_of(database_url, account, bot)
    now = datetime.now(UTC)
    with _connect(database_url) as conn, conn.transaction():
        row = _event(conn, event)
        _window(row, now, "withdraw")
        gone = conn.execute(
            "DELETE FROM event_entries WHERE event_id = %s AND bot = %s", (row["id"], root)
        )
        if gone.rowcount == 0:
            raise EntryRefused(f"{root} is not entered in {row['name']}")
        left = conn.execute(
            "SELECT count(*) AS n FROM event_entries WHERE event_id = %s", (row["id"],)
        ).fetchone()
    assert left is not None
    return int(left["n"])
