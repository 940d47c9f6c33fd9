"""When the ladder's rating loop looks at the queue next.

A pass rates what is queued (``ladder.store.rate_queued``, which waits only for transactions
actually in flight: ``ladder.horizon``); the loop then waits for the first of: a newly
finished match (the queue trigger notifies ``premiere_rating_queue`` when the arbiter commits
it; a notice that came during the pass wakes the loop at once), or the loop's interval, which
stays the upper bound whatever PostgreSQL delivers. Without the notifications (the listening
connection lost) the loop falls back to its interval alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import psycopg

__all__ = ["CHANNEL", "QueueWatch"]

CHANNEL = "premiere_rating_queue"
_STOP_CHECK_S = 0.25
"""Longest wait between looks at the stop event."""

log = logging.getLogger("premiere.ladder")


class QueueWatch:
    """A connection listening on ``CHANNEL``: ``wait`` returns early when a match finishes."""

    def __init__(self, database_url: str) -> None:
        self.database_url = database_url
        self._conn: psycopg.AsyncConnection[Any] | None = None

    async def _listening(self) -> psycopg.AsyncConnection[Any] | None:
        if self._conn is not None and not self._conn.closed:
            return self._conn
        try:
            conn = await psycopg.AsyncConnection.connect(self.database_url, autocommit=True)
            await conn.execute(f"LISTEN {CHANNEL}")
        except psycopg.Error:
            log.exception("cannot listen for finished matches; rating on the interval alone")
            return None
        self._conn = conn
        return conn

    async def wait(self, seconds: float, stop: asyncio.Event) -> bool:
        """Wait up to ``seconds``; True as soon as a match is notified, False at the end (or
        when ``stop`` is set)."""
        deadline = time.monotonic() + seconds
        while not stop.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            conn = await self._listening()
            chunk = min(left, _STOP_CHECK_S)
            if conn is None:
                await asyncio.sleep(chunk)
                continue
            try:
                # Closed on the way out: a suspended notifies() holds the connection's lock.
                async with contextlib.aclosing(conn.notifies(timeout=chunk, stop_after=1)) as got:
                    async for _ in got:
                        notified = True
                        break
                    else:
                        notified = False
                if notified:
                    await self._drain(conn)
                    return True
            except psycopg.Error:
                log.exception("lost the connection listening for finished matches")
                await self.close()
        return False

    @staticmethod
    async def _drain(conn: psycopg.AsyncConnection[Any]) -> None:
        """Notices already here announce matches the same wait covers. (A timeout of 0 would
        mean none: wait for ever.)"""
        async with contextlib.aclosing(conn.notifies(timeout=0.001)) as got:
            async for _ in got:
                pass

    async def close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            await conn.close()
