"""Registered bots, for the `premiere bots` commands: the arbiter owns the table.

A removed bot keeps its row, because its matches and ratings refer to it, but its token is
replaced by a value no token hashes to, so it can no longer connect or be seated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg

from server.store import add_bot, hash_token, new_token

__all__ = [
    "MAX_VERSIONS",
    "BotEntry",
    "UnknownBot",
    "VersionEntry",
    "VersionQuota",
    "activate_version",
    "add_bot",
    "announce_in",
    "announce_version",
    "lineage",
    "list_bots",
    "remove_bot",
    "rotate_token",
    "valid_version",
]

MAX_VERSIONS = 200
"""Versions one bot may have: a Hello can name a new one, so the count is bounded."""

_VERSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,31}")
"""Matched whole (``fullmatch``): "$" would let a final newline through."""


@dataclass(frozen=True)
class BotEntry:
    name: str
    created_at: datetime
    games: tuple[str, ...] | None
    """What it said it plays when it last connected; () is every game, None never connected."""
    last_connected_at: datetime | None


class VersionQuota(ValueError):
    """Too many new versions of one bot in a day."""


class UnknownBot(LookupError):
    def __init__(self, name: str) -> None:
        super().__init__(f"no registered bot named {name!r} (`premiere bots list` shows them)")


def list_bots(database_url: str) -> list[BotEntry]:
    """Registered bots (family roots; `lineage` lists a bot's versions)."""
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT name, created_at, games, last_connected_at FROM bots"
            " WHERE removed_at IS NULL AND family_id IS NULL ORDER BY name"
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


def remove_bot(database_url: str, name: str) -> int:
    """Retire bot ``name`` and every version of it (a version's NAME@VERSION: that version
    alone; if it was the active one, its predecessor is seated again). Their tokens stop
    working, the arbiters close their open streams within PREMIERE_RETIRE_CHECK_S, and no
    match seats them again; their matches and ratings stay. Returns how many rows were
    retired."""
    with psycopg.connect(database_url) as conn, conn.transaction():
        row = conn.execute(
            "SELECT id, family_id, predecessor_id FROM bots WHERE name = %s AND removed_at IS NULL",
            (name,),
        ).fetchone()
        if row is None:
            raise UnknownBot(name)
        bot_id, family_id, predecessor_id = row
        if family_id is None:
            updated = conn.execute(
                "UPDATE bots SET removed_at = now(), token_hash = 'removed:' || id"
                " WHERE coalesce(family_id, id) = %s AND removed_at IS NULL",
                (bot_id,),
            )
            return updated.rowcount
        conn.execute(
            "UPDATE bots SET active_id = %s WHERE id = %s AND active_id = %s",
            (predecessor_id if predecessor_id != family_id else None, family_id, bot_id),
        )
        conn.execute(
            "UPDATE bots SET removed_at = now(), token_hash = 'removed:' || id WHERE id = %s",
            (bot_id,),
        )
        return 1


@dataclass(frozen=True)
class VersionEntry:
    id: int
    name: str
    version: str | None
    predecessor: str | None
    active: bool
    created_at: datetime


def valid_version(version: str) -> bool:
    return _VERSION.fullmatch(version) is not None


def _root(conn: psycopg.Connection[Any], name: str) -> tuple[int, str]:
    """The family root of ``name`` (a root's name, or a version's NAME@VERSION), locked."""
    row = conn.execute(
        "SELECT coalesce(b.family_id, b.id) FROM bots b WHERE b.name = %s AND removed_at IS NULL",
        (name,),
    ).fetchone()
    if row is None:
        raise UnknownBot(name)
    root = conn.execute("SELECT id, name FROM bots WHERE id = %s FOR UPDATE", (row[0],)).fetchone()
    assert root is not None
    return int(root[0]), str(root[1])


def announce_version(
    database_url: str,
    name: str,
    version: str,
    activate: bool = True,
    per_day: int | None = None,
) -> tuple[int, str, bool]:
    """The bots row of ``version`` of bot ``name``: (id, name, created now).

    A version not seen before is created, linked to the family's active version as its
    predecessor, and (``activate``) made the active one. The root takes the first version
    named if it has none yet, so a bot that always sends a version has no unversioned entry.
    """
    with psycopg.connect(database_url) as conn:
        return announce_in(conn, name, version, activate, per_day)


def announce_in(
    conn: psycopg.Connection[Any],
    name: str,
    version: str,
    activate: bool = True,
    per_day: int | None = None,
) -> tuple[int, str, bool]:
    """``announce_version`` inside the caller's transaction (an upload stores its bundle in
    the same one, so a refused version keeps nothing)."""
    if not valid_version(version):
        raise ValueError(
            f"a version is 1-32 letters, digits and . _ + - starting with a letter or digit,"
            f" not {version[:40]!r}"
        )
    root_id, root_name = _root(conn, name)
    found = conn.execute(
        "SELECT id, name FROM bots WHERE coalesce(family_id, id) = %s AND version = %s",
        (root_id, version),
    ).fetchone()
    if found is not None:
        return int(found[0]), str(found[1]), False
    root = conn.execute(
        "SELECT version, active_id, games, (SELECT count(*) FROM bots WHERE family_id = %s)"
        " FROM bots WHERE id = %s",
        (root_id, root_id),
    ).fetchone()
    assert root is not None
    if root[0] is None and root[3] == 0:
        conn.execute("UPDATE bots SET version = %s WHERE id = %s", (version, root_id))
        return root_id, root_name, True
    if root[3] + 1 >= MAX_VERSIONS:
        raise ValueError(f"bot {root_name!r} has {MAX_VERSIONS} versions, the most allowed")
    if per_day is not None:
        (today,) = conn.execute(
            "SELECT count(*) FROM bots WHERE family_id = %s"
            " AND created_at > now() - interval '1 day'",
            (root_id,),
        ).fetchone() or (0,)
        if today >= per_day:
            raise VersionQuota(
                f"at most {per_day} new versions of a bot a day"
                " (PREMIERE_MAX_VERSIONS_PER_DAY); reuse a version name, or wait"
            )
    predecessor = root[1] if root[1] is not None else root_id
    created = conn.execute(
        "INSERT INTO bots (name, token_hash, family_id, version, predecessor_id, games)"
        " VALUES (%s, 'version:' || gen_random_uuid(), %s, %s, %s, %s) RETURNING id, name",
        (f"{root_name}@{version}", root_id, version, predecessor, root[2]),
    ).fetchone()
    assert created is not None
    if activate:
        conn.execute("UPDATE bots SET active_id = %s WHERE id = %s", (created[0], root_id))
    return int(created[0]), str(created[1]), True


def active_version(database_url: str, name: str) -> tuple[int, str]:
    """The version a stream of ``name``'s token serves when its Hello names none."""
    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT a.id, a.name FROM bots r JOIN bots a ON a.id = coalesce(r.active_id, r.id)"
            " WHERE r.name = %s AND r.family_id IS NULL",
            (name,),
        ).fetchone()
    if row is None:
        raise UnknownBot(name)
    return int(row[0]), str(row[1])


