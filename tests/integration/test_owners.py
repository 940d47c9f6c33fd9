"""Owners and the one gate, tried as a hostile bot author would, against real arbiters: a
challenge passes the gate (standing, per-game validation, one seat per owner), the caps count
every version and every arbiter, removal retires every version and ends its streams, and a
disabled account is out of play at once. Each test names the review finding it answers
(issue #24)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import psycopg
import pytest

from premiere_bot.challenge import ChallengeRefused, challenge
from premiere_wire import author_pb2, author_pb2_grpc, bot_gateway_pb2, bot_gateway_pb2_grpc
from tests.integration.services import Arbiter, create_match, free_port, redis_url, start_bot
from tests.integration.test_challenges import wait_connected

OPEN = "tests.sdk.bots:ChallengeableBot"
GAME = "magic-trick"
BUILTINS = ["builtin:random", "builtin:heuristic"]


def gated(database_url: str, tmp_path: Path, name: str = "arbiter", **extra: str) -> Arbiter:
    settings = {"PREMIERE_CHALLENGES": "rated", "PREMIERE_SIGNUP": "open", **extra}
    arbiter = Arbiter(database_url, free_port(), free_port(), settings=settings)
    arbiter.start(tmp_path / f"{name}.log")
    return arbiter


@pytest.fixture
def arena(database_url: str, tmp_path: Path) -> Iterator[Arbiter]:
    arbiter = gated(
        database_url, tmp_path, PREMIERE_LEASE_RENEW_S="0.5", PREMIERE_MAX_OPEN_CHALLENGES="10"
    )
    try:
        yield arbiter
    finally:
        arbiter.stop()


def ask(
    arbiter: Arbiter, token: str, opponents: list[str], rated: bool = True, game: str = GAME
) -> bot_gateway_pb2.ChallengeResponse:
    return asyncio.run(challenge(arbiter.address, token, game, opponents, rated=rated))


def refused(arbiter: Arbiter, token: str, opponents: list[str], rated: bool = True) -> str:
    with pytest.raises(ChallengeRefused) as caught:
        ask(arbiter, token, opponents, rated)
    return str(caught.value)


def sql(arbiter: Arbiter, statement: str, *params: object) -> list[tuple[object, ...]]:
    with psycopg.connect(arbiter.database_url, autocommit=True) as conn:
        cursor = conn.execute(statement, params)
        return cursor.fetchall() if cursor.description else []


class Stream:
    """A Connect stream held open by hand, with the Hello a client chooses."""

    def __init__(self, arbiter: Arbiter, token: str, **hello: object) -> None:
        self.done = False
        self.details = ""
        self.channel = grpc.insecure_channel(arbiter.address)
        self.queue: list[bot_gateway_pb2.ConnectRequest] = [
            bot_gateway_pb2.ConnectRequest(hello=bot_gateway_pb2.Hello(max_matches=1, **hello))
        ]
        self.calls = bot_gateway_pb2_grpc.BotGatewayServiceStub(self.channel).Connect(
            self._requests(), metadata=(("authorization", f"Bearer {token}"),)
        )

    def _requests(self) -> Iterator[bot_gateway_pb2.ConnectRequest]:
        while not self.done:
            if self.queue:
                yield self.queue.pop(0)
            time.sleep(0.05)

    def first(self) -> bot_gateway_pb2.ConnectResponse:
        """The Welcome, or the RpcError that ended the stream."""
        return next(iter(self.calls))

    def code(self, timeout: float = 20) -> grpc.StatusCode:
        """How the stream ended (waits for it)."""
        deadline = time.monotonic() + timeout
        try:
            for _ in self.calls:
                assert time.monotonic() < deadline
        except grpc.RpcError as error:
            self.details = str(error.details())
            return error.code()
        return grpc.StatusCode.OK

    def close(self) -> None:
        self.done = True
        self.calls.cancel()
        self.channel.close()


def until_streams(arbiter: Arbiter, count: int, timeout: float = 20) -> None:
    """Wait until the arbiters count ``count`` live streams (a closed one is dropped once the
    server has seen the cancellation)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ((live,),) = sql(
            arbiter, "SELECT count(*) FROM bot_streams WHERE expires_at > clock_timestamp()"
        )
        if live == count:
            return
        time.sleep(0.1)
    raise TimeoutError(f"the arbiters never counted {count} streams")


def welcome(stream: Stream) -> str:
    return stream.first().welcome.bot_name


