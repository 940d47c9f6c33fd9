"""Finding: a malformed first message logged a 20-line traceback and returned UNKNOWN, and
internal class names (psycopg's) reached clients. Bad input now gets INVALID_ARGUMENT (or
RESOURCE_EXHAUSTED) with a one-line reason and at most one log line."""

from __future__ import annotations

import time

import grpc
import pytest

from premiere_wire import match_pb2
from tests.integration.services import Arbiter

GARBAGE = b"\xff\xfe\x00garbage, not a protobuf message\x07" * 3
INTERNAL_NAMES = ("psycopg", "Traceback", "Error'>", "<class", "Exception")


def raw(arbiter: Arbiter, method: str, kind: str, token: str | None = None) -> object:
    channel = grpc.insecure_channel(arbiter.address)
    factory = getattr(channel, kind)
    return factory(method, request_serializer=lambda b: b, response_deserializer=lambda b: b)


def clean(error: grpc.RpcError) -> None:
    details = error.details() or ""
    assert "\n" not in details
    assert not any(name in details for name in INTERNAL_NAMES), details


def test_a_garbage_first_message_is_invalid_argument(shared: Arbiter) -> None:
    token = shared.add_bot("garbler")
    connect = raw(shared, "/premiere.v1.BotGatewayService/Connect", "stream_stream")
    logged = len(shared.log_path.read_text()) if shared.log_path else 0
    for _ in range(3):
        call = connect(iter([GARBAGE]), metadata=(("authorization", f"Bearer {token}"),))  # type: ignore[operator]
        with pytest.raises(grpc.RpcError) as caught:
            list(call)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        clean(caught.value)
    time.sleep(0.5)
    assert shared.log_path is not None
    tail = shared.log_path.read_text()[logged:]
    assert "Traceback" not in tail
    assert len(tail.strip().splitlines()) <= 3


@pytest.mark.parametrize(
    "method",
    [
        "/premiere.v1.MatchService/GetMatch",
        "/premiere.v1.MatchService/CreateMatch",
        "/premiere.v1.MatchService/GetReplay",
    ],
)
def test_garbage_requests_are_invalid_argument(shared: Arbiter, method: str) -> None:
    call = raw(shared, method, "unary_unary")
    with pytest.raises(grpc.RpcError) as caught:
        call(GARBAGE, timeout=10)  # type: ignore[operator]
    assert caught.value.code() in (
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.UNAUTHENTICATED,
    )
    clean(caught.value)


def test_text_the_database_cannot_store_is_invalid_argument(shared: Arbiter) -> None:
    request = match_pb2.CreateMatchRequest(game="magic-trick")
    request.seats.add(bot="nul\x00name")
    request.seats.add(builtin="random")
    request.seats.add(builtin="random")
    with pytest.raises(grpc.RpcError) as caught:
        shared.matches().CreateMatch(request, timeout=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    clean(caught.value)
    for bad in ("nul\x00", "x" * 10_000):
        with pytest.raises(grpc.RpcError) as caught:
            shared.anonymous().GetMatch(match_pb2.GetMatchRequest(match_id=bad), timeout=10)
        assert caught.value.code() == grpc.StatusCode.NOT_FOUND
        clean(caught.value)
