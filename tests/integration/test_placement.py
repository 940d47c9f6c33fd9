"""Matches live where their bots are: two arbiters with the relay on, the bots connected to
`home`, matches created on `front`. The match is placed on `home` (no decision crosses Redis),
and when `home` is gone before taking it up, `front` hosts it once the placement lapses."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
import redis
from psycopg.conninfo import conninfo_to_dict

from premiere_wire import match_pb2
from server.arbiter import Arbiter as InProcess
from server.config import ArbiterSettings
from server.events import EventHub
from server.relay import Relay
from server.router import Connection, Router
from server.store import SeatSpec, Store, add_bot
from tests.integration.services import (
    Arbiter,
    create_match,
    free_port,
    redis_url,
    scratch_database,
    start_bot,
    wait_ended,
)
from tests.integration.test_arbiter_writes import run, spec, sql
from tests.integration.test_arbiters import FAST_LEASES, metric

STEADY = "tests.integration.bad_bots:SteadyBot"
GAME = "magic-trick"
SEATS = ["alpha", "beta", "builtin:heuristic", "builtin:random"]
PLACED = "premiere_arbiter_placed_matches_total"
CLAIMED = "premiere_arbiter_claimed_matches_total"
RELAYED = "premiere_arbiter_relayed_decisions_total"


def holders(database_url: str, match_id: str) -> tuple[str, list[int]]:
    """The match's lease owner now, and the fencing number of each logged move."""
    with psycopg.connect(database_url) as conn:
        owner = conn.execute(
            "SELECT owner FROM match_leases WHERE match_id = %s", (match_id,)
        ).fetchone()
        moves = conn.execute(
            "SELECT fence FROM match_moves WHERE match_id = %s ORDER BY ply", (match_id,)
        ).fetchall()
    return (owner[0] if owner else ""), [row[0] for row in moves]


def wait_presence(database_url: str, bot: str, arbiters: set[str], timeout: float = 90) -> None:
    """Until the relay's presence says `bot` holds live streams on exactly these arbiters
    (by name), as every arbiter placing a match reads it."""
    namespace = conninfo_to_dict(database_url)["dbname"]
    with psycopg.connect(database_url) as conn:
        row = conn.execute("SELECT id FROM bots WHERE name = %s", (bot,)).fetchone()
    assert row is not None
    key = f"premiere:relay:{namespace}:bot:{row[0]}"
    client = redis.Redis.from_url(redis_url())
    deadline = time.monotonic() + timeout
    seen: set[str] = set()
    while time.monotonic() < deadline:
        now = time.time()
        seen = {
            name.decode().split("/")[0]
            for name, raw in client.hgetall(key).items()
            if json.loads(raw)["until"] > now
        }
        if seen == arbiters:
            return
        time.sleep(0.1)
    raise TimeoutError(f"{bot} is on {seen}, not {arbiters}")


class Stack:
    def __init__(self, database_url: str, tmp: Path) -> None:
        settings = FAST_LEASES | {
            "PREMIERE_REDIS_URL": redis_url(),
            "PREMIERE_PLACEMENT_WAIT_S": "1.5",
        }
        self.url = database_url
        self.tmp = tmp
        self.front = Arbiter(
            database_url, free_port(), free_port(), settings=settings | _named("front")
        )
        self.home = Arbiter(
            database_url, free_port(), free_port(), settings=settings | _named("home")
        )
        self.bots: list[object] = []

    def start(self) -> None:
        self.front.start(self.tmp / "front.log")
        self.home.start(self.tmp / "home.log")
        self.tokens = {name: self.front.add_bot(name) for name in ("alpha", "beta")}

    def bot(self, name: str, arbiter: Arbiter) -> None:
        self.bots.append(
            start_bot(arbiter, STEADY, self.tokens[name], self.tmp / f"{name}-{len(self.bots)}.log")
        )

    def stop(self) -> None:
        for bot in self.bots:
            bot.terminate()  # type: ignore[attr-defined]
            bot.wait(10)  # type: ignore[attr-defined]
        self.front.stop()
        self.home.stop()


def _named(name: str) -> dict[str, str]:
    return {"PREMIERE_ARBITER_NAME": name}


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with scratch_database() as url:
        made = Stack(url, tmp_path_factory.mktemp("placement"))
        made.start()
        try:
            yield made
        finally:
            made.stop()


