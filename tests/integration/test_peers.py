"""Peer links between arbiter processes: a match whose bots' streams are split across two
arbiters has its forwarded decisions carried on the arbiters' one peer stream (none through
Redis); when that link falls silent mid-match the unanswered asks go through Redis and the
match ends with every decision asked once; and the peer port refuses whoever lacks the token,
a bot's token included."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from premiere_wire import bot_gateway_pb2, bot_gateway_pb2_grpc, match_pb2, peer_pb2, peer_pb2_grpc
from server.metrics import RESENT as RESENT_COUNTER
from server.relay import Relay
from server.router import Connection, Request, Router
from tests.integration.services import (
    Arbiter,
    create_match,
    free_port,
    redis_url,
    scratch_database,
    start_bot,
    wait_ended,
)
from tests.integration.test_arbiters import FAST_LEASES, metric
from tests.integration.test_placement import wait_presence

RECORDING = "tests.partitions.recording_bot:RecordingBot"
SEATS = ["alpha", "beta", "builtin:heuristic"]
GAME = "magic-trick"
RELAYED = "premiere_arbiter_relayed_decisions_total"
PEERED = "premiere_arbiter_peer_decisions_total"
RESENT = "premiere_arbiter_peer_resent_total"
TOKEN = "peer-secret-for-tests"


class Blackhole:
    """A TCP forwarder that can go silent: while cut, it holds every byte both ways (no reset,
    no close), as a partitioned network does."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.cut = threading.Event()
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._server.getsockname()[1])
        self._sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target))
            self._sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                while self.cut.is_set():
                    time.sleep(0.01)
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                end.close()

    def close(self) -> None:
        self._server.close()
        for sock in self._sockets:
            sock.close()


class Pair:
    """Arbiters p1 and p2 with peer links on (p1 dials: its name sorts first), p2's peer port
    reached through a `Blackhole`; bot alpha on p1, beta on p2, so a match created on p1
    (placement off) asks beta through p2."""

    def __init__(self, url: str, tmp: Path) -> None:
        self.url, self.tmp = url, tmp
        settings = FAST_LEASES | {"PREMIERE_REDIS_URL": redis_url(), "PREMIERE_PEER_TOKEN": TOKEN}
        self.peer_port = free_port()
        p2_peer = free_port()
        self.hole = Blackhole(p2_peer)
        self.p1 = Arbiter(
            url,
            free_port(),
            free_port(),
            settings=settings
            | {
                "PREMIERE_ARBITER_NAME": "p1",
                "PREMIERE_PEER_ADDRESS": f"127.0.0.1:{self.peer_port}",
            },
        )
        self.p2 = Arbiter(
            url,
            free_port(),
            free_port(),
            settings=settings
            | {
                "PREMIERE_ARBITER_NAME": "p2",
                "PREMIERE_PEER_ADDRESS": f"127.0.0.1:{p2_peer}",
                "PREMIERE_PEER_ADVERTISE": f"127.0.0.1:{self.hole.port}",
            },
        )
        self.bots: list[object] = []

    def start(self) -> None:
        self.p1.start(self.tmp / "p1.log")
        self.p2.start(self.tmp / "p2.log")
        self.tokens = {name: self.p1.add_bot(name) for name in ("alpha", "beta")}
        for name, home in (("alpha", self.p1), ("beta", self.p2)):
            environment = {
                "PARTITIONS_RECORD": str(self.tmp / f"{name}.jsonl"),
                "PARTITIONS_BOT": name,
                "PARTITIONS_ANSWER_S": "0.15",
            }
            self.bots.append(
                start_bot(
                    home, RECORDING, self.tokens[name], self.tmp / f"{name}.log", (), environment
                )
            )
        wait_presence(self.url, "alpha", {"p1"})
        wait_presence(self.url, "beta", {"p2"})

    def requests(self, match_id: str) -> list[str]:
        """The request ids the bots were asked for this match, as often as each was asked."""
        found = []
        for name in ("alpha", "beta"):
            path = self.tmp / f"{name}.jsonl"
            for line in path.read_text().splitlines() if path.exists() else ():
                record = json.loads(line)
                if record["kind"] == "request" and record["match"] == match_id:
                    found.append(record["request_id"])
        return found

    def stop(self) -> None:
        for bot in self.bots:
            bot.terminate()  # type: ignore[attr-defined]
            bot.wait(10)  # type: ignore[attr-defined]
        self.p1.stop()
        self.p2.stop()
        self.hole.close()


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    with scratch_database() as url:
        made = Pair(url, tmp_path_factory.mktemp("peers"))
        made.start()
        try:
            yield made
        finally:
            made.stop()


