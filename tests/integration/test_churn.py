"""The author-facing promises under churn, tried as a hostile author would (issue 41): many
quick steps interleaved with the arbiters' own upkeep (stream renewal, retirement checks), each
order forced by holding a database lock the arbiter needs while a stream is being set up.
Each test names the finding it answers."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc
import psycopg
import pytest

from premiere_wire import author_pb2, author_pb2_grpc, match_pb2
from tests.integration.services import Arbiter
from tests.integration.test_owners import (
    BUILTINS,
    GAME,
    Stream,
    ask,
    gated,
    sql,
    until_streams,
    welcome,
)

RENEW = {"PREMIERE_LEASE_RENEW_S": "0.2", "PREMIERE_RETIRE_CHECK_S": "0.2"}


@contextmanager
def setup_held(arbiter: Arbiter, bot: str) -> Iterator[None]:
    """While inside, a stream of ``bot`` that names a version stays in its set-up: announcing
    the version waits for the bot's row, locked here."""
    with psycopg.connect(arbiter.database_url) as conn:
        conn.execute("SELECT 1 FROM bots WHERE name = %s FOR UPDATE", (bot,))
        yield
        conn.rollback()


def live_rows(arbiter: Arbiter) -> int:
    ((count,),) = sql(
        arbiter, "SELECT count(*) FROM bot_streams WHERE expires_at > clock_timestamp()"
    )
    return int(count)


def ended_within(stream: Stream, seconds: float) -> grpc.StatusCode:
    """How the stream ended; fails if it was still open ``seconds`` from now."""
    ended: list[grpc.StatusCode] = []
    waiter = threading.Thread(target=lambda: ended.append(stream.code(seconds + 30)), daemon=True)
    waiter.start()
    waiter.join(seconds)
    assert ended, f"the stream was still open {seconds} s after the change"
    return ended[0]


def first_within(stream: Stream, seconds: float) -> grpc.StatusCode | str:
    """The stream's first answer within ``seconds``: the status that ended it, "welcome", or
    "nothing" (it waits, being set up)."""
    found: list[grpc.StatusCode | str] = []

    def read() -> None:
        try:
            stream.first()
            found.append("welcome")
        except grpc.RpcError as error:
            found.append(error.code())

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + seconds
    while not found and time.monotonic() < deadline:
        time.sleep(0.05)
    return found[0] if found else "nothing"


def test_renewal_never_frees_the_slot_of_a_stream_being_set_up(
    database_url: str, tmp_path: Path
) -> None:
    """Finding 1: one stream up, two in set-up while the arbiter renews many times; a fourth
    is still refused, and the arbiters never count more than three."""
    arbiter = gated(database_url, tmp_path, PREMIERE_MAX_STREAMS_PER_BOT="3", **RENEW)
    token = arbiter.add_bot("x")
    streams = [Stream(arbiter, token, games=[GAME])]
    try:
        assert welcome(streams[0]) == "x"  # the arbiter renews its streams from now on
        with setup_held(arbiter, "x"):
            streams += [Stream(arbiter, token, version="v1", games=[GAME]) for _ in range(2)]
            until_streams(arbiter, 3)
            time.sleep(1.5)  # several renewals while the three are being set up
            assert live_rows(arbiter) == 3
            fourth = Stream(arbiter, token, version="v1", games=[GAME])
            streams.append(fourth)
            assert first_within(fourth, 10) == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert [welcome(s) for s in streams[1:3]] == ["x", "x"]
        time.sleep(1.0)
        assert live_rows(arbiter) == 3
    finally:
        for stream in streams:
            stream.close()
        arbiter.stop()


