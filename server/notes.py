"""Bot notes for their owner: what a bot attached to its answers, read through the authors' API.

Everyone else meets a note only in the replay of an ended match (``spectator.replays``): a note
can tell the bot's hand. Its owner may read it while the match runs, since the owner's own
program wrote it from what its seat saw.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.rows import dict_row

__all__ = ["MAX_NOTES", "notes"]

MAX_NOTES = 500


def notes(
    database_url: str, root: str, name: str, match_id: str | None, limit: int
) -> list[dict[str, Any]]:
    """The newest ``limit`` notes of bot ``name`` (a root: every version of it; or one version)
    of the family ``root``, oldest first; with ``match_id``, those of that match only."""
    limit = max(1, min(limit, MAX_NOTES))
    with psycopg.connect(database_url, row_factory=dict_row) as conn:
        if (
            match_id
            and conn.execute("SELECT 1 FROM matches WHERE id::text = %s", (match_id,)).fetchone()
            is None
        ):
            raise LookupError(f"no match {match_id[:40]!r}")
        rows = conn.execute(
            "SELECT m.match_id::text AS match_id, m.ply, m.seat, m.note, b.name,"
            " x.status IN ('finished', 'void') AS ended, x.game"
            " FROM match_moves m"
            " JOIN match_seats s ON s.match_id = m.match_id AND s.seat = m.seat"
            " JOIN bots b ON b.id = s.bot_id JOIN bots r ON r.id = coalesce(b.family_id, b.id)"
            " JOIN matches x ON x.id = m.match_id"
            " WHERE r.name = %s AND (%s = r.name OR b.name = %s) AND m.note IS NOT NULL"
            " AND (%s::text IS NULL OR m.match_id::text = %s)"
            " ORDER BY x.created_at DESC, m.match_id, m.ply DESC LIMIT %s",
            (root, name, name, match_id, match_id, limit),
        ).fetchall()
    rows.reverse()
    return rows
