"""One test per promise of docs/protocol.md about the bot stream that no other test pins: each
speaks the wire by hand, as a bot author with only `proto/` would."""

from __future__ import annotations

import queue
import threading
import time
from pathlib import Path

import grpc
import pytest

from premiere_wire import bot_gateway_pb2, bot_gateway_pb2_grpc, match_pb2
from tests.integration.services import Arbiter, create_match, wait_ended

SEATS = ["author", "builtin:random", "builtin:heuristic"]
Message = bot_gateway_pb2.ConnectResponse


class Stream:
    """One Connect stream: what the arbiter sends lands in `inbox`; `error` holds how it ended."""

    def __init__(self, arbiter: Arbiter, token: str, max_matches: int = 1) -> None:
        self.outbox: queue.Queue[bot_gateway_pb2.ConnectRequest | None] = queue.Queue()
        self.inbox: queue.Queue[Message | None] = queue.Queue()
        self.error: grpc.RpcError | None = None
        self.send(
            bot_gateway_pb2.ConnectRequest(hello=bot_gateway_pb2.Hello(max_matches=max_matches))
        )
        self.channel = arbiter.channel()
        stub = bot_gateway_pb2_grpc.BotGatewayServiceStub(self.channel)
        self.call = stub.Connect(
            iter(self.outbox.get, None), metadata=(("authorization", f"Bearer {token}"),)
        )
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        try:
            for message in self.call:
                self.inbox.put(message)
        except grpc.RpcError as error:
            self.error = error
        self.inbox.put(None)

    def send(self, message: bot_gateway_pb2.ConnectRequest) -> None:
        self.outbox.put(message)

    def answer(self, request: bot_gateway_pb2.DecisionRequest, index: int = 0) -> None:
        answer = bot_gateway_pb2.DecisionAnswer(request_id=request.request_id)
        answer.legal_move_index = index
        self.send(bot_gateway_pb2.ConnectRequest(answer=answer))

    def next(self, kind: str, timeout: float = 30) -> Message:
        """The next message of `kind`, skipping others; fails if the stream ends first."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.inbox.get(timeout=max(0.01, deadline - time.monotonic()))
            if message is None:
                pytest.fail(f"the stream ended while waiting for {kind}: {self.error}")
            if message.WhichOneof("message") == kind:
                return message

    def ended(self, timeout: float = 30) -> grpc.RpcError:
        self.reader.join(timeout)
        assert self.error is not None, "the stream did not end with an error status"
        return self.error

    def close(self) -> None:
        self.outbox.put(None)
        self.call.cancel()
        self.reader.join(10)
        self.channel.close()


def test_max_matches_zero_is_refused(arbiter: Arbiter) -> None:
    stream = Stream(arbiter, arbiter.add_bot("author"), max_matches=0)
    error = stream.ended()
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "max_matches must be at least 1" in str(error.details())


def test_a_second_hello_ends_the_stream_with_a_clear_error(arbiter: Arbiter) -> None:
    stream = Stream(arbiter, arbiter.add_bot("author"))
    stream.next("welcome")
    stream.send(bot_gateway_pb2.ConnectRequest(hello=bot_gateway_pb2.Hello(max_matches=2)))
    error = stream.ended()
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "one Hello" in str(error.details())


def test_round_trips_below_a_millisecond_do_not_read_as_none(arbiter: Arbiter) -> None:
    stream = Stream(arbiter, arbiter.add_bot("author"))
    try:
        stream.next("welcome")
        create_match(arbiter.matches(), SEATS, "round-trip", move_time_ms=5000)
        first = stream.next("decision").decision
        assert (first.last_round_trip_ms, first.last_round_trip_us) == (0, 0)
        stream.answer(first)
        second = stream.next("decision").decision
        assert second.last_round_trip_us > 0
        assert second.last_round_trip_ms == -(-second.last_round_trip_us // 1000) >= 1
    finally:
        stream.close()


def test_request_ids_are_unique_across_arbiter_restarts(arbiter: Arbiter, tmp_path: Path) -> None:
    token = arbiter.add_bot("author")
    stream = Stream(arbiter, token)
    stream.next("welcome")
    create_match(arbiter.matches(), SEATS, "restart-ids", move_time_ms=5000)
    seen = set()
    for _ in range(3):
        request = stream.next("decision").decision
        seen.add(request.request_id)
        stream.answer(request)
    pending = stream.next("decision").decision
    seen.add(pending.request_id)
    arbiter.kill()
    stream.close()
    arbiter.start(tmp_path / "arbiter-2.log")
    again = Stream(arbiter, token)
    try:
        started = again.next("match_started").match_started
        assert started.resumed
        resent = again.next("decision").decision
        assert resent.decision_number == pending.decision_number
        assert resent.request_id not in seen
        record = arbiter.matches().GetMatch(match_pb2.GetMatchRequest(match_id=started.match_id))
        restarts = [f for f in record.match.faults if f.kind == "restart"]
        assert [(f.seat, f.blame) for f in restarts] == [(-1, "infrastructure")]
    finally:
        again.close()


def test_a_reconnecting_stream_is_told_again_which_matches_run(arbiter: Arbiter) -> None:
    token = arbiter.add_bot("author")
    first = Stream(arbiter, token)
    first.next("welcome")
    match_id = create_match(arbiter.matches(), SEATS, "resent", move_time_ms=5000)
    original = first.next("match_started").match_started
    assert not original.resent
    stream_request = first.next("decision").decision
    first.answer(stream_request)
    first.next("decision")
    first.close()
    second = Stream(arbiter, token)
    try:
        second.next("welcome")
        again = second.next("match_started").match_started
        assert again.match_id == match_id and again.resent and not again.resumed
        assert list(again.seat_names) == list(original.seat_names)
        assert again.seat == original.seat
    finally:
        second.close()


def test_a_request_with_no_stream_open_waits_for_one_until_its_deadline(arbiter: Arbiter) -> None:
    token = arbiter.add_bot("author")
    first = Stream(arbiter, token)
    first.next("welcome")
    match_id = create_match(arbiter.matches(), SEATS, "waits", move_time_ms=3000, time_bank_ms=1000)
    first.answer(first.next("decision").decision)
    dropped = first.next("decision").decision  # open when the stream drops: a disconnect fault
    first.close()
    time.sleep(1.0)  # the next request is asked with no stream open: it waits, clock running
    second = Stream(arbiter, token)
    try:
        waited = second.next("decision").decision
        assert waited.decision_number > dropped.decision_number
        assert waited.deadline_unix_ms - time.time() * 1000 < 4000 - 900
        second.answer(waited)
        match = arbiter.matches().GetMatch(match_pb2.GetMatchRequest(match_id=match_id)).match
        seat_faults = [(f.decision_number, f.kind) for f in match.faults if f.seat == 0]
        assert seat_faults == [(dropped.decision_number, "disconnect")]
    finally:
        second.close()


def test_a_match_that_ends_while_no_stream_is_open_is_reported_on_the_next(
    arbiter: Arbiter,
) -> None:
    token = arbiter.add_bot("author")
    first = Stream(arbiter, token)
    first.next("welcome")
    match_id = create_match(
        arbiter.matches(), SEATS, "ended", move_time_ms=50, time_bank_ms=1, strike_limit=1
    )
    first.next("decision")
    first.close()  # every later request times out: two strikes forfeit, the match runs out
    match = wait_ended(arbiter.matches(), match_id, timeout=60)
    assert match.status == match_pb2.MATCH_STATUS_FINISHED
    second = Stream(arbiter, token)
    try:
        second.next("welcome")
        ended = second.next("match_ended").match_ended
        assert ended.match_id == match_id and ended.seat == 0
        assert list(ended.outcome.forfeited) == [0]
    finally:
        second.close()
