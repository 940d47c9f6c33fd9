"""What a bot declares in its Hello, through the real arbiter: a version it names, the table
sizes and the kinds of match it accepts. A match or league that breaks them is refused with a
clear error; a bad Hello ends the stream with INVALID_ARGUMENT and changes nothing."""

from __future__ import annotations

import queue
import subprocess
import threading
import time
from collections.abc import Iterator

import grpc
import pytest

from premiere_wire import bot_gateway_pb2, bot_gateway_pb2_grpc, match_pb2
from tests.integration.services import BIN, Arbiter
from tests.integration.test_leagues import query


class Stream:
    """One bot stream held open by hand: a Hello, then silence."""

    def __init__(self, arbiter: Arbiter, token: str, hello: bot_gateway_pb2.Hello) -> None:
        self.outbox: queue.Queue[bot_gateway_pb2.ConnectRequest | None] = queue.Queue()
        self.outbox.put(bot_gateway_pb2.ConnectRequest(hello=hello))
        self.channel = arbiter.channel()
        self.replies: queue.Queue[object] = queue.Queue()

        def requests() -> Iterator[bot_gateway_pb2.ConnectRequest]:
            while (item := self.outbox.get()) is not None:
                yield item

        stub = bot_gateway_pb2_grpc.BotGatewayServiceStub(self.channel)
        stream = stub.Connect(requests(), metadata=(("authorization", f"Bearer {token}"),))

        def read() -> None:
            try:
                for reply in stream:
                    self.replies.put(reply)
            except grpc.RpcError as error:
                self.replies.put(error)

        threading.Thread(target=read, daemon=True).start()

    def first(self) -> object:
        return self.replies.get(timeout=15)

    def close(self) -> None:
        self.outbox.put(None)
        self.channel.close()


def _refused(arbiter: Arbiter, seats: list[str], rated: bool) -> str:
    request = match_pb2.CreateMatchRequest(game="magic-trick", rated=rated)
    for seat in seats:
        if seat.startswith("builtin:"):
            request.seats.add(builtin=seat.removeprefix("builtin:"))
        else:
            request.seats.add(bot=seat)
    with pytest.raises(grpc.RpcError) as refused:
        arbiter.matches().CreateMatch(request, timeout=10)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    return str(refused.value.details())


def test_declared_versions_sizes_and_kinds_are_kept(arbiter: Arbiter) -> None:
    token = arbiter.add_bot("picky")
    for bad, says in (
        (bot_gateway_pb2.Hello(max_matches=1, player_counts=[9]), "player_counts"),
        (bot_gateway_pb2.Hello(max_matches=1, accepts="sometimes"), "accepts"),
        (bot_gateway_pb2.Hello(max_matches=1, version="../etc"), "a version is"),
    ):
        stream = Stream(arbiter, token, bad)
        error = stream.first()
        stream.close()
        assert isinstance(error, grpc.RpcError), error
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and says in str(error.details())
    assert query(arbiter, "SELECT name FROM bots WHERE name LIKE 'picky%%'") == [{"name": "picky"}]

    hello = bot_gateway_pb2.Hello(
        games=["magic-trick"], player_counts=[3], accepts="casual", version="7", max_matches=2
    )
    stream = Stream(arbiter, token, hello)
    try:
        welcome = stream.first()
        assert isinstance(welcome, bot_gateway_pb2.ConnectResponse)
        assert welcome.welcome.bot_name == "picky"  # the first version keeps the bot's name
        (row,) = query(
            arbiter,
            "SELECT version, player_counts, accepts, max_matches FROM bots WHERE name = 'picky'",
        )
        assert row == {"version": "7", "player_counts": [3], "accepts": "casual", "max_matches": 2}

        four = ["picky", "builtin:random", "builtin:first", "builtin:last"]
        assert "accept no 4-seat casual match" in _refused(arbiter, four, rated=False)
        three = ["picky", "builtin:random", "builtin:first"]
        assert "accept no 3-seat rated match" in _refused(arbiter, three, rated=True)
        casual = match_pb2.CreateMatchRequest(game="magic-trick", rated=False)
        for seat in three:
            if seat == "picky":
                casual.seats.add(bot="picky@7")  # NAME@VERSION names the first version too
            else:
                casual.seats.add(builtin=seat.removeprefix("builtin:"))
        assert arbiter.matches().CreateMatch(casual, timeout=10).match_id

        league = subprocess.run(
            [
                str(BIN / "premiere"),
                "league",
                "create",
                "--game",
                "magic-trick",
                "--format",
                "round-robin",
                "--players",
                "3",
                "--bots",
                "picky,builtin:random,builtin:first",
            ],
            env=arbiter.env(),
            capture_output=True,
            text=True,
        )
        assert league.returncode != 0
        assert "accepts only casual matches, not rated" in league.stderr
        assert not query(arbiter, "SELECT 1 FROM leagues")

        # A bot that accepts rated matches only still plays the gate's validation matches.
        strict = Stream(
            arbiter,
            arbiter.add_bot("strict"),
            bot_gateway_pb2.Hello(max_matches=1, accepts="rated"),
        )
        try:
            assert isinstance(strict.first(), bot_gateway_pb2.ConnectResponse)
            pair = ["strict", "builtin:random", "builtin:first"]
            assert "accept no 3-seat casual match" in _refused(arbiter, pair, rated=False)
            gate = match_pb2.CreateMatchRequest(game="magic-trick", rated=False, validation=True)
            gate.seats.add(bot="strict")
            gate.seats.add(builtin="random")
            gate.seats.add(builtin="first")
            assert arbiter.matches().CreateMatch(gate, timeout=10).match_id
        finally:
            strict.close()
    finally:
        stream.close()
        time.sleep(0.1)
