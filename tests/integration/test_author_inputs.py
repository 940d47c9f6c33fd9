"""Smaller weaknesses an author or a client could use (issue 41, findings 6, 9 and 10), tried
against a real arbiter over gRPC."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from google.protobuf.timestamp_pb2 import Timestamp

from premiere_wire import author_pb2, author_pb2_grpc, match_pb2
from tests.integration.services import Arbiter
from tests.integration.test_owners import gated


@pytest.fixture
def arena(database_url: str, tmp_path: Path) -> Iterator[Arbiter]:
    arbiter = gated(database_url, tmp_path, PREMIERE_HOSTED="true", PREMIERE_AUTHOR_EVENTS="on")
    try:
        yield arbiter
    finally:
        arbiter.stop()


def _authors(arbiter: Arbiter) -> author_pb2_grpc.AuthorServiceStub:
    return author_pb2_grpc.AuthorServiceStub(grpc.insecure_channel(arbiter.address))


def _code(call: object, request: object, **kwargs: object) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as caught:
        call(request, **kwargs)  # type: ignore[operator]
    return caught.value.code(), str(caught.value.details())


def test_names_are_unique_ignoring_case_and_compatibility_forms(arena: Arbiter) -> None:
    """Finding 6: `Operator` beside `operator`, `Alice` beside `alice`, a fullwidth name beside
    its plain one, a bot `Bot1` beside `bot1`, and look-alikes of reserved names."""
    authors = _authors(arena)
    for name in ("Operator", "OPERATOR", "0perator", "operat0r", "opera.tor", "Builtin"):
        code, details = _code(authors.CreateAccount, author_pb2.CreateAccountRequest(name=name))
        assert code == grpc.StatusCode.INVALID_ARGUMENT, name
        assert "reserved" in details
    token = authors.CreateAccount(author_pb2.CreateAccountRequest(name="alice")).token
    for name in ("Alice", "ALICE"):
        code, details = _code(authors.CreateAccount, author_pb2.CreateAccountRequest(name=name))
        assert code == grpc.StatusCode.ALREADY_EXISTS, name
    key = (("authorization", f"Bearer {token}"),)
    authors.CreateBot(author_pb2.CreateBotRequest(name="bot1"), metadata=key)
    code, _ = _code(authors.CreateBot, author_pb2.CreateBotRequest(name="BOT1"), metadata=key)
    assert code == grpc.StatusCode.ALREADY_EXISTS
    code, _ = _code(authors.CreateBot, author_pb2.CreateBotRequest(name="0perator"), metadata=key)
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    arena.add_bot("plain")
    with pytest.raises(Exception) as operator_bot:
        arena.add_bot("PLAIN")
    assert "exists" in str(getattr(operator_bot.value, "stderr", operator_bot.value))
    assert [b.name for b in authors.ListBots(author_pb2.ListBotsRequest(), metadata=key).bots] == [
        "bot1"
    ]


def _request(seats: list[str], seed: str = "", **extra: object) -> match_pb2.CreateMatchRequest:
    request = match_pb2.CreateMatchRequest(
        game="magic-trick", idempotency_key="table-7", seed=seed, **extra
    )
    for seat in seats:
        request.seats.add(builtin=seat)
    return request


def test_an_idempotency_key_reused_for_another_request_is_refused(arena: Arbiter) -> None:
    """Finding 9: the same key and the same request give the same match; the same key with
    other seats, another seed or another time control is refused, naming the conflict."""
    stub = arena.matches()
    first = stub.CreateMatch(_request(["random", "first", "last"], "ab" * 16)).match_id
    assert stub.CreateMatch(_request(["random", "first", "last"], "ab" * 16)).match_id == first
    others = [
        _request(["random", "first", "heuristic"], "ab" * 16),
        _request(["random", "first", "last"], "cd" * 16),
        _request(
            ["random", "first", "last"],
            "ab" * 16,
            time_control=match_pb2.TimeControl(move_time_ms=3000),
        ),
    ]
    for request in others:
        code, details = _code(stub.CreateMatch, request)
        assert code == grpc.StatusCode.INVALID_ARGUMENT
        assert "table-7" in details and "different request" in details and first in details
    batch = stub.CreateMatches(match_pb2.CreateMatchesRequest(matches=others[:1]))
    assert "different request" in batch.results[0].refused


def _upload(bot: str, version: str) -> Iterator[author_pb2.UploadBundleRequest]:
    """An upload's stream: its header, then a chunk (the bytes are no bundle: they are never
    read when the header is refused)."""
    header = author_pb2.UploadBundleHeader(bot=bot, version=version, size=3)
    yield author_pb2.UploadBundleRequest(header=header)
    yield author_pb2.UploadBundleRequest(chunk=b"abc")


def test_a_nul_byte_in_an_author_field_is_a_clean_invalid_argument(arena: Arbiter) -> None:
    """Finding 10: INVALID_ARGUMENT naming the field, and no ERROR line in the arbiter's log."""
    authors = _authors(arena)
    code, details = _code(authors.CreateAccount, author_pb2.CreateAccountRequest(name="a\x00b"))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith("name ")
    code, details = _code(
        authors.CreateAccount, author_pb2.CreateAccountRequest(name="ab", invite="x\x00")
    )
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith("invite ")
    token = authors.CreateAccount(author_pb2.CreateAccountRequest(name="nul")).token
    key = (("authorization", f"Bearer {token}"),)
    authors.CreateBot(author_pb2.CreateBotRequest(name="b"), metadata=key)
    calls = [
        (authors.CreateBot, author_pb2.CreateBotRequest(name="b\x00"), "name"),
        (authors.RotateBotToken, author_pb2.RotateBotTokenRequest(name="b\x00"), "name"),
        (authors.RemoveBot, author_pb2.RemoveBotRequest(name="\x00"), "name"),
        (authors.ListVersions, author_pb2.ListVersionsRequest(name="b\x00"), "name"),
        (authors.GetBotEvents, author_pb2.GetBotEventsRequest(name="b\x00"), "name"),
        (
            authors.ActivateVersion,
            author_pb2.ActivateVersionRequest(name="b\x00", version="v1"),
            "name",
        ),
        (
            authors.ActivateVersion,
            author_pb2.ActivateVersionRequest(name="b", version="v\x00"),
            "version",
        ),
        (authors.EnterEvent, author_pb2.EnterEventRequest(event="c\x00", bot="b"), "event"),
        (authors.EnterEvent, author_pb2.EnterEventRequest(event="c", bot="b\x00"), "bot"),
        (authors.WithdrawEvent, author_pb2.WithdrawEventRequest(event="c\x00", bot="b"), "event"),
        (authors.CreateEvent, author_pb2.CreateEventRequest(name="c\x00"), "name"),
        (authors.GetBotLogs, author_pb2.GetBotLogsRequest(name="b", match_id="\x00"), "match_id"),
        (
            authors.GetBotNotes,
            author_pb2.GetBotNotesRequest(name="b", match_id="m\x00"),
            "match_id",
        ),
        (authors.UploadBundle, _upload("b\x00", ""), "bot"),
        (authors.UploadBundle, _upload("b", "v\x00"), "version"),
    ]
    for call, request, field in calls:
        code, details = _code(call, request, metadata=key)
        assert code == grpc.StatusCode.INVALID_ARGUMENT, (request, details)
        assert details.startswith(f"{field} "), details
    log = arena.log()
    assert " ERROR " not in log and "Traceback" not in log


def test_an_event_time_past_the_calendar_is_a_clean_invalid_argument(arena: Arbiter) -> None:
    """A timestamp outside the years 1 to 9999 (a datetime cannot hold it) is refused, naming
    the fields, not an INTERNAL error."""
    authors = _authors(arena)
    token = authors.CreateAccount(author_pb2.CreateAccountRequest(name="far")).token
    key = (("authorization", f"Bearer {token}"),)
    far = Timestamp(seconds=10**12)
    for request in (
        author_pb2.CreateEventRequest(name="far", game="magic-trick", opens_at=far),
        author_pb2.CreateEventRequest(name="far", game="magic-trick", starts_at=far),
    ):
        code, details = _code(authors.CreateEvent, request, metadata=key)
        assert code == grpc.StatusCode.INVALID_ARGUMENT, details
        assert "opens_at and starts_at" in details
    log = arena.log()
    assert " ERROR " not in log and "Traceback" not in log
