"""How far the rating queue is complete: a moment before which every finished match is already
in ``rating_queue`` (or never will be), so that rating up to it keeps finish order.

Matches are committed in whatever order their transactions end, not the order they finished:
the queue can show a match finished at 12:00:00.020 while one finished at 12:00:00.010 is still
being committed. Rating the first one then would put it ahead of the second for good. What
shows such a gap: a match's finish time is taken inside the transaction that finishes it (the
arbiter's ``clock_timestamp()``), and every transaction holds the lock on its virtual
transaction id from its start to its end (after its commit is visible). So a match finished
before a moment T and not in the queue belongs to a transaction that was running at T.

``complete_before`` takes the moment, notes the transactions running then in this database, and
waits until each of them has ended (they are the arbiter's short writes, mostly: milliseconds),
polling ``pg_locks``. Every match finished before the moment is then in the queue, or was
rolled back. A transaction still running after ``wait_s`` (a long one, unrelated to matches,
most likely) is waited for no longer: the moment is returned anyway, and a match it finished
would be rated when it arrives, after matches that finished later (the order ``seq`` records).
The wait is no longer than the fixed settling delay this replaces, and is spent only while
some transaction that began before the moment is actually still running.
"""

from __future__ import annotations

import datetime
import time
from typing import Any

import psycopg
from psycopg.rows import tuple_row

__all__ = ["complete_before"]

_POLL_S = 0.002
"""Between two looks at the running transactions."""

_RUNNING = (
    "SELECT l.virtualxid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
    " WHERE l.locktype = 'virtualxid' AND l.granted AND l.pid <> pg_backend_pid()"
    " AND a.datname = current_database()"
    " AND coalesce(a.backend_type, 'client backend') = 'client backend'"
)
"""Transactions running in this database (other than the caller's), by virtual id: every
transaction holds the lock on its own from its start to its end. Another role's session shows
its database but not its kind (``backend_type`` is NULL): it counts, so the arbiter's writes
are seen whatever role the ladder runs as (only autovacuum and the like are left out, when
they can be told)."""


def _running(conn: psycopg.Connection[Any]) -> set[str]:
    with conn.transaction():
        return {str(row[0]) for row in conn.cursor(row_factory=tuple_row).execute(_RUNNING)}


def _now(conn: psycopg.Connection[Any]) -> datetime.datetime:
    with conn.transaction():
        row = conn.cursor(row_factory=tuple_row).execute("SELECT clock_timestamp()").fetchone()
    assert row is not None
    return row[0]  # type: ignore[no-any-return]


def complete_before(conn: psycopg.Connection[Any], wait_s: float) -> datetime.datetime:
    """A moment before which every finished match is in the queue (see the module doc),
    waiting at most ``wait_s`` for the transactions running at it. Each look is a transaction
    of its own: ``conn`` must be idle."""
    moment = _now(conn)
    if wait_s <= 0:
        return moment
    deadline = time.monotonic() + wait_s
    running = _running(conn)
    while running and time.monotonic() < deadline:
        time.sleep(_POLL_S)
        running &= _running(conn)
    return moment
