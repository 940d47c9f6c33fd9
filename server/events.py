"""Live event streams of the matches hosted here, for WatchMatch: full history, then the tail.

Events are plain records; MatchService turns them into public views only when somebody
watches, so an unwatched match pays nothing for spectators.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from server.store import FaultRecord


@dataclass(frozen=True)
class MoveEvent:
    ply: int
    seat: int
    move: Any
    defaulted: bool


@dataclass(frozen=True)
class FaultEvent:
    fault: FaultRecord

    @property
    def ply(self) -> int:
        return self.fault.ply


@dataclass(frozen=True)
class EndEvent:
    status: str


Event = MoveEvent | FaultEvent | EndEvent


class EventHub:
    def __init__(self) -> None:
        self._events: dict[str, list[Event]] = {}
        self._changed = asyncio.Condition()

    def is_live(self, match_id: str) -> bool:
        return match_id in self._events

    def open(self, match_id: str) -> None:
        self._events.setdefault(match_id, [])

    async def publish(self, match_id: str, event: Event) -> None:
        self._events.setdefault(match_id, []).append(event)
        async with self._changed:
            self._changed.notify_all()

    async def close(self, match_id: str) -> None:
        """No more events; current watchers still read what they hold, then stop."""
        self._events.pop(match_id, None)
        async with self._changed:
            self._changed.notify_all()

    async def follow(self, match_id: str) -> AsyncIterator[Event]:
        events = self._events.get(match_id, [])
        sent = 0
        while True:
            while sent < len(events):
                yield events[sent]
                sent += 1
            if match_id not in self._events:
                return
            async with self._changed:
                await self._changed.wait_for(self._waiter(match_id, events, sent))

    def _waiter(self, match_id: str, events: list[Event], sent: int) -> Callable[[], bool]:
        return lambda: len(events) > sent or match_id not in self._events
