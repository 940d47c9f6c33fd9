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
    elapsed_ms: int = 0
    forced: list[Any] | None = None
    """As logged: `MoveRecord.forced`."""


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
    """One condition per live match: a move wakes the watchers of that match only."""

    def __init__(self) -> None:
        self._events: dict[str, list[Event]] = {}
        self._changed: dict[str, asyncio.Condition] = {}
        self._watchers: dict[str, int] = {}
        """Followers per match: with none, a move wakes nobody and skips the condition."""

    def is_live(self, match_id: str) -> bool:
        return match_id in self._events

    def open(self, match_id: str) -> None:
        self._events.setdefault(match_id, [])
        self._changed.setdefault(match_id, asyncio.Condition())

    async def publish(self, match_id: str, event: Event) -> None:
        self.open(match_id)
        self._events[match_id].append(event)
        if not self._watchers.get(match_id):
            return
        changed = self._changed[match_id]
        async with changed:
            changed.notify_all()

    async def close(self, match_id: str) -> None:
        """No more events; current watchers still read what they hold, then stop."""
        self._events.pop(match_id, None)
        changed = self._changed.pop(match_id, None)
        if changed is not None:
            async with changed:
                changed.notify_all()

    async def follow(self, match_id: str) -> AsyncIterator[Event]:
        events = self._events.get(match_id, [])
        changed = self._changed.get(match_id)
        sent = 0
        self._watchers[match_id] = self._watchers.get(match_id, 0) + 1
        try:
            while True:
                while sent < len(events):
                    yield events[sent]
                    sent += 1
                if match_id not in self._events or changed is None:
                    return
                async with changed:
                    await changed.wait_for(self._waiter(match_id, events, sent))
        finally:
            left = self._watchers.get(match_id, 1) - 1
            if left > 0:
                self._watchers[match_id] = left
            else:
                self._watchers.pop(match_id, None)

    def _waiter(self, match_id: str, events: list[Event], sent: int) -> Callable[[], bool]:
        return lambda: len(events) > sent or match_id not in self._events
