"""An event's own entry rules, on the arbiter's entry code against real PostgreSQL (the gRPC
path and the gate's refusals run on a whole stack in test_events.py): invite only, hosted only,
a minimum of rated games and of rating, each refused saying which rule, and the bot that meets
them entered."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from psycopg.rows import dict_row

from server import accounts, entries

GAME = "movie-tricks"


def _account(conn: psycopg.Connection[Any], name: str) -> accounts.Account:
    row = conn.execute(
        "INSERT INTO accounts (name, token_hash) VALUES (%s, %s) RETURNING id, created_at",
        (name, f"hash-{name}"),
    ).fetchone()
    assert row is not None
    return accounts.Account(row["id"], name, "active", "", row["created_at"])


def _rated_bot(
    conn: psycopg.Connection[Any], account: accounts.Account, name: str, games: int, rating: float
) -> None:
    conn.execute(
        "INSERT INTO bots (name, token_hash, account_id) VALUES (%s, %s, %s)",
        (name, f"hash-{name}", account.id),
    )
    conn.execute("INSERT INTO bot_standing (bot, state) VALUES (%s, 'rated')", (name,))
    conn.execute(
        "INSERT INTO lineage_validations (family, game, bot)"
        " SELECT family, %s, name FROM bot_lineage WHERE name = %s",
        (GAME, name),
    )
    conn.execute("INSERT INTO ladders (game) VALUES (%s) ON CONFLICT DO NOTHING", (GAME,))
    player = conn.execute(
        "INSERT INTO ladder_players (bot_id) SELECT id FROM bots WHERE name = %s RETURNING id",
        (name,),
    ).fetchone()
    assert player is not None
    conn.execute(
        "INSERT INTO ratings (game, player_id, rating, games) VALUES (%s, %s, %s, %s)",
        (GAME, player["id"], rating, games),
    )


def _event(conn: psycopg.Connection[Any], name: str, **rules: Any) -> None:
    now = datetime.now(UTC)
    fixed = ["name", "game", "format", "players", "opens_at", "starts_at", "status"]
    columns = ", ".join([*fixed, *rules])
    hour = timedelta(hours=1)
    values = [name, GAME, "round-robin", 2, now - hour, now + hour, "open", *rules.values()]
    conn.execute(
        f"INSERT INTO events ({columns}) VALUES ({', '.join(['%s'] * len(values))})", values
    )


def test_an_events_own_rules_refuse_saying_which(database_url: str) -> None:
    from premiere.db import upgrade

    upgrade(database_url)
    with psycopg.connect(database_url, row_factory=dict_row, autocommit=True) as conn:
        ann, bea = _account(conn, "ann"), _account(conn, "bea")
        _rated_bot(conn, ann, "ann-bot", games=3, rating=1450.0)
        _rated_bot(conn, bea, "bea-bot", games=40, rating=1620.0)
        _event(conn, "invited-cup", invited=["bea"])
        _event(conn, "hosted-cup", hosted_only=True)
        _event(conn, "veterans-cup", min_games=10)
        _event(conn, "strong-cup", min_rating=1500.0)

    with pytest.raises(entries.EntryRefused, match="by invitation; your account is not invited"):
        entries.enter(database_url, ann, "invited-cup", "ann-bot")
    assert entries.enter(database_url, bea, "invited-cup", "bea-bot") == 1
    with pytest.raises(entries.EntryRefused, match="hosted bots only; ann-bot dials in"):
        entries.enter(database_url, ann, "hosted-cup", "ann-bot")
    with pytest.raises(entries.EntryRefused, match="needs 10 rated games of movie-tricks"):
        entries.enter(database_url, ann, "veterans-cup", "ann-bot")
    assert entries.enter(database_url, bea, "veterans-cup", "bea-bot") == 1
    with pytest.raises(entries.EntryRefused, match="needs a rating of 1500; ann-bot has 1450"):
        entries.enter(database_url, ann, "strong-cup", "ann-bot")
    assert entries.enter(database_url, bea, "strong-cup", "bea-bot") == 1
    with pytest.raises(entries.EntryRefused, match="already entered"):
        entries.enter(database_url, bea, "strong-cup", "bea-bot")
    with pytest.raises(accounts.NotFound, match="your account has no bot"):
        entries.enter(database_url, ann, "strong-cup", "bea-bot")
    with pytest.raises(LookupError, match="no event named 'nowhere'"):
        entries.enter(database_url, ann, "nowhere", "ann-bot")
    assert entries.withdraw(database_url, bea, "strong-cup", "bea-bot") == 0
    with pytest.raises(entries.EntryRefused, match="not entered"):
        entries.withdraw(database_url, bea, "strong-cup", "bea-bot")
