"""Finding: one registered bot (or anybody) could exhaust the arbiter: an unbounded outbox of
echoed refusals, any number of streams per token, watchers without limit, idle connections
without a handshake timeout. Each bound is tested here with a client that misbehaves."""

from __future__ import annotations

import queue
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from premiere_wire import bot_gateway_pb2, bot_gateway_pb2_grpc, match_pb2
from tests.integration.services import Arbiter, free_port, scratch_database

LIMITS = {
    "PREMIERE_MAX_OUTBOX": "16",
    "PREMIERE_MAX_STREAMS_PER_BOT": "3",
    "PREMIERE_MAX_STREAMS_PER_PEER": "6",
    "PREMIERE_MAX_WATCHERS_PER_MATCH": "3",
    "PREMIERE_MAX_WATCHERS_PER_PEER": "5",
    "PREMIERE_HELLO_TIMEOUT_S": "1",
    "PREMIERE_MAX_MESSAGE_BYTES": "65536",
    "PREMIERE_MAX_REFUSALS_PER_MINUTE": "50",
}


@pytest.fixture(scope="module")
def tight(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arbiter]:
    folder = tmp_path_factory.mktemp("tight")
    with scratch_database() as url:
        server = Arbiter(url, free_port(), free_port(), settings=dict(LIMITS))
        server.start(folder / "arbiter.log")
        try:
            yield server
        finally:
            server.stop()


class RawStream:
    """A bot stream driven by hand: send what you like, read only when you choose."""

    def __init__(self, arbiter: Arbiter, token: str, hello: bool = True) -> None:
        self.channel = grpc.insecure_channel(arbiter.address, options=[("grpc.http2.bdp_probe", 0)])
        self.outbox: queue.Queue[bot_gateway_pb2.ConnectRequest | None] = queue.Queue()
        if hello:
            self.send(bot_gateway_pb2.ConnectRequest(hello=bot_gateway_pb2.Hello(max_matches=1)))
        stub = bot_gateway_pb2_grpc.BotGatewayServiceStub(self.channel)
        self.call = stub.Connect(
            iter(self.outbox.get, None), metadata=(("authorization", f"Bearer {token}"),)
        )

    def send(self, message: bot_gateway_pb2.ConnectRequest) -> None:
        self.outbox.put(message)

    def answer(self, request_id: str) -> None:
        answer = bot_gateway_pb2.DecisionAnswer(request_id=request_id, legal_move_index=0)
        self.send(bot_gateway_pb2.ConnectRequest(answer=answer))

    def first(self) -> bot_gateway_pb2.ConnectResponse:
        return next(self.call)

    def drain(self) -> tuple[int, grpc.StatusCode]:
        """Read to the end: how many messages came, and the final status."""
        count = 0
        try:
            for _ in self.call:
                count += 1
        except grpc.RpcError as error:
            return count, error.code()
        return count, grpc.StatusCode.OK

    def close(self) -> None:
        self.outbox.put(None)
        self.call.cancel()
        self.channel.close()