def activate_version(database_url: str, name: str, version: str) -> str:
    """Make ``version`` the one seated for ``name`` (a roll back, or forward); its name."""
    with psycopg.connect(database_url) as conn:
        root_id, _root_name = _root(conn, name)
        found = conn.execute(
            "SELECT id, name FROM bots WHERE coalesce(family_id, id) = %s AND version = %s"
            " AND removed_at IS NULL",
            (root_id, version),
        ).fetchone()
        if found is None:
            known = [v.version for v in _lineage(conn, root_id) if v.version]
            raise LookupError(
                f"bot {name!r} has no version {version!r}; it has {', '.join(known) or 'none'}"
            )
        conn.execute("UPDATE bots SET active_id = %s WHERE id = %s", (found[0], root_id))
        return str(found[1])


def _lineage(conn: psycopg.Connection[Any], root_id: int) -> list[VersionEntry]:
    rows = conn.execute(
        "SELECT b.id, b.name, b.version, p.name, coalesce(r.active_id, r.id) = b.id, b.created_at"
        " FROM bots b JOIN bots r ON r.id = coalesce(b.family_id, b.id)"
        " LEFT JOIN bots p ON p.id = b.predecessor_id"
        " WHERE r.id = %s ORDER BY b.created_at, b.id",
        (root_id,),
    ).fetchall()
    return [VersionEntry(*row) for row in rows]


def lineage(database_url: str, name: str) -> list[VersionEntry]:
    """Every version of the bot, oldest first."""
    with psycopg.connect(database_url) as conn:
        root_id, _ = _root(conn, name)
        return _lineage(conn, root_id)