def _until(check: object, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def _played_once(pair: Pair, ended: match_pb2.Match) -> None:
    asked = pair.requests(ended.match_id)
    assert ended.status == match_pb2.MATCH_STATUS_FINISHED, (pair.p1.log(), pair.p2.log())
    assert list(ended.faults) == [], "no decision defaulted, timed out or blamed"
    assert asked and len(asked) == len(set(asked)), "each request reached its bot once"


def test_a_split_match_is_carried_on_the_peer_link_not_through_redis(pair: Pair) -> None:
    _until(lambda: _linked(pair), "the peer link")
    match_id = create_match(pair.p1.matches(), SEATS, "peered")
    ended = wait_ended(pair.p1.matches(), match_id)
    _played_once(pair, ended)
    assert metric(pair.p1, PEERED), "beta's decisions went to p2 on the peer link"
    assert metric(pair.p1, RELAYED) == 0 and metric(pair.p2, RELAYED) == 0, "none through Redis"


def test_a_link_cut_mid_match_falls_back_to_redis_and_loses_no_decision(pair: Pair) -> None:
    _until(lambda: _linked(pair), "the peer link")
    before = metric(pair.p1, PEERED) or 0
    match_id = create_match(pair.p1.matches(), SEATS, "cut")
    _until(lambda: (metric(pair.p1, PEERED) or 0) >= before + 3, "decisions on the link")
    pair.hole.cut.set()
    try:
        _until(lambda: (metric(pair.p1, RELAYED) or 0) >= 5, "decisions through Redis")
    finally:
        pair.hole.cut.clear()
    ended = wait_ended(pair.p1.matches(), match_id)
    _played_once(pair, ended)
    assert metric(pair.p1, RESENT), "an ask the silent link held was sent again through Redis"
    _until(lambda: _linked(pair), "the peer link up again after the heal")


def _linked(pair: Pair) -> bool:
    """Whether p2 hears p1 on the link (p2's log says so last)."""
    lines = [
        line
        for line in pair.p2.log().splitlines()
        if "peer link from p1/" in line or "peer link with p1/" in line
    ]
    return bool(lines) and "up" in lines[-1].rsplit(" ", 1)[-1]


@pytest.mark.parametrize("token", ["", "wrong-token", "bot"])
def test_the_peer_port_refuses_anyone_without_the_peer_token(pair: Pair, token: str) -> None:
    sent = pair.tokens["beta"] if token == "bot" else token
    metadata = (("authorization", f"Bearer {sent}"),) if sent else ()
    with grpc.insecure_channel(f"127.0.0.1:{pair.peer_port}") as channel:
        stub = peer_pb2_grpc.PeerServiceStub(channel)
        replies = stub.Link(iter([peer_pb2.PeerBatch(sender="p0")]), metadata=metadata, timeout=5)
        with pytest.raises(grpc.RpcError) as refused:
            next(replies)
        assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
        # Nor is the bots' service on that port.
        gateway = bot_gateway_pb2_grpc.BotGatewayServiceStub(channel)
        hello = bot_gateway_pb2.ConnectRequest(hello=bot_gateway_pb2.Hello())
        with pytest.raises(grpc.RpcError) as absent:
            next(gateway.Connect(iter([hello]), metadata=metadata, timeout=5))
        assert absent.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_an_ask_on_a_link_that_drops_is_answered_through_redis_and_asked_once() -> None:
    """Two relays in this process, linked over a real socket, Redis real: `b` holds bot 7's
    stream. An ask from `a` reaches the bot over the link; the link drops before the bot
    answers; `a` sends the ask again through Redis, and `b`, which has it already, puts it to
    the bot no second time: the bot's one answer comes back through Redis."""

    async def main() -> None:
        namespace = f"test-{uuid.uuid4().hex[:8]}"
        here, there = Router(), Router()
        a = Relay(here, redis_url(), "a", namespace)
        b = Relay(there, redis_url(), "b", namespace)
        for relay in (a, b):
            await relay.use_peers(TOKEN, "127.0.0.1:0")
            await relay.start()
        stream = Connection(bot_id=7, bot_name="seven", games=frozenset({GAME}), max_matches=1)
        await there.add(stream)
        try:
            for _ in range(200):
                if await a.reachable(7) and a.peers and a.peers.link("b"):
                    break
                await asyncio.sleep(0.02)
            assert a.peers is not None and b.peers is not None and a.peers.link("b")
            resent = RESENT_COUNTER._value.get()
            data = bot_gateway_pb2.DecisionRequest(request_id="m:x:0", match_id="m", game=GAME)
            asked = asyncio.create_task(a.ask(7, GAME, Request.of(data), 5))
            sent = await asyncio.wait_for(stream.outbox.get(), 2)
            assert isinstance(sent, Request) and sent.id == "m:x:0"
            b.peers.links["a"].close()
            for _ in range(100):
                if RESENT_COUNTER._value.get() > resent:
                    break
                await asyncio.sleep(0.02)
            assert RESENT_COUNTER._value.get() == resent + 1, "sent again through Redis"
            await asyncio.sleep(0.3)  # time for the ask to reach b through Redis
            there.answer(
                stream, bot_gateway_pb2.DecisionAnswer(request_id="m:x:0", legal_move_index=4)
            )
            assert (await asyncio.wait_for(asked, 3)).legal_move_index == 4
            assert stream.outbox.empty(), "the bot was asked once (nothing refused either)"
        finally:
            await a.close()
            await b.close()

    asyncio.run(main())


def test_a_bot_that_moves_arbiter_is_asked_where_it_is_now_at_once() -> None:
    """`a` sends bot 7's asks to `b`, linked, without reading the presence again for a while;
    when the bot's stream on `b` closes and one opens on `c`, `b` says so on the link at once,
    and `a`'s next ask goes to `c`."""

    async def main() -> None:
        namespace = f"test-{uuid.uuid4().hex[:8]}"
        routers = {name: Router() for name in "abc"}
        relays = {name: Relay(r, redis_url(), name, namespace) for name, r in routers.items()}
        for relay in relays.values():
            await relay.use_peers(TOKEN, "127.0.0.1:0")
            await relay.start()
        a = relays["a"]

        def stream() -> Connection:
            return Connection(bot_id=7, bot_name="seven", games=frozenset({GAME}), max_matches=1)

        async def answered(router: Router, conn: Connection, n: int) -> int:
            data = bot_gateway_pb2.DecisionRequest(request_id=f"m:x:{n}", match_id="m", game=GAME)
            asked = asyncio.create_task(a.ask(7, GAME, Request.of(data), 0.8))
            sent = await asyncio.wait_for(conn.outbox.get(), 0.8)
            assert isinstance(sent, Request)
            router.answer(conn, bot_gateway_pb2.DecisionAnswer(request_id=sent.id))
            await asked
            return n

        try:
            on_b = stream()
            await routers["b"].add(on_b)
            for _ in range(200):
                linked = a.peers and a.peers.link("b") and a.peers.link("c")
                if linked and await a.reachable(7):
                    break
                await asyncio.sleep(0.02)
            assert await answered(routers["b"], on_b, 0) == 0
            on_c = stream()
            await routers["b"].remove(on_b)
            await routers["c"].add(on_c)
            await asyncio.sleep(0.2)  # the notice's and the presence's way
            assert await answered(routers["c"], on_c, 1) == 1
        finally:
            for relay in relays.values():
                await relay.close()

    asyncio.run(main())