@pytest.mark.parametrize("change", ["remove", "disable", "disable-account", "remove-by-author"])
def test_every_stream_of_a_retired_bot_closes_even_one_set_up_during_renewal(
    database_url: str, tmp_path: Path, change: str
) -> None:
    """Finding 2: a stream that was being set up while the arbiter renewed its rows still
    closes, within a second, when its bot is removed (by the operator or its author) or
    disabled, or its account disabled; and it is seated in nothing meanwhile."""
    arbiter = gated(database_url, tmp_path, **RENEW)
    authors = author_pb2_grpc.AuthorServiceStub(grpc.insecure_channel(arbiter.address))
    account = authors.CreateAccount(author_pb2.CreateAccountRequest(name="churner")).token
    key = (("authorization", f"Bearer {account}"),)
    token = authors.CreateBot(author_pb2.CreateBotRequest(name="c1"), metadata=key).token
    streams = [Stream(arbiter, token, games=[GAME])]
    try:
        assert welcome(streams[0]) == "c1"  # the arbiter renews its streams from now on
        with setup_held(arbiter, "c1"):
            streams.append(Stream(arbiter, token, version="v1", games=[GAME]))
            until_streams(arbiter, 2)
            time.sleep(1.0)  # renewals while it is being set up
        assert welcome(streams[1]) == "c1"
        if change == "remove":
            arbiter.cli("bots", "remove", "c1")
        elif change == "remove-by-author":
            authors.RemoveBot(author_pb2.RemoveBotRequest(name="c1"), metadata=key)
        elif change == "disable":
            arbiter.cli("bots", "disable", "c1")
        else:
            arbiter.cli("accounts", "disable", "churner")
        codes = [ended_within(s, 1.5) for s in streams]
        assert codes == [grpc.StatusCode.PERMISSION_DENIED] * 2
        until_streams(arbiter, 0, timeout=5)
    finally:
        for stream in streams:
            stream.close()
        arbiter.stop()


def test_rotating_a_token_ends_the_old_tokens_streams(database_url: str, tmp_path: Path) -> None:
    """Finding 7: after RotateBotToken, the old token's streams end within a second, and the
    new token connects."""
    arbiter = gated(database_url, tmp_path, **RENEW)
    authors = author_pb2_grpc.AuthorServiceStub(grpc.insecure_channel(arbiter.address))
    account = authors.CreateAccount(author_pb2.CreateAccountRequest(name="rotor")).token
    key = (("authorization", f"Bearer {account}"),)
    old = authors.CreateBot(author_pb2.CreateBotRequest(name="r1"), metadata=key).token
    streams = [Stream(arbiter, old, games=[GAME]), Stream(arbiter, old, version="v2", games=[GAME])]
    try:
        assert [welcome(s) for s in streams] == ["r1", "r1"]
        new = authors.RotateBotToken(
            author_pb2.RotateBotTokenRequest(name="r1"), metadata=key
        ).token
        assert [ended_within(s, 1.5) for s in streams] == [grpc.StatusCode.PERMISSION_DENIED] * 2
        assert "rotated" in streams[0].details
        streams.append(Stream(arbiter, new, games=[GAME]))
        assert welcome(streams[-1]) == "r1"
        time.sleep(1.0)  # the new token's stream is not retired
        until_streams(arbiter, 1)
    finally:
        for stream in streams:
            stream.close()
        arbiter.stop()


def rated_create(arbiter: Arbiter, game: str, seats: list[str]) -> str:
    """A rated table as the workers' dispatch sends it once its own gate let it through."""
    request = match_pb2.CreateMatchRequest(game=game, rated=True)
    for seat in seats:
        if seat.startswith("builtin:"):
            request.seats.add(builtin=seat.removeprefix("builtin:"))
        else:
            request.seats.add(bot=seat)
    return str(arbiter.matches().CreateMatch(request, timeout=10).match_id)


def rated_as(arbiter: Arbiter, match_id: str) -> tuple[object, ...]:
    (row,) = sql(arbiter, "SELECT rated, unrated_reason FROM matches WHERE id = %s", match_id)
    return row


@pytest.fixture
def arena(database_url: str, tmp_path: Path) -> Iterator[Arbiter]:
    arbiter = gated(database_url, tmp_path, PREMIERE_MAX_OPEN_CHALLENGES="20", **RENEW)
    try:
        yield arbiter
    finally:
        arbiter.stop()