def versions(arbiter: Arbiter, token: str, *names: str) -> list[Stream]:
    """A stream per version, opened one after another (the first names the root)."""
    streams = []
    for name in names:
        streams.append(Stream(arbiter, token, version=name, games=[GAME]))
        welcome(streams[-1])
    return streams


def test_a_challenge_is_rated_only_for_a_bot_in_rated_play_in_that_game(
    arena: Arbiter, tmp_path: Path
) -> None:
    """Findings 1 and 5: standing and per-game validation decide a rated challenge."""
    token = arena.add_bot("author")
    log = tmp_path / "author.log"
    bot = start_bot(arena, OPEN, token, log)
    try:
        wait_connected(log)
        never = ask(arena, token, BUILTINS)
        assert (never.rated, never.unrated_reason) == (False, "validating")
        for state in ("failed", "probation"):
            arena.admit("author", [], state)
            reply = ask(arena, token, BUILTINS)
            assert (reply.rated, reply.unrated_reason) == (False, state)
            wait_unrated(arena, reply.match_id, state)
        arena.admit("author", ["movie-tricks"])
        elsewhere = ask(arena, token, BUILTINS)
        assert (elsewhere.rated, elsewhere.unrated_reason) == (False, "unvalidated")
        arena.admit("author", [GAME])
        assert ask(arena, token, BUILTINS).rated
        arena.admit("author", [GAME], "disabled")
        assert "author is disabled" in refused(arena, token, BUILTINS)
    finally:
        bot.terminate()
        bot.wait(10)


def wait_unrated(arbiter: Arbiter, match_id: str, reason: str) -> None:
    (row,) = sql(arbiter, "SELECT rated, unrated_reason FROM matches WHERE id = %s", match_id)
    assert row == (False, reason)


def test_a_bot_seats_no_version_of_itself_and_no_bot_of_its_account_at_a_rated_table(
    arena: Arbiter, tmp_path: Path
) -> None:
    """Finding 2, and owners across an author's bots."""
    token = arena.add_bot("x")
    streams = [Stream(arena, token, version="v1", accept_challenges=True, games=[GAME])]
    try:
        assert welcome(streams[0]) == "x"
        streams.append(Stream(arena, token, version="v2", accept_challenges=True, games=[GAME]))
        assert welcome(streams[1]) == "x@v2"
        for name in ("x", "x@v2"):
            arena.admit(name, [GAME])
        assert "one owner" in refused(arena, token, ["x@v1", "builtin:random"])
        assert "challenge other bots" in refused(arena, token, ["x", "builtin:random"])
        casual = ask(arena, token, ["x@v1", "builtin:random"], rated=False)
        assert (casual.rated, casual.unrated_reason) == (False, "casual")

        # Two bots of one author's account are one owner too.
        authors = author_pb2_grpc.AuthorServiceStub(grpc.insecure_channel(arena.address))
        account = authors.CreateAccount(author_pb2.CreateAccountRequest(name="alice")).token
        key = (("authorization", f"Bearer {account}"),)
        tokens = [
            authors.CreateBot(author_pb2.CreateBotRequest(name=n), metadata=key).token
            for n in ("alice-a", "alice-b")
        ]
        for name, bot_token in zip(("alice-a", "alice-b"), tokens, strict=True):
            streams.append(Stream(arena, bot_token, accept_challenges=True, games=[GAME]))
            assert welcome(streams[-1]) == name
            arena.admit(name, [GAME])
        assert "alice holds more than one seat" in refused(
            arena, tokens[0], ["alice-b", "builtin:random"]
        )
        assert ask(arena, tokens[0], ["x", "builtin:random"]).rated
    finally:
        for stream in streams:
            stream.close()


def test_caps_count_every_version_of_a_bot(database_url: str, tmp_path: Path) -> None:
    """Finding 3: a new Hello.version multiplies neither streams nor open challenges."""
    arbiter = gated(
        database_url,
        tmp_path,
        PREMIERE_MAX_STREAMS_PER_BOT="2",
        PREMIERE_MAX_OPEN_CHALLENGES="1",
    )
    token = arbiter.add_bot("x")
    streams = versions(arbiter, token, "v1", "v2")
    try:
        streams.append(Stream(arbiter, token, version="v3", games=[GAME]))
        assert streams[-1].code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        ask(arbiter, token, BUILTINS, rated=False)  # v2's: one open challenge
        streams[0].close()
        until_streams(arbiter, 1)
        streams.append(Stream(arbiter, token, version="v4", games=[GAME]))
        assert welcome(streams[-1]) == "x@v4"
        message = refused(arbiter, token, BUILTINS, rated=False)
        assert "PREMIERE_MAX_OPEN_CHALLENGES" in message and "RESOURCE_EXHAUSTED" in message
    finally:
        for stream in streams:
            stream.close()
        arbiter.stop()


