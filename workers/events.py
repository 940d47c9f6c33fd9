"""Events: competitions authors enter themselves, run as a league of their format.

An event is announced with an entry window and a start time. The beat's tick (``advance``)
opens its entry once the window opens; at the start time it turns the event into a league of
its format seating the entrants (those the gate still admits), and marks the event finished
(or cancelled) when that league ends. Authors enter and withdraw through the arbiter's
AuthorService (``server.entries``); the workers read the entries through the arbiter's
``event_entrants`` view. Every step re-reads the event under its row lock, so two ticks change
nothing twice.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import psycopg

import games
from premiere.admission import judge
from premiere.entry_rules import describe
from workers import leagues
from workers.formats import registry
from workers.gate import seat_standings, seated
from workers.planning import resolve_settings

Row = dict[str, Any]

STATES = ("announced", "open", "running", "finished", "paused", "cancelled")


@dataclass(frozen=True)
class Event:
    id: int
    name: str
    game: str
    format: str
    players: int
    options: dict[str, Any]
    settings: dict[str, Any]
    rounds: int | None
    move_time_ms: int
    opens_at: datetime
    starts_at: datetime
    hosted_only: bool
    min_games: int
    min_rating: float | None
    invited: tuple[str, ...] | None
    allow_same_owner: bool
    status: str
    reason: str
    league_id: int | None

    @classmethod
    def from_row(cls, row: Row) -> Event:
        return cls(
            id=row["id"],
            name=row["name"],
            game=row["game"],
            format=row["format"],
            players=row["players"],
            options=row["options"],
            settings=row["settings"],
            rounds=row["rounds"],
            move_time_ms=row["move_time_ms"],
            opens_at=row["opens_at"],
            starts_at=row["starts_at"],
            hosted_only=row["hosted_only"],
            min_games=row["min_games"],
            min_rating=row["min_rating"],
            invited=tuple(row["invited"]) if row["invited"] is not None else None,
            allow_same_owner=row["allow_same_owner"],
            status=row["status"],
            reason=row["reason"],
            league_id=row["league_id"],
        )

    @property
    def league_name(self) -> str:
        return f"event-{self.name}"

    def rules(self) -> list[str]:
        """The entry rules in words."""
        return describe(self.__dict__)


def create_event(
    conn: psycopg.Connection[Row],
    *,
    name: str,
    game: str,
    format: str,
    players: int,
    opens_at: datetime,
    starts_at: datetime,
    options: dict[str, Any] | None = None,
    settings: dict[str, Any] | None = None,
    rounds: int | None = None,
    move_time_ms: int = 0,
    hosted_only: bool = False,
    min_games: int = 0,
    min_rating: float | None = None,
    invited: Sequence[str] | None = None,
    allow_same_owner: bool = False,
    proposed_by: str | None = None,
) -> Event:
    """Check the event against its game and format, then announce it."""
    engine = games.get(game)
    if players not in engine.player_counts:
        raise ValueError(f"{game} is played by {engine.player_counts} players, not {players}")
    resolved = engine.resolve_options(options)
    fmt = registry.get(format)
    if not fmt.rated:
        raise ValueError(f"an event's matches are rated; the {format} format is not")
    # The entrants are not known yet: check the settings against the smallest field it takes.
    least = max(players, fmt.min_bots)
    resolve_settings(format, [f"entrant-{k}" for k in range(least)], players, settings)
    if starts_at < opens_at:
        raise ValueError("an event starts after its entry opens")
    if min_games < 0:
        raise ValueError("--min-games is 0 or more")
    row = conn.execute(
        "INSERT INTO events (name, game, options, format, settings, players, rounds,"
        " move_time_ms, opens_at, starts_at, hosted_only, min_games, min_rating, invited,"
        " allow_same_owner, proposed_by)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
        " RETURNING *",
        (
            name,
            game,
            json.dumps(resolved),
            format,
            json.dumps(settings or {}),
            players,
            rounds,
            move_time_ms,
            opens_at,
            starts_at,
            hosted_only,
            min_games,
            min_rating,
            list(invited) if invited is not None else None,
            allow_same_owner,
            proposed_by,
        ),
    ).fetchone()
    assert row is not None
    return Event.from_row(row)


def get_event(conn: psycopg.Connection[Row], name: str) -> Event | None:
    row = conn.execute("SELECT * FROM events WHERE name = %s", (name,)).fetchone()
    return Event.from_row(row) if row else None


def list_events(conn: psycopg.Connection[Row]) -> list[Event]:
    rows = conn.execute("SELECT * FROM events ORDER BY starts_at, id").fetchall()
    return [Event.from_row(row) for row in rows]


def entrants(conn: psycopg.Connection[Row], event_id: int) -> list[Row]:
    """The entries in the order they came: bot, account, entered_at."""
    return conn.execute(
        "SELECT bot, account, entered_at FROM event_entrants WHERE event_id = %s"
        " ORDER BY entered_at, bot",
        (event_id,),
    ).fetchall()


def set_status(conn: psycopg.Connection[Row], name: str, status: str) -> str:
    """Pause, resume or cancel an event (its league too, once it runs); returns the status."""
    with conn.transaction():
        row = conn.execute("SELECT * FROM events WHERE name = %s FOR UPDATE", (name,)).fetchone()
        if row is None:
            raise LookupError(f"no event named {name!r}")
        event = Event.from_row(row)
        if event.status in ("finished", "cancelled"):
            if event.status == status:
                return status
            raise ValueError(f"the event is {event.status}; it cannot become {status}")
        if status == "paused":
            if event.status == "paused":
                return status
            conn.execute(
                "UPDATE events SET status = 'paused', paused_from = status WHERE id = %s",
                (event.id,),
            )
        elif status == "active":
            if event.status != "paused":
                return event.status
            status = row["paused_from"] or "announced"
            conn.execute(
                "UPDATE events SET status = paused_from, paused_from = NULL WHERE id = %s",
                (event.id,),
            )
        elif status == "cancelled":
            conn.execute(
                "UPDATE events SET status = 'cancelled', finished_at = now(),"
                " reason = 'cancelled by the operator' WHERE id = %s",
                (event.id,),
            )
        else:
            raise ValueError(f"cannot set an event {status}")
    if event.league_id is not None and status in ("paused", "running", "cancelled"):
        league_status = "active" if status == "running" else status
        with contextlib.suppress(ValueError):  # the league ended meanwhile: advance() follows
            leagues.set_status(conn, event.league_id, league_status)
    return status


def adopt_proposals(conn: psycopg.Connection[Row]) -> list[tuple[str, str]]:
    """Announce the events authors proposed (``proposed_events``, the arbiter's) that are not
    events yet; a proposal the game or the format refuses becomes a cancelled event saying
    why, so its author sees the reason in the list."""
    moved: list[tuple[str, str]] = []
    for row in conn.execute(
        "SELECT * FROM proposed_events p WHERE NOT EXISTS"
        " (SELECT 1 FROM events e WHERE e.name = p.name) ORDER BY created_at"
    ).fetchall():
        try:
            with conn.transaction():
                create_event(
                    conn,
                    name=row["name"],
                    game=row["game"],
                    format=row["format"],
                    players=row["players"],
                    opens_at=row["opens_at"],
                    starts_at=row["starts_at"],
                    rounds=row["rounds"],
                    hosted_only=row["hosted_only"],
                    min_games=row["min_games"],
                    min_rating=row["min_rating"],
                    proposed_by=row["account"],
                )
            moved.append((row["name"], "announced"))
        except (ValueError, KeyError) as error:
            conn.execute(
                "INSERT INTO events (name, game, format, players, opens_at, starts_at, status,"
                " reason, proposed_by, finished_at) VALUES (%s, %s, %s, %s, %s, %s,"
                " 'cancelled', %s, %s, now()) ON CONFLICT (name) DO NOTHING",
                (
                    row["name"],
                    row["game"],
                    row["format"],
                    row["players"],
                    row["opens_at"],
                    row["starts_at"],
                    f"refused: {str(error).strip(chr(39) + chr(34))}",
                    row["account"],
                ),
            )
            moved.append((row["name"], "refused"))
    return moved


def advance(conn: psycopg.Connection[Row], now: datetime) -> list[tuple[str, str]]:
    """Announce the events authors proposed, then move every event whose time has come:
    (event, what happened) for each."""
    moved = adopt_proposals(conn)
    rows = conn.execute(
        "SELECT id FROM events WHERE (status = 'announced' AND opens_at <= %(now)s)"
        " OR (status = 'open' AND starts_at <= %(now)s) OR status = 'running' ORDER BY id",
        {"now": now},
    ).fetchall()
    for row in rows:
        with conn.transaction():
            locked = conn.execute(
                "SELECT * FROM events WHERE id = %s FOR UPDATE", (row["id"],)
            ).fetchone()
            assert locked is not None
            event = Event.from_row(locked)
            happened = _step(conn, event, now)
        if happened is not None:
            moved.append((event.name, happened))
    return moved


def _step(conn: psycopg.Connection[Row], event: Event, now: datetime) -> str | None:
    if event.status == "announced" and event.opens_at <= now:
        conn.execute("UPDATE events SET status = 'open' WHERE id = %s", (event.id,))
        if event.starts_at > now:
            return "open"
        event = replace(event, status="open")
    if event.status == "open" and event.starts_at <= now:
        return _start(conn, event)
    if event.status == "running" and event.league_id is not None:
        league = leagues.get_league(conn, event.league_id)
        if league is not None and league.status in ("finished", "cancelled"):
            conn.execute(
                "UPDATE events SET status = %s, finished_at = now() WHERE id = %s",
                (league.status, event.id),
            )
            return league.status
    return None


def seatable(conn: psycopg.Connection[Row], event: Event, bots: Sequence[str]) -> list[str]:
    """The entrants the gate still admits to a rated table of the event's game (a bot removed,
    disabled or back in validation since it entered is left out)."""
    standings = seat_standings(conn, bots)
    return [
        bot
        for bot in bots
        if bot in standings and judge(event.game, [standings[bot]], rated=True).rated
    ]


def seeded(conn: psycopg.Connection[Row], game: str, bots: Sequence[str]) -> list[str]:
    """The bots strongest first by the ladder's official standings in ``game`` (the published
    fit, ``official_standings``; of the version each seats): the established bots by their
    official rating, then the provisional ones, then those without a standing yet, ties by
    name. Live Elo is not used: it depends on the order the results came in, and a streak
    just before the start would move a seed."""
    rows_of = seated(conn, bots)
    official = {
        row["player"]: (bool(row["provisional"]), -float(row["rating"]))
        for row in conn.execute(
            "SELECT player, rating, provisional FROM official_standings"
            " WHERE game = %s AND player = ANY(%s)",
            (game, list(rows_of.values())),
        ).fetchall()
    }

    def key(bot: str) -> tuple[int, float, str]:
        found = official.get(rows_of.get(bot, ""))
        if found is None:
            return (2, 0.0, bot)
        provisional, minus_rating = found
        return (int(provisional), minus_rating, bot)

    return sorted(bots, key=key)


def _start(conn: psycopg.Connection[Row], event: Event) -> str:
    """The league of the event's format with the entrants the gate still admits; too few of
    them, or a field the format refuses, cancels the event with the reason."""
    entered = [row["bot"] for row in entrants(conn, event.id)]
    bots = seeded(conn, event.game, seatable(conn, event, entered))
    least = max(event.players, registry.get(event.format).min_bots)
    if len(bots) < least:
        return _cancel(
            conn, event, f"{len(bots)} entrants could be seated; the event needs {least}"
        )
    try:
        with conn.transaction():
            league = leagues.create_league(
                conn,
                name=event.league_name,
                game=event.game,
                format=event.format,
                players=event.players,
                bots=bots,
                options=event.options,
                rounds=event.rounds,
                move_time_ms=event.move_time_ms,
                settings=event.settings,
                rated=True,
                allow_same_owner=event.allow_same_owner,
                hosted_only=event.hosted_only,
            )
    except ValueError as error:
        return _cancel(conn, event, str(error))
    conn.execute(
        "UPDATE events SET status = 'running', league_id = %s WHERE id = %s",
        (league.id, event.id),
    )
    return "running"


def _cancel(conn: psycopg.Connection[Row], event: Event, reason: str) -> str:
    conn.execute(
        "UPDATE events SET status = 'cancelled', reason = %s, finished_at = now() WHERE id = %s",
        (reason, event.id),
    )
    return "cancelled"