def test_a_match_is_hosted_where_its_bots_are_then_elsewhere_when_that_arbiter_is_gone(
    stack: Stack,
) -> None:
    front, home = stack.front, stack.home
    stack.bot("alpha", home)
    stack.bot("beta", home)
    stack.bot("alpha", front)  # a second stream: front holds one seat's bot, home both
    wait_presence(stack.url, "alpha", {"home", "front"})
    wait_presence(stack.url, "beta", {"home"})

    # Created on front, hosted by home: every decision asked directly, none through Redis.
    match_id = create_match(front.matches(), SEATS, "placed")
    ended = wait_ended(front.matches(), match_id)
    assert ended.status == match_pb2.MATCH_STATUS_FINISHED, (front.log(), home.log())
    owner, fences = holders(stack.url, match_id)
    assert owner.startswith("home/"), owner
    assert fences and set(fences) == {1}, fences
    assert list(ended.faults) == [], "placed, not taken over: no restart fault"
    assert metric(front, PLACED) == 1 and metric(home, CLAIMED) == 1
    assert metric(front, RELAYED) == 0 and metric(home, RELAYED) == 0, "no relayed decision"

    # home dies holding both bots; its presence still looks fresh for a few seconds, so a
    # match created on front at once is placed on home, which never takes it up. front hosts
    # it once the placement lapses (fencing number 2), with beta's new stream on front.
    home.kill()
    fallback = create_match(front.matches(), SEATS, "fallback")
    assert metric(front, PLACED) == 2
    stack.bot("beta", front)
    ended = wait_ended(front.matches(), fallback)
    assert ended.status == match_pb2.MATCH_STATUS_FINISHED, front.log()
    owner, fences = holders(stack.url, fallback)
    assert owner.startswith("front/"), owner
    assert fences and set(fences) == {2}, fences
    assert metric(front, CLAIMED) == 0


def test_an_orphan_is_left_to_the_arbiter_holding_its_bots_for_the_placement_wait(
    database_url: str,
) -> None:
    """Two arbiters in this process, each with its relay on the real Redis: arbiter `b` holds
    both bots' streams. A match whose arbiter died (its lease lapsed) is adopted by `b`; `a`
    leaves it alone until it has been nobody's for PREMIERE_PLACEMENT_WAIT_S, then adopts
    one too (the fallback when `b` does not)."""
    add_bot(database_url, "orphan-a")
    add_bot(database_url, "orphan-b")
    ids = dict(sql(database_url, "SELECT name, id FROM bots"))
    seats = (
        SeatSpec(ids["orphan-a"], "orphan-a"),
        SeatSpec(ids["orphan-b"], "orphan-b"),
        SeatSpec(builtin="random"),
    )
    settings = ArbiterSettings(relay=True, placement_wait_s=3.0, lease_s=5)
    namespace = f"test-{uuid.uuid4().hex[:8]}"

    async def body(store: Store) -> None:
        routers = [Router(), Router()]
        a, b = (InProcess(store, router, EventHub(), settings) for router in routers)
        relays = [
            Relay(router, redis_url(), arbiter.owner, namespace)
            for router, arbiter in zip(routers, (a, b), strict=True)
        ]
        for arbiter, relay in zip((a, b), relays, strict=True):
            await relay.start()
            arbiter.use_relay(relay)
        for name in ("orphan-a", "orphan-b"):
            stream = Connection(ids[name], name, frozenset({GAME}), max_matches=4)
            await routers[1].add(stream)
        try:
            for _ in range(100):
                if await relays[0].seats_held([ids["orphan-a"]], GAME) == {b.owner: 1}:
                    break
                await asyncio.sleep(0.02)
            first, second = spec(seed="first", seats=seats), spec(seed="second", seats=seats)
            for match in (first, second):
                await store.create_match(match, owner="dead", lease_s=0.05)
            await asyncio.sleep(0.1)

            assert await a.adopt() == 0, "the bots' streams are on b"
            assert await b.adopt() == 2
            assert set(b.hosts) == {first.id, second.id}
            await b.stop()

            # b let its leases go (lapsed a second ago); it still holds the bots' streams, so
            # a waits again, until they have been nobody's for the placement wait.
            assert await a.adopt() == 0
            # Past the wait, any arbiter adopts each match b left unfinished (b may have played
            # one to its end meanwhile: its bots' streams here are never answered, and a seat
            # that cannot be asked is played by default), each once its own wait is over.
            status = dict(sql(database_url, "SELECT id::text, status FROM matches"))
            left = {m.id for m in (first, second) if status[m.id] in ("pending", "running")}
            assert left, "b left no match unfinished: the test would test nothing"

            async def owners() -> set[str]:
                leases = [await store.lease(match_id) for match_id in left]
                return {str(lease["owner"]) if lease is not None else "" for lease in leases}

            deadline = time.monotonic() + settings.placement_wait_s + 5
            while await owners() != {a.owner} and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
                await a.adopt()
            assert await owners() == {a.owner}, "past the wait, any arbiter adopts"
            for match_id in left:
                lease = await store.lease(match_id)
                assert lease is not None and lease["fence"] == 3
            await a.stop()
        finally:
            for relay in relays:
                await relay.close()

    run(database_url, body)
