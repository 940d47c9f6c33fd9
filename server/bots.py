"""Registered bots, for the `premiere bots` commands: the arbiter owns the table.

A removed bot keeps its row, because its matches and ratings refer to it, but its token is
replaced by a value no token hashes to, so it can no longer connect or be seated.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import psycopg

from server.store import add_bot, hash_token, new_token

__all__ = ["BotEntry", "UnknownBot", "add_bot", "list_bots", "remove_bot", "rotate_token"]


@dataclass(frozen=True)
class BotEntry:
    name: str
    created_at: datetime
    games: tuple[str, ...] | None
    """What it said it plays when it last connected; () is every game, None never connected."""
    last_connected_at: datetime | None


class UnknownBot(LookupError):
    def __init__(self, name: str) -> None:
        super().__init__(f"no registered bot named {name!r} (`premiere bots list` shows them)")


def list_bots(database_url: str) -> list[BotEntry]:
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT name, created_at, games, last_connected_at FROM bots"
            " WHERE removed_at IS NULL ORDER BY name"
        ).fetchall()
    return [
        BotEntry(name, created, tuple(games) if games is not None else None, seen)
        for name, created, games, seen in rows
    ]


def rotate_token(database_url: str, name: str) -> str:
    """A new token for the bot; the old one stops working for new connections at once."""
    token = new_token()
    with psycopg.connect(database_url) as conn:
        updated = conn.execute(
            "UPDATE bots SET token_hash = %s WHERE name = %s AND removed_at IS NULL",
            (hash_token(token), name),
        )
        if updated.rowcount != 1:
            raise UnknownBot(name)
    return token


def remove_bot(database_url: str, name: str) -> None:
    with psycopg.connect(database_url) as conn:
        updated = conn.execute(
            "UPDATE bots SET removed_at = now(), token_hash = 'removed:' || id"
            " WHERE name = %s AND removed_at IS NULL",
            (name,),
        )
        if updated.rowcount != 1:
            raise UnknownBot(name)
