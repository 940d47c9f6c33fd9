"""Coalescing a stream's ready decision requests into `DecisionBatch` messages.

gRPC allows one write in flight per stream, and each write is a system call of its own. A bot
that holds many matches on one stream would otherwise cost one write per request; the requests
that are ready when a write is due go out together instead. Nothing waits for a batch to fill:
only what is already in the outbox is taken, so no request is held back.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence

from premiere_wire import bot_gateway_pb2
from server.metrics import DECISION_BATCH
from server.outbox import Outbox
from server.router import Outgoing, Request, framed_batch

MAX_BATCH_BYTES = 1 << 20
"""A batch stays well under gRPC's default 4 MiB receive limit of the bots' clients."""

Frame = bytes | bot_gateway_pb2.ConnectResponse


def ready(first: Outgoing, outbox: Outbox[Outgoing | None]) -> tuple[list[Outgoing], bool]:
    """`first` and every message already waiting behind it, in order; and whether the stream's
    end (None) was among them."""
    messages = [first]
    while True:
        try:
            item = outbox.get_nowait()
        except asyncio.QueueEmpty:
            return messages, False
        if item is None:
            return messages, True
        messages.append(item)


def frames(messages: Sequence[Outgoing]) -> Iterator[Frame]:
    """The messages to write, in order: each run of consecutive requests as one batch (a lone
    request as a plain DecisionRequest), every other message as it is."""
    run: list[Request] = []
    size = 0
    for message in messages:
        if isinstance(message, Request):
            if run and size + len(message.data) > MAX_BATCH_BYTES:
                yield _batch(run)
                run, size = [], 0
            run.append(message)
            size += len(message.data)
            continue
        if run:
            yield _batch(run)
            run, size = [], 0
        yield message
    if run:
        yield _batch(run)


def _batch(run: list[Request]) -> bytes:
    DECISION_BATCH.observe(len(run))
    return run[0].framed() if len(run) == 1 else framed_batch(run)
