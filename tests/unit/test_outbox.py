"""`server.outbox.Outbox`: the FIFO behind each bot stream's writer, and the interceptor that
wraps each method once (both held per open stream: an idle stream's memory is a goal)."""

from __future__ import annotations

import asyncio
import sys
from types import SimpleNamespace
from typing import Any

import grpc
import pytest

from premiere.clean_errors import CleanErrors
from server.outbox import Outbox


def test_first_in_first_out_without_waiting() -> None:
    box: Outbox[int | None] = Outbox()
    assert box.qsize() == 0 and box.empty()
    with pytest.raises(asyncio.QueueEmpty):
        box.get_nowait()
    for n in (1, 2, None):
        box.put_nowait(n)
    assert box.qsize() == 3 and not box.empty()
    assert [box.get_nowait() for _ in range(3)] == [1, 2, None]
    with pytest.raises(asyncio.QueueEmpty):
        box.get_nowait()


def test_a_waiting_reader_wakes_for_each_message_in_order() -> None:
    async def scenario() -> list[int]:
        box: Outbox[int] = Outbox()
        got: list[int] = []

        async def reader() -> None:
            for _ in range(4):
                got.append(await box.get())

        task = asyncio.create_task(reader())
        await asyncio.sleep(0)
        box.put_nowait(1)
        await asyncio.sleep(0)
        box.put_nowait(2)
        box.put_nowait(3)
        await asyncio.sleep(0)
        box.put_nowait(4)
        await asyncio.wait_for(task, 1)
        return got

    assert asyncio.run(scenario()) == [1, 2, 3, 4]


def test_a_cancelled_reader_leaves_the_outbox_usable() -> None:
    async def scenario() -> int:
        box: Outbox[int] = Outbox()
        waiting = asyncio.create_task(box.get())
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        box.put_nowait(7)
        return await asyncio.wait_for(box.get(), 1)

    assert asyncio.run(scenario()) == 7


def test_one_reader_only() -> None:
    async def scenario() -> None:
        box: Outbox[int] = Outbox()
        first = asyncio.create_task(box.get())
        await asyncio.sleep(0)
        with pytest.raises(RuntimeError, match="one reader"):
            await box.get()
        first.cancel()

    asyncio.run(scenario())


def test_an_idle_outbox_holds_no_queue() -> None:
    box: Outbox[int] = Outbox()
    assert not hasattr(box, "__dict__")
    assert sys.getsizeof(box) < 64


def test_each_method_is_wrapped_once() -> None:
    async def echo(requests: Any, context: Any) -> None:
        return None

    handler = grpc.stream_stream_rpc_method_handler(echo)
    details = SimpleNamespace(method="/premiere.v1.Test/Echo", invocation_metadata=())

    async def continuation(_: grpc.HandlerCallDetails) -> Any:
        return handler

    async def twice() -> tuple[Any, Any]:
        interceptor = CleanErrors()
        return (
            await interceptor.intercept_service(continuation, details),  # type: ignore[arg-type]
            await interceptor.intercept_service(continuation, details),  # type: ignore[arg-type]
        )

    first, second = asyncio.run(twice())
    assert first is second
    assert first is not handler and first.stream_stream is not echo
