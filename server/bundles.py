"""Uploaded bundles: checked, stored by SHA-256 within the account's quota, and made a new
version of the author's bot, all in one transaction, so a refused upload leaves nothing.

The arbiter owns ``bundles`` and the ``bots`` rows; the runner (``hosting/``) reads them
through the ``hosted_versions`` view and fetches a bundle by digest.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

import psycopg
from psycopg.rows import dict_row

from premiere_wire.bundle import BundleError, Caps, Checked, check
from server import accounts
from server.bots import announce_in, valid_version

__all__ = ["Stored", "bundle_data", "logs", "store"]


@dataclass(frozen=True)
class Stored:
    name: str
    version: str
    sha256: str
    stored_bytes: int
    quota_bytes: int
    games: tuple[str, ...]


def _version(conn: psycopg.Connection[Any], root: str, asked: str) -> str:
    """The version asked for, or the first free whole number past the bot's version count."""
    if asked:
        if not valid_version(asked):
            raise BundleError(
                f"a version is 1-32 letters, digits and . _ + - starting with a letter or digit,"
                f" not {asked[:40]!r}"
            )
        return asked
    taken = {
        row[0]
        for row in conn.execute(
            "SELECT b.version FROM bots b JOIN bots r ON r.id = coalesce(b.family_id, b.id)"
            " WHERE r.name = %s AND b.version IS NOT NULL",
            (root,),
        ).fetchall()
    }
    number = len(taken) + 1
    while str(number) in taken:
        number += 1
    return str(number)


def store(
    database_url: str,
    account: accounts.Account,
    root: str,
    version: str,
    data: bytes,
    caps: Caps,
    quota_bytes: int,
    per_day: int | None,
) -> Stored:
    """Check ``data`` as a bundle, keep it for ``account`` and make it version ``version``
    (or the manifest's, or the next number) of the account's bot ``root``, active at once.

    BundleError names a broken rule; accounts.QuotaExceeded the storage quota; ValueError a
    version that exists already. Under the account's row lock, so two uploads at once cannot
    both fit in the room left for one."""
    checked: Checked = check(data, caps)
    manifest = checked.manifest
    with psycopg.connect(database_url) as conn, conn.transaction():
        conn.execute("SELECT 1 FROM accounts WHERE id = %s FOR UPDATE", (account.id,))
        wanted = _version(conn, root, version or manifest.version)
        exists = conn.execute(
            "SELECT 1 FROM bots b JOIN bots r ON r.id = coalesce(b.family_id, b.id)"
            " WHERE r.name = %s AND b.version = %s",
            (root, wanted),
        ).fetchone()
        if exists is not None:
            raise ValueError(
                f"bot {root!r} has a version {wanted!r} already: upload with another --version"
            )
        (used,) = conn.execute(
            "SELECT coalesce(sum(size), 0) FROM bundles WHERE account_id = %s", (account.id,)
        ).fetchone() or (0,)
        known = conn.execute(
            "SELECT 1 FROM bundles WHERE account_id = %s AND sha256 = %s",
            (account.id, checked.sha256),
        ).fetchone()
        if known is None and used + checked.size > quota_bytes:
            raise accounts.QuotaExceeded(
                f"bundle storage quota: {used + checked.size} bytes would exceed the account's"
                f" {quota_bytes} (PREMIERE_BUNDLE_QUOTA_MB); remove old bots or versions first"
            )
        if known is None:
            conn.execute(
                "INSERT INTO bundles (account_id, sha256, data, size, unpacked, files, manifest)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s)",
                (
                    account.id,
                    checked.sha256,
                    data,
                    checked.size,
                    checked.unpacked,
                    checked.files,
                    json.dumps(_manifest_json(checked)),
                ),
            )
            used += checked.size
        bot_id, name, _created = announce_in(conn, root, wanted, True, per_day)
        conn.execute(
            "UPDATE bots SET bundle_sha256 = %s, games = %s WHERE id = %s",
            (checked.sha256, list(manifest.games), bot_id),
        )
    return Stored(name, wanted, checked.sha256, int(used), quota_bytes, manifest.games)


def _manifest_json(checked: Checked) -> dict[str, Any]:
    manifest = asdict(checked.manifest)
    manifest["games"] = list(checked.manifest.games)
    return manifest


def bundle_data(database_url: str, sha256: str) -> bytes | None:
    """The archive named by ``sha256`` (the runner checks the digest again)."""
    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT data FROM bundles WHERE sha256 = %s LIMIT 1", (sha256,)
        ).fetchone()
    return bytes(row[0]) if row else None


def logs(
    database_url: str, root: str, name: str, match_id: str | None, limit: int
) -> list[dict[str, Any]]:
    """The newest ``limit`` log lines of bot ``name`` (a root: every version of it) of the
    family ``root``, oldest first; with ``match_id``, those printed while that match ran."""
    with psycopg.connect(database_url, row_factory=dict_row) as conn:
        window = (None, None)
        if match_id:
            found = conn.execute(
                "SELECT coalesce(started_at, created_at) AS start, finished_at FROM matches"
                " WHERE id::text = %s",
                (match_id,),
            ).fetchone()
            if found is None:
                raise LookupError(f"no match {match_id[:40]!r}")
            window = (found["start"], found["finished_at"])
        rows = conn.execute(
            "SELECT l.at, l.source, l.line, b.name FROM hosted_logs l"
            " JOIN bots b ON b.id = l.bot_id JOIN bots r ON r.id = coalesce(b.family_id, b.id)"
            " WHERE r.name = %s AND (%s = r.name OR b.name = %s)"
            " AND (%s::timestamptz IS NULL OR l.at >= %s)"
            " AND (%s::timestamptz IS NULL OR l.at <= %s)"
            " ORDER BY l.id DESC LIMIT %s",
            (root, name, name, window[0], window[0], window[1], window[1], limit),
        ).fetchall()
    return rows[::-1]
