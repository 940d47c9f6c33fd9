"""Decision traffic in batches (docs/protocol.md, "Batches"), spoken by hand on a real arbiter:
a stream whose Hello sets `batches` gets the requests that are ready together in one
DecisionBatch and may answer several in one AnswerBatch; a stream without it gets exactly the
single messages it always did; a hostile batch is refused answer by answer."""

from __future__ import annotations

from collections import Counter

import grpc

from premiere_wire import bot_gateway_pb2, match_pb2
from tests.integration.services import Arbiter, create_match, wait_ended
from tests.integration.test_protocol import Message, Stream

SEATS = ["author", "author", "author"]
"""Magic Trick opens with a simultaneous step: its three requests are ready at once."""


def _answers(*request_ids: str) -> bot_gateway_pb2.ConnectRequest:
    message = bot_gateway_pb2.ConnectRequest()
    for request_id in request_ids:
        message.answers.answers.add(request_id=request_id, legal_move_index=0)
    return message


def _requests(message: Message) -> list[bot_gateway_pb2.DecisionRequest]:
    kind = message.WhichOneof("message")
    if kind == "decisions":
        return list(message.decisions.requests)
    return [message.decision] if kind == "decision" else []


def _next_requests(stream: Stream) -> list[bot_gateway_pb2.DecisionRequest]:
    """The requests of the next message that carries any (single or batched)."""
    while not (requests := _requests(stream.inbox.get(timeout=30) or Message())):
        pass
    return requests


def _play(stream: Stream, in_batches: bool) -> Counter[str]:
    """Answer every request with its first legal move until the three seats' MatchEnded; the
    kinds of message received. `in_batches`: a DecisionBatch is answered by one AnswerBatch."""
    kinds: Counter[str] = Counter()
    while kinds["match_ended"] < 3:
        message = stream.inbox.get(timeout=60)
        assert message is not None, f"the stream ended: {stream.error}"
        kinds[message.WhichOneof("message")] += 1
        requests = _requests(message)
        if in_batches and len(requests) > 1:
            stream.send(_answers(*(r.request_id for r in requests)))
        else:
            for request in requests:
                stream.answer(request)
    return kinds


def _moves(arbiter: Arbiter, match_id: str) -> list[bytes]:
    match = wait_ended(arbiter.matches(), match_id)
    assert match.status == match_pb2.MATCH_STATUS_FINISHED, match
    replay = arbiter.matches().GetReplay(match_pb2.GetReplayRequest(match_id=match_id))
    return [step.SerializeToString() for step in replay.steps]


def test_a_stream_without_the_flag_gets_single_messages_as_before(arbiter: Arbiter) -> None:
    stream = Stream(arbiter, arbiter.add_bot("author"), max_matches=3)
    try:
        welcome = stream.next("welcome").welcome
        plain = bot_gateway_pb2.Welcome(bot_name=welcome.bot_name, server=welcome.server)
        assert welcome.SerializeToString() == plain.SerializeToString()
        create_match(arbiter.matches(), SEATS, "plain", move_time_ms=5000)
        kinds = _play(stream, in_batches=False)
        assert kinds["decisions"] == 0
        assert kinds["decision"] > 3
        assert kinds["refused"] == 0
    finally:
        stream.close()


def test_requests_ready_together_come_in_one_batch_and_one_batch_answers_them(
    arbiter: Arbiter,
) -> None:
    stream = Stream(arbiter, arbiter.add_bot("author"), max_matches=3, batches=True)
    try:
        assert stream.next("welcome").welcome.batches
        match_id = create_match(arbiter.matches(), SEATS, "batched", move_time_ms=5000)
        first = stream.next("decisions").decisions.requests
        assert [(r.seat, r.decision_number) for r in first] == [(0, 0), (1, 1), (2, 2)]
        stream.send(_answers(*(r.request_id for r in first)))
        after = _next_requests(stream)
        assert after[0].decision_number == 3
        for request in after:
            stream.answer(request)
        kinds = _play(stream, in_batches=True)
        assert kinds["refused"] == 0
        assert wait_ended(arbiter.matches(), match_id).status == match_pb2.MATCH_STATUS_FINISHED
    finally:
        stream.close()


def test_a_match_plays_the_same_moves_in_batches_as_in_single_messages(
    arbiter: Arbiter,
) -> None:
    token = arbiter.add_bot("author")
    played = []
    for batches in (False, True):
        stream = Stream(arbiter, token, max_matches=3, batches=batches)
        try:
            stream.next("welcome")
            match_id = create_match(arbiter.matches(), SEATS, "same-seed", move_time_ms=5000)
            kinds = _play(stream, in_batches=batches)
            assert (kinds["decisions"] > 0) == batches
            played.append(_moves(arbiter, match_id))
        finally:
            stream.close()
    assert played[0] == played[1]


def test_duplicate_and_unknown_answers_in_a_batch_are_refused_one_by_one(
    arbiter: Arbiter,
) -> None:
    stream = Stream(arbiter, arbiter.add_bot("author"), max_matches=3, batches=True)
    try:
        stream.next("welcome")
        create_match(arbiter.matches(), SEATS, "hostile", move_time_ms=5000)
        first = [r.request_id for r in stream.next("decisions").decisions.requests]
        forged = f"{first[0]}0"
        stream.send(_answers(first[0], first[0], forged, first[1], first[2], first[2]))
        refused = [stream.next("refused").refused for _ in range(3)]
        assert [r.request_id for r in refused] == [first[0], forged, first[2]]
        assert all(r.reason.startswith("stale or unknown request") for r in refused)
        assert _next_requests(stream)[0].decision_number == 3
    finally:
        stream.close()


def test_an_empty_batch_is_refused_as_malformed(arbiter: Arbiter) -> None:
    stream = Stream(arbiter, arbiter.add_bot("author"), batches=True)
    try:
        stream.next("welcome")
        stream.send(bot_gateway_pb2.ConnectRequest(answers=bot_gateway_pb2.AnswerBatch()))
        refused = stream.next("refused").refused
        assert refused.reason.startswith("malformed: ")
    finally:
        stream.close()


def test_a_batch_of_forged_answers_loses_the_stream_as_single_ones_would(
    arbiter: Arbiter,
) -> None:
    """More answers than the stream holds requests can only be forged: each is refused until
    the refusal limit closes the stream; the arbiter goes on serving others."""
    token = arbiter.add_bot("author")
    stream = Stream(arbiter, token, batches=True)
    stream.next("welcome")
    stream.send(_answers(*(f"forged:{n}" for n in range(5000))))
    error = stream.ended()
    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    stream.close()
    again = Stream(arbiter, token, max_matches=3, batches=True)
    try:
        again.next("welcome")
        create_match(arbiter.matches(), SEATS, "after-forgery", move_time_ms=5000)
        assert _play(again, in_batches=True)["match_ended"] == 3
    finally:
        again.close()