def test_neither_a_rollback_nor_a_removal_ends_a_probation(arena: Arbiter) -> None:
    """Finding 3: the version on probation is rolled back from, then removed; the lineage is
    still on probation, for a challenge and for a table the arbiter is asked to seat rated."""
    authors = author_pb2_grpc.AuthorServiceStub(grpc.insecure_channel(arena.address))
    account = authors.CreateAccount(author_pb2.CreateAccountRequest(name="prober")).token
    key = (("authorization", f"Bearer {account}"),)
    token = authors.CreateBot(author_pb2.CreateBotRequest(name="p"), metadata=key).token
    streams = [Stream(arena, token, version="v1", games=[GAME])]
    try:
        assert welcome(streams[0]) == "p"
        streams.append(Stream(arena, token, version="v2", games=[GAME]))
        assert welcome(streams[1]) == "p@v2"
        arena.admit("p", [GAME])
        arena.admit("p@v2", [GAME], "probation")
        reply = ask(arena, token, BUILTINS)
        assert (reply.rated, reply.unrated_reason) == (False, "probation")

        authors.ActivateVersion(
            author_pb2.ActivateVersionRequest(name="p", version="v1"), metadata=key
        )
        rolled_back = ask(arena, token, BUILTINS)
        assert (rolled_back.rated, rolled_back.unrated_reason) == (False, "probation")
        seated = rated_create(arena, GAME, ["p", *BUILTINS])
        assert rated_as(arena, seated) == (False, "probation")

        authors.RemoveBot(author_pb2.RemoveBotRequest(name="p@v2"), metadata=key)
        removed = ask(arena, token, BUILTINS)
        assert (removed.rated, removed.unrated_reason) == (False, "probation")
        assert rated_as(arena, rated_create(arena, GAME, ["p", *BUILTINS])) == (
            False,
            "probation",
        )
    finally:
        for stream in streams:
            stream.close()


def test_a_table_is_rated_only_in_a_game_its_lineage_validated_whatever_it_claims(
    arena: Arbiter,
) -> None:
    """Finding 5: validated in Motion Pictures only, the bot reconnects claiming Movie Fight;
    a Movie Fight table sent to the arbiter as rated (the dispatch judged it a moment before)
    is seated unrated, for the game of that table; a Motion Pictures one stays rated."""
    token = arena.add_bot("v")
    first = Stream(arena, token, games=["motion-pictures"])
    streams = [first]
    try:
        assert welcome(first) == "v"
        arena.admit("v", ["motion-pictures"])
        streams.append(Stream(arena, token, games=["movie-fight"]))
        assert welcome(streams[-1]) == "v"
        fight = rated_create(arena, "movie-fight", ["v", "builtin:random"])
        assert rated_as(arena, fight) == (False, "unvalidated")
        streams.append(Stream(arena, token, games=["motion-pictures"]))
        assert welcome(streams[-1]) == "v"
        pictures = rated_create(arena, "motion-pictures", ["v", "builtin:random"])
        assert rated_as(arena, pictures) == (True, None)
    finally:
        for stream in streams:
            stream.close()


def test_a_bot_disabled_or_removed_is_seated_in_nothing_even_by_the_operator(
    arena: Arbiter,
) -> None:
    """Finding 2 (seating): the arbiter checks standing at the moment it seats, so a disabled
    bot's table is refused whoever asks for it, rated or not."""
    token = arena.add_bot("d")
    stream = Stream(arena, token, games=[GAME])
    try:
        assert welcome(stream) == "d"
        arena.admit("d", [GAME])
        arena.cli("bots", "disable", "d")
        for rated in (True, False):
            request = match_pb2.CreateMatchRequest(game=GAME, rated=rated)
            request.seats.add(bot="d")
            request.seats.add(builtin="random")
            request.seats.add(builtin="first")
            with pytest.raises(grpc.RpcError) as caught:
                arena.matches().CreateMatch(request, timeout=10)
            assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert "d is disabled" in str(caught.value.details())
    finally:
        stream.close()