def test_removing_a_bot_retires_every_version_and_ends_its_streams(
    arena: Arbiter, tmp_path: Path
) -> None:
    """Finding 4."""
    token = arena.add_bot("x")
    streams = versions(arena, token, "v1", "v2")
    try:
        arena.cli("bots", "remove", "x")
        assert [s.code() for s in streams] == [grpc.StatusCode.PERMISSION_DENIED] * 2
        with pytest.raises(grpc.RpcError) as caught:
            create_match(arena.matches(), ["x@v2", "builtin:random", "builtin:first"], "")
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "no registered bots" in str(caught.value.details())
        again = Stream(arena, token, games=[GAME])
        assert again.code() == grpc.StatusCode.UNAUTHENTICATED
        again.close()
    finally:
        for stream in streams:
            stream.close()


def test_a_disabled_account_is_out_of_play_at_once(arena: Arbiter) -> None:
    authors = author_pb2_grpc.AuthorServiceStub(grpc.insecure_channel(arena.address))
    account = authors.CreateAccount(author_pb2.CreateAccountRequest(name="mallory")).token
    key = (("authorization", f"Bearer {account}"),)
    bot = authors.CreateBot(author_pb2.CreateBotRequest(name="m1"), metadata=key).token
    stream = Stream(arena, bot, games=[GAME])
    try:
        assert welcome(stream) == "m1"
        arena.cli("accounts", "disable", "mallory", "--reason", "farming")
        assert stream.code() == grpc.StatusCode.PERMISSION_DENIED
        with pytest.raises(grpc.RpcError) as caught:
            authors.ListBots(author_pb2.ListBotsRequest(), metadata=key)
        assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED
        with pytest.raises(grpc.RpcError) as seated:
            create_match(arena.matches(), ["m1", "builtin:random", "builtin:first"], "")
        assert seated.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    finally:
        stream.close()


def test_a_version_with_a_newline_is_a_clean_invalid_argument(arena: Arbiter) -> None:
    """Finding 9: "$" let "v1\\n" through to the database, which answered INTERNAL."""
    token = arena.add_bot("nl")
    stream = Stream(arena, token, version="v1\n", games=[GAME])
    try:
        assert stream.code() == grpc.StatusCode.INVALID_ARGUMENT
    finally:
        stream.close()
    assert " ERROR " not in arena.log() and "Traceback" not in arena.log()


def test_two_arbiters_enforce_one_bots_caps_as_one(database_url: str, tmp_path: Path) -> None:
    """Finding 7: with the relay on, the stream and challenge caps hold across arbiters."""
    settings = {
        "PREMIERE_RELAY": "true",
        "PREMIERE_REDIS_URL": redis_url(),
        "PREMIERE_MAX_STREAMS_PER_BOT": "2",
        "PREMIERE_MAX_OPEN_CHALLENGES": "1",
    }
    first = gated(database_url, tmp_path, "first", **settings)
    second = gated(database_url, tmp_path, "second", **settings)
    token = first.add_bot("x")
    streams = [Stream(a, token, games=[GAME]) for a in (first, second)]
    try:
        assert [welcome(s) for s in streams] == ["x", "x"]
        for arbiter in (first, second):
            extra = Stream(arbiter, token, games=[GAME])
            assert extra.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            extra.close()
        ask(first, token, BUILTINS, rated=False)
        assert "PREMIERE_MAX_OPEN_CHALLENGES" in refused(second, token, BUILTINS, rated=False)
    finally:
        for stream in streams:
            stream.close()
        first.stop()
        second.stop()


