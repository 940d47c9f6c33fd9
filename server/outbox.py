"""A bot stream's outbox: the messages the gateway's writer has still to put on the stream.

The arbiter holds one per connected stream, thousands of them mostly idle; `asyncio.Queue`
keeps four deques and an Event for each (about 3 KiB), where one writer draining one FIFO needs
a single deque, made on the first message, and the writer's one waiter.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class Outbox(Generic[T]):
    """FIFO with one consumer: `get` is awaited by the stream's writer alone."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: deque[T] | None = None
        self._waiter: asyncio.Future[None] | None = None

    def qsize(self) -> int:
        return len(self._items) if self._items is not None else 0

    def empty(self) -> bool:
        return not self._items

    def put_nowait(self, item: T) -> None:
        if self._items is None:
            self._items = deque()
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def get_nowait(self) -> T:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    async def get(self) -> T:
        while not self._items:
            if self._waiter is not None:
                raise RuntimeError("an outbox has one reader")
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.popleft()