def rss_kib(arbiter: Arbiter) -> int:
    assert arbiter.process is not None
    for line in Path(f"/proc/{arbiter.process.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_streams_per_token_are_bounded(tight: Arbiter) -> None:
    token = tight.add_bot("many-streams")
    streams = [RawStream(tight, token) for _ in range(3)]
    try:
        for stream in streams:
            assert stream.first().WhichOneof("message") == "welcome"
        extra = RawStream(tight, token)
        count, code = extra.drain()
        assert (count, code) == (0, grpc.StatusCode.RESOURCE_EXHAUSTED)
        assert "at most 3 streams per bot" in extra.call.details()
    finally:
        for stream in streams:
            stream.close()


def test_oversized_messages_are_refused(tight: Arbiter) -> None:
    stream = RawStream(tight, tight.add_bot("oversized"))
    try:
        assert stream.first().WhichOneof("message") == "welcome"
        stream.answer("x" * 1_000_000)
        assert stream.drain()[1] == grpc.StatusCode.RESOURCE_EXHAUSTED
    finally:
        stream.close()
    assert tight.healthy()


def test_a_flood_of_unknown_answers_costs_a_stream_not_memory(tight: Arbiter) -> None:
    """400 answers with 60 kB request ids, never reading: refused answers are rate-limited,
    their echo is truncated, and the stream ends with RESOURCE_EXHAUSTED."""
    stream = RawStream(tight, tight.add_bot("flooder"))
    try:
        assert stream.first().WhichOneof("message") == "welcome"
        before = rss_kib(tight)
        for number in range(400):
            stream.answer(f"{number}:" + "y" * 60_000)
        time.sleep(2)
        grown_mib = (rss_kib(tight) - before) / 1024
        count, code = stream.drain()
        assert code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert count <= 50
        assert "refused answers" in stream.call.details()
        assert grown_mib < 40, f"arbiter grew {grown_mib:.0f} MiB"
    finally:
        stream.close()
    assert tight.healthy()


def test_a_stream_without_a_hello_is_closed(tight: Arbiter) -> None:
    stream = RawStream(tight, tight.add_bot("silent"), hello=False)
    started = time.monotonic()
    try:
        assert stream.drain()[1] == grpc.StatusCode.INVALID_ARGUMENT
        assert time.monotonic() - started < 5
    finally:
        stream.close()


def test_a_connection_that_never_handshakes_is_dropped(tight: Arbiter) -> None:
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", tight.port), timeout=15) as sock:
        while sock.recv(4096):
            pass
    assert time.monotonic() - started < 10


def _pending_match(tight: Arbiter, name: str) -> str:
    """A match waiting for a bot that never connects: live on the arbiter, watchable."""
    tight.add_bot(name)
    request = match_pb2.CreateMatchRequest(game="magic-trick")
    for seat in (name, "builtin:random", "builtin:random"):
        if seat.startswith("builtin:"):
            request.seats.add(builtin=seat.removeprefix("builtin:"))
        else:
            request.seats.add(bot=seat)
    return str(tight.matches().CreateMatch(request, timeout=10).match_id)


def _watch(tight: Arbiter, match_id: str) -> grpc.Future:  # type: ignore[type-arg]
    stub = tight.anonymous()
    return stub.WatchMatch(match_pb2.WatchMatchRequest(match_id=match_id), timeout=30)


def _refused(call: object) -> grpc.StatusCode | None:
    try:
        next(call)  # type: ignore[call-overload]
    except grpc.RpcError as error:
        return error.code()  # type: ignore[no-any-return]
    except StopIteration:
        return grpc.StatusCode.OK
    return None


def test_watchers_are_bounded_per_match_and_per_peer(tight: Arbiter) -> None:
    first, second = _pending_match(tight, "absent-1"), _pending_match(tight, "absent-2")
    calls = []
    try:
        for _ in range(3):
            calls.append(_watch(tight, first))
        time.sleep(1)
        assert all(call.running() for call in calls)
        over = _watch(tight, first)
        assert _refused(over) == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "watchers of one match" in over.details()
        for _ in range(2):
            calls.append(_watch(tight, second))
        time.sleep(1)
        over = _watch(tight, second)
        assert _refused(over) == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "from one address" in over.details()
    finally:
        for call in calls:
            call.cancel()
    time.sleep(0.5)
    again = _watch(tight, first)
    time.sleep(1)
    assert again.running()
    again.cancel()


def test_a_stream_that_does_not_read_is_closed(database_url: str, tmp_path: Path) -> None:
    """With refusals unlimited, 5000 unknown answers on a stream that never reads fill its
    outbox (the client's flow-control window is long full): the stream is closed."""
    limits = LIMITS | {"PREMIERE_MAX_REFUSALS_PER_MINUTE": "1000000"}
    server = Arbiter(database_url, free_port(), free_port(), settings=limits)
    server.start(tmp_path / "arbiter.log")
    stream = RawStream(server, server.add_bot("deaf"))
    try:
        assert stream.first().WhichOneof("message") == "welcome"
        for number in range(5000):
            stream.answer(f"{number}:" + "z" * 100)
        time.sleep(3)
        count, code = stream.drain()
        assert code == grpc.StatusCode.RESOURCE_EXHAUSTED, server.log()
        assert "16 messages unread" in stream.call.details()
        assert count < 5000
    finally:
        stream.close()
        server.stop()