def test_each_per_account_cap_is_refused_with_its_setting(
    database_url: str, tmp_path: Path
) -> None:
    """Bots per account, versions per bot a day, rated challenges a day, challenges a minute:
    a client pushing past each gets RESOURCE_EXHAUSTED naming the setting, and nothing is
    created."""
    arbiter = gated(
        database_url,
        tmp_path,
        PREMIERE_MAX_BOTS_PER_ACCOUNT="1",
        PREMIERE_MAX_VERSIONS_PER_DAY="1",
        PREMIERE_MAX_RATED_CHALLENGES_PER_DAY="1",
        PREMIERE_MAX_CHALLENGES_PER_MINUTE="2",
        PREMIERE_MAX_OPEN_CHALLENGES="10",
    )
    authors = author_pb2_grpc.AuthorServiceStub(grpc.insecure_channel(arbiter.address))
    account = authors.CreateAccount(author_pb2.CreateAccountRequest(name="greedy")).token
    key = (("authorization", f"Bearer {account}"),)
    token = authors.CreateBot(author_pb2.CreateBotRequest(name="g1"), metadata=key).token
    with pytest.raises(grpc.RpcError) as more_bots:
        authors.CreateBot(author_pb2.CreateBotRequest(name="g2"), metadata=key)
    assert more_bots.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "PREMIERE_MAX_BOTS_PER_ACCOUNT" in str(more_bots.value.details())
    assert [b.name for b in authors.ListBots(author_pb2.ListBotsRequest(), metadata=key).bots] == [
        "g1"
    ]
    streams = versions(arbiter, token, "v1", "v2")  # the root takes v1; v2 is the day's one
    try:
        third = Stream(arbiter, token, version="v3", games=[GAME])
        assert third.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        third.close()
        assert "PREMIERE_MAX_VERSIONS_PER_DAY" in third.details
        names = authors.ListVersions(author_pb2.ListVersionsRequest(name="g1"), metadata=key)
        assert [v.name for v in names.versions] == ["g1", "g1@v2"]
        arbiter.admit("g1@v2", [GAME])
        assert ask(arbiter, token, BUILTINS).rated
        daily = refused(arbiter, token, BUILTINS)
        assert "PREMIERE_MAX_RATED_CHALLENGES_PER_DAY" in daily
        assert not ask(arbiter, token, BUILTINS, rated=False).rated  # the minute's second
        minute = refused(arbiter, token, BUILTINS, rated=False)
        assert "PREMIERE_MAX_CHALLENGES_PER_MINUTE" in minute
    finally:
        for stream in streams:
            stream.close()
        arbiter.stop()


def test_an_author_reaches_only_its_own_bots(arena: Arbiter) -> None:
    authors = author_pb2_grpc.AuthorServiceStub(grpc.insecure_channel(arena.address))
    keys = {}
    for name in ("amy", "ben"):
        token = authors.CreateAccount(author_pb2.CreateAccountRequest(name=name)).token
        keys[name] = (("authorization", f"Bearer {token}"),)
    authors.CreateBot(author_pb2.CreateBotRequest(name="bens-bot"), metadata=keys["ben"])
    calls = [
        (authors.RotateBotToken, author_pb2.RotateBotTokenRequest(name="bens-bot")),
        (authors.RemoveBot, author_pb2.RemoveBotRequest(name="bens-bot")),
        (authors.ListVersions, author_pb2.ListVersionsRequest(name="bens-bot")),
        (authors.GetBotEvents, author_pb2.GetBotEventsRequest(name="bens-bot")),
        (authors.ActivateVersion, author_pb2.ActivateVersionRequest(name="bens-bot", version="1")),
    ]
    for call, request in calls:
        with pytest.raises(grpc.RpcError) as theirs:
            call(request, metadata=keys["amy"])
        with pytest.raises(grpc.RpcError) as nobodys:
            call(type(request)(name="nobody-has-this"), metadata=keys["amy"])
        assert theirs.value.code() == nobodys.value.code() == grpc.StatusCode.NOT_FOUND
        assert theirs.value.details().replace("bens-bot", "X") == nobodys.value.details().replace(
            "nobody-has-this", "X"
        )
    assert authors.ListBots(author_pb2.ListBotsRequest(), metadata=keys["amy"]).bots == []
    with pytest.raises(grpc.RpcError) as bot_token:
        authors.ListBots(
            author_pb2.ListBotsRequest(),
            metadata=(("authorization", f"Bearer {arena.add_bot('plain')}"),),
        )
    assert bot_token.value.code() == grpc.StatusCode.UNAUTHENTICATED
    taken = authors.CreateAccount  # a name is one account's
    with pytest.raises(grpc.RpcError) as again:
        taken(author_pb2.CreateAccountRequest(name="amy"))
    assert again.value.code() == grpc.StatusCode.ALREADY_EXISTS
