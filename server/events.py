"""Public event streams of live matches, for WatchMatch: full history, then the live tail."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

from premiere_bot.wire import match_pb2


class EventHub:
    def __init__(self) -> None:
        self._events: dict[str, list[match_pb2.WatchMatchResponse]] = {}
        self._closed: set[str] = set()
        self._changed = asyncio.Condition()

    def is_live(self, match_id: str) -> bool:
        return match_id in self._events

    def open(self, match_id: str) -> None:
        self._events.setdefault(match_id, [])
        self._closed.discard(match_id)

    async def publish(self, match_id: str, event: match_pb2.WatchMatchResponse) -> None:
        events = self._events.setdefault(match_id, [])
        event.sequence = len(events)
        events.append(event)
        async with self._changed:
            self._changed.notify_all()

    async def close(self, match_id: str) -> None:
        """No more events; the history is dropped once current watchers have read it."""
        self._closed.add(match_id)
        async with self._changed:
            self._changed.notify_all()
        self._events.pop(match_id, None)

    async def follow(self, match_id: str) -> AsyncIterator[match_pb2.WatchMatchResponse]:
        events = self._events.get(match_id, [])
        sent = 0
        while True:
            while sent < len(events):
                yield events[sent]
                sent += 1
            if match_id in self._closed or match_id not in self._events:
                return
            async with self._changed:
                await self._changed.wait_for(self._waiter(match_id, events, sent))

    def _waiter(
        self, match_id: str, events: list[match_pb2.WatchMatchResponse], sent: int
    ) -> Callable[[], bool]:
        return lambda: (
            len(events) > sent or match_id in self._closed or match_id not in self._events
        )
