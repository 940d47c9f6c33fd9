"""The arbiter's write coalescing (`server.coalesce`): requests ready together become one
DecisionBatch built from their bytes, in order, never across another message."""

from __future__ import annotations

import asyncio

from premiere_wire import bot_gateway_pb2
from server import coalesce
from server.router import Outgoing, Request


def _request(n: int, padding: int = 0) -> Request:
    return Request.of(
        bot_gateway_pb2.DecisionRequest(request_id=f"m:{n}", match_id="m" + "x" * padding)
    )


def _parsed(frame: coalesce.Frame) -> bot_gateway_pb2.ConnectResponse:
    if isinstance(frame, bytes):
        return bot_gateway_pb2.ConnectResponse.FromString(frame)
    return frame


def test_consecutive_requests_go_out_as_one_batch_and_news_keeps_its_place() -> None:
    ended = bot_gateway_pb2.ConnectResponse(match_ended=bot_gateway_pb2.MatchEnded(match_id="m"))
    messages: list[Outgoing] = [_request(0), _request(1), ended, _request(2), _request(3)]
    out = [_parsed(f) for f in coalesce.frames(messages)]
    assert [m.WhichOneof("message") for m in out] == ["decisions", "match_ended", "decisions"]
    assert [r.request_id for r in out[0].decisions.requests] == ["m:0", "m:1"]
    assert [r.request_id for r in out[2].decisions.requests] == ["m:2", "m:3"]


def test_a_lone_request_goes_out_as_a_plain_decision() -> None:
    only = _request(7)
    assert list(coalesce.frames([only])) == [only.framed()]


def test_a_batch_stays_under_its_byte_cap() -> None:
    big = coalesce.MAX_BATCH_BYTES // 3
    requests = [_request(n, padding=big) for n in range(7)]
    out = [_parsed(f) for f in coalesce.frames(requests)]
    assert len(out) > 1
    assert all(m.ByteSize() <= coalesce.MAX_BATCH_BYTES + 1024 for m in out)
    ids = [
        r.request_id
        for m in out
        for r in (m.decisions.requests if m.HasField("decisions") else [m.decision])
    ]
    assert ids == [f"m:{n}" for n in range(7)]


def test_ready_takes_what_waits_and_sees_the_streams_end() -> None:
    outbox: asyncio.Queue[Outgoing | None] = asyncio.Queue()
    for n in (1, 2):
        outbox.put_nowait(_request(n))
    first = _request(0)
    assert coalesce.ready(first, outbox) == ([first, _request(1), _request(2)], False)
    outbox.put_nowait(_request(3))
    outbox.put_nowait(None)
    outbox.put_nowait(_request(4))
    assert coalesce.ready(first, outbox) == ([first, _request(3)], True)
