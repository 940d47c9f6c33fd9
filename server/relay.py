"""Bots on any arbiter: decision requests forwarded between arbiters through Redis.

A bot connects to whichever arbiter the load balancer picks; the match may be hosted by
another. Each arbiter publishes which bots hold streams on it (a hash per bot, one field per
arbiter, refreshed every second and ignored once stale), listens on its own Redis channel, and:

- asks a bot directly when the bot has a stream here, else publishes the request to an
  arbiter holding one, which asks on its stream and publishes the answer back (as lichess's
  lila and lila-ws do);
- sends lifecycle news (match started/ended, refused answers) to every arbiter holding the bot;
- tells another arbiter to take up a match placed on it (`offer`, `server/placement.py`): the
  arbiter holding most of a match's seats' streams hosts it, and asks them all directly;
- carries asks, answers, news and claims to an arbiter it shares a peer link with
  (`server.peers`, on when PREMIERE_PEER_TOKEN is set) on that link instead of through Redis:
  one long-lived stream per pair of arbiters, batched, with Redis the fallback for anything
  a dropped link was carrying (an ask is sent again through Redis, and answered once);
- counts a bot's match slots in Redis (a sorted set of match ids per bot, each with an expiry
  its host renews), so a bot's `max_matches` holds across all arbiters; a match taken over by
  another arbiter keeps its slot, because the slot is named by the match.

`Relay` offers the same calls as `Router` to a match host.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import logging
import socket
import time
from collections.abc import Callable, Coroutine, Iterator, Sequence
from typing import Any

import redis.asyncio as aioredis

from premiere_wire import bot_gateway_pb2, peer_pb2
from server.metrics import PEERED, RELAYED, RESENT
from server.peers import PeerLink, Peers
from server.placement import seats_held
from server.router import Disconnected, Request, Router, Unreachable

log = logging.getLogger("premiere.relay")

PREFIX = "premiere:relay"
PRESENCE_S = 5.0
HEARTBEAT_S = 1.0
SLOT_S = 60.0
POLL_S = 0.05
MAX_POLL_S = 1.0
REDIS_WAIT_S = 2.0
"""How long one Redis call of a forward may take before the relay counts as unavailable (a
cut link drops packets silently: without a bound the call would wait for TCP to give up)."""
VANISHED_S = 60.0
"""For this long after an arbiter holding a bot's stream stopped refreshing its presence, a
bot reachable nowhere is taken to be stranded by that arbiter (the infrastructure's fault),
not away by its own doing."""
REPLY_GRACE_S = HEARTBEAT_S
"""How long past a forwarded decision's deadline its host waits for the holder's verdict (the
bot's answer, or the holder's own "timeout" sent at the same deadline): one that has not come by
then was held up by the relay, and the decision is the infrastructure's fault, not the bot's."""
CLOCK_TOLERANCE_S = 0.05
"""The offset between two arbiters' clocks the relay's deadlines allow for (keep the
machines' clocks synchronised, NTP or chrony, well within it). A forwarded decision carries
one absolute deadline, the host's; the arbiter holding the bot's stream stops waiting at that
instant on its own clock, so an answer is judged on time or late within this tolerance of the
host's deadline, however long the request took to travel (docs/security.md, "Blame")."""
HOLDER_SILENT_S = 3 * HEARTBEAT_S
"""A holder whose presence was not refreshed for this long is taken to be gone (dead or
paused) by a request waiting on it."""
SERVED_KEPT_S = 10.0
"""How long past an ask's deadline its holder keeps what became of it: the same ask arriving
again (sent through Redis after the peer link that carried it dropped) is answered from it,
so the bot is never asked twice for one decision."""
ROUTE_S = HEARTBEAT_S
"""How long a host sends a bot's asks to the arbiter it last read holding the bot's stream,
without reading the presence again, while the two are linked: that arbiter says at once when
the bot's last stream there closes (`PeerBatch.gone`), and a link that drops forgets it."""
LATE = "the request reached the arbiter holding the bot's stream after its deadline"

# KEYS: the bots' slot sets; ARGV: match id, now, expiry, then one capacity per key.
# All or none: each bot must have a free slot (or already hold one for this match).
LEASE = """
for i, key in ipairs(KEYS) do
    redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[2])
    if not redis.call('ZSCORE', key, ARGV[1]) then
        if redis.call('ZCARD', key) >= tonumber(ARGV[3 + i]) then
            return 0
        end
    end
end
for _, key in ipairs(KEYS) do
    redis.call('ZADD', key, ARGV[3], ARGV[1])
end
return 1
"""


def _b64(message: Any) -> str:
    return base64.b64encode(message.SerializeToString()).decode()


def _ask_json(ask: peer_pb2.PeerAsk, reply_to: str) -> str:
    deadline_at = ask.deadline_unix_us / 1e6
    return json.dumps(
        {
            "kind": "ask",
            "reply_to": reply_to,
            "id": ask.id,
            "bot": ask.bot_id,
            "game": ask.game,
            "timeout": max(0.0, deadline_at - time.time()),
            "deadline_at": deadline_at,
            "request_id": ask.request_id,
            "request": base64.b64encode(ask.request).decode(),
        }
    )


def _ask_of(message: dict[str, Any]) -> peer_pb2.PeerAsk:
    deadline_at = message.get("deadline_at")
    if deadline_at is None:
        deadline_at = time.time() + float(message["timeout"])
    return peer_pb2.PeerAsk(
        id=str(message["id"]),
        bot_id=int(message["bot"]),
        game=str(message["game"]),
        deadline_unix_us=int(float(deadline_at) * 1e6),
        request_id=str(message["request_id"]),
        request=base64.b64decode(message["request"]),
    )


def _answer_json(answer: peer_pb2.PeerAnswer) -> str:
    reply: dict[str, Any] = {"kind": "answer", "id": answer.id}
    outcome = answer.WhichOneof("outcome")
    if outcome == "answer":
        reply["answer"] = base64.b64encode(answer.answer).decode()
    elif outcome == "timeout":
        reply["error"] = "timeout"
    elif outcome == "unreachable":
        reply["error"] = "unreachable"
        reply["detail"] = answer.unreachable
    else:
        reply["error"] = "disconnected"
        reply["detail"] = answer.disconnected
    return json.dumps(reply)


def _answer_of(message: dict[str, Any]) -> peer_pb2.PeerAnswer:
    answer = peer_pb2.PeerAnswer(id=str(message["id"]))
    error = message.get("error")
    if error is None:
        answer.answer = base64.b64decode(message["answer"])
    elif error == "timeout":
        answer.timeout = True
    elif error == "unreachable":
        answer.unreachable = str(message.get("detail", LATE))
    else:
        answer.disconnected = str(message.get("detail", "the bot disconnected"))
    return answer


class Relay:
    def __init__(self, router: Router, redis_url: str, name: str, namespace: str = "") -> None:
        """`namespace` keeps apart the arbiters of different databases sharing one Redis."""
        self.router = router
        self.name = name
        self.prefix = f"{PREFIX}:{namespace}" if namespace else PREFIX
        self.redis: aioredis.Redis = aioredis.Redis.from_url(
            redis_url, socket_timeout=REDIS_WAIT_S, socket_connect_timeout=REDIS_WAIT_S
        )
        """Every command is bounded: over a cut link a call fails in REDIS_WAIT_S."""
        self._subscriber: aioredis.Redis = aioredis.Redis.from_url(
            redis_url, socket_connect_timeout=REDIS_WAIT_S, client_name=self.listener_name
        )
        """The channel's own client: a subscription idles for as long as nobody writes."""
        self._waiting: dict[str, asyncio.Future[peer_pb2.PeerAnswer]] = {}
        self._serving: dict[str, asyncio.Task[peer_pb2.PeerAnswer]] = {}
        """Asks from other arbiters being (or lately) asked here, by id (SERVED_KEPT_S)."""
        self._routes: dict[tuple[int, str], tuple[str, float]] = {}
        """(bot, game) -> a linked arbiter holding the bot's stream, until when (`ROUTE_S`)."""
        self.peers: Peers | None = None
        self.peer_address = ""
        """Where the other arbiters reach this one's peer port (empty: no peer links)."""
        self._ids = itertools.count()
        self._held: dict[str, tuple[int, ...]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._lease = self.redis.register_script(LEASE)
        self._changed: set[int] = set()
        self._wake = asyncio.Event()
        self.on_claim: Callable[[str], Coroutine[Any, Any, None]] | None = None
        """Called with a match another arbiter placed here (`offer`)."""
        router.listeners.append(self._stream_changed)

    # --- lifecycle -----------------------------------------------------------------------

    async def use_peers(self, token: str, listen: str, advertise: str | None = None) -> None:
        """Serve the peer port on `listen` and link up with every other arbiter that does
        (call before `start`). `advertise` is where the others dial it (default: the
        listening host, with the port it got)."""
        self.peers = Peers(self.name, token, self._batch, self._link_lost)
        port = await self.peers.serve(listen)
        host = listen.rpartition(":")[0]
        if host.strip("[]") in ("", "0.0.0.0", "::"):
            host = socket.gethostname()
        self.peer_address = advertise or f"{host}:{port}"

    async def start(self) -> None:
        pubsub = self._subscriber.pubsub()
        await pubsub.subscribe(self._channel(self.name))
        self._tasks = [
            asyncio.create_task(self._listen(pubsub), name="relay-listen"),
            asyncio.create_task(self._heartbeat(), name="relay-heartbeat"),
        ]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.peers is not None:
            await self.peers.close()
        with contextlib.suppress(Exception):
            for bot_id in list(self.router.bot_ids()):
                await self.redis.hdel(self._presence(bot_id), self.name)
            await self.redis.hdel(self._peer_key, self.name)
        await self.redis.aclose()
        await self._subscriber.aclose()

    @property
    def listener_name(self) -> str:
        """The Redis client name of this arbiter's channel subscription (CLIENT LIST)."""
        return f"{self.prefix}:listener:{self.name}"

    def _channel(self, arbiter: str) -> str:
        return f"{self.prefix}:arbiter:{arbiter}"

    def _presence(self, bot_id: int) -> str:
        return f"{self.prefix}:bot:{bot_id}"

    def _slots(self, bot_id: int) -> str:
        return f"{self.prefix}:slots:{bot_id}"

    @property
    def _peer_key(self) -> str:
        return f"{self.prefix}:peers"

    # --- presence ------------------------------------------------------------------------

    def _stream_changed(self, bot_id: int) -> None:
        self._changed.add(bot_id)
        self._wake.set()
        if self.peers is not None and not self.router.connected(bot_id):
            for link in self.peers.up():
                link.gone(bot_id)

    async def _heartbeat(self) -> None:
        while not _cancel_requested():
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow the task's
            # cancellation when the wait ends at the same moment, and close() would hang.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(HEARTBEAT_S):
                    await self._wake.wait()
            self._wake.clear()
            changed, self._changed = self._changed, set()
            try:
                await self._publish_presence(changed)
                await self._renew_slots()
                await self._exchange_peers()
            except Exception as error:
                self._changed |= changed
                log.warning("relay heartbeat failed (%s); retrying", error)
                await asyncio.sleep(HEARTBEAT_S)

    async def _publish_presence(self, changed: set[int]) -> None:
        until = time.time() + PRESENCE_S
        async with self.redis.pipeline(transaction=False) as pipe:
            for bot_id in set(self.router.bot_ids()) | changed:
                streams = [
                    [sorted(c.games), c.max_matches] for c in self.router.live_streams(bot_id)
                ]
                if streams:
                    entry = json.dumps({"until": until, "streams": streams})
                    pipe.hset(self._presence(bot_id), self.name, entry)
                else:
                    pipe.hdel(self._presence(bot_id), self.name)
            await pipe.execute()

    async def _exchange_peers(self) -> None:
        """Publish where this arbiter's peer port is, and learn the others' (live ones only)."""
        if self.peers is None:
            return
        now = time.time()
        entry = json.dumps({"until": now + PRESENCE_S, "address": self.peer_address})
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(self._peer_key, self.name, entry)
            pipe.hgetall(self._peer_key)
            _, entries = await pipe.execute()
        live = {}
        for arbiter, raw in entries.items():
            name = arbiter.decode() if isinstance(arbiter, bytes) else str(arbiter)
            found = json.loads(raw)
            if name != self.name and found["until"] > now and found.get("address"):
                live[name] = str(found["address"])
        self.peers.known(live)

    async def _renew_slots(self) -> None:
        if not self._held:
            return
        expiry = time.time() + SLOT_S
        async with self.redis.pipeline(transaction=False) as pipe:
            for match_id, bots in self._held.items():
                for bot_id in bots:
                    pipe.zadd(self._slots(bot_id), {match_id: expiry}, xx=True)
            await pipe.execute()

    async def _elsewhere(self, bot_id: int) -> dict[str, list[tuple[frozenset[str], int]]]:
        """Other arbiters holding live streams of the bot: their streams' (games, capacity)."""
        return (await self._presence_of(bot_id))[0]

    async def _presence_of(
        self, bot_id: int
    ) -> tuple[dict[str, list[tuple[frozenset[str], int]]], set[str]]:
        """The other arbiters holding live streams of the bot, and those whose entry went
        stale within VANISHED_S: an arbiter deletes its entry when the bot's last stream on
        it closes, so a stale one means the arbiter died or stalled while holding the bot."""
        entries = await self.redis.hgetall(self._presence(bot_id))
        now = time.time()
        found = {}
        vanished = set()
        for arbiter, raw in entries.items():
            name = arbiter.decode() if isinstance(arbiter, bytes) else str(arbiter)
            entry = json.loads(raw)
            if name == self.name:
                continue
            if entry["until"] > now:
                found[name] = [(frozenset(g), int(n)) for g, n in entry["streams"]]
            elif entry["until"] > now - VANISHED_S:
                vanished.add(name)
        return found, vanished

    @staticmethod
    def _playing(streams: list[tuple[frozenset[str], int]], game: str) -> int:
        return sum(n for games, n in streams if not games or game in games)

    # --- placement ---------------------------------------------------------------------

    async def seats_held(self, bots: Sequence[int], game: str) -> dict[str, int]:
        """Per arbiter (this one included), how many of these bot seats it holds a live
        stream for that plays `game`: one pipelined read of the bots' presence."""
        distinct = sorted(set(bots))
        async with self.redis.pipeline(transaction=False) as pipe:
            for bot_id in distinct:
                pipe.hgetall(self._presence(bot_id))
            found = await pipe.execute()
        now = time.time()
        holders: dict[int, list[str]] = {}
        for bot_id, entries in zip(distinct, found, strict=True):
            names = [self.name] if self.router.plays(bot_id, game) else []
            for arbiter, raw in entries.items():
                name = arbiter.decode() if isinstance(arbiter, bytes) else str(arbiter)
                entry = json.loads(raw)
                if name == self.name or entry["until"] <= now:
                    continue
                streams = [(frozenset(g), int(n)) for g, n in entry["streams"]]
                if self._playing(streams, game):
                    names.append(name)
            holders[bot_id] = names
        return seats_held(bots, holders)

    async def offer(self, arbiter: str, match_id: str) -> bool:
        """Tell `arbiter` to take up a match whose lease was made out to it; False when it
        does not listen now (the lease then lapses and any arbiter adopts the match)."""
        link = self._link(arbiter)
        if link is not None:
            link.claim(match_id)
            return True
        payload = json.dumps({"kind": "claim", "match": match_id})
        async with asyncio.timeout(REDIS_WAIT_S):
            return bool(await self.redis.publish(self._channel(arbiter), payload))

    # --- what a match host calls ---------------------------------------------------------

    def new_request_id(self, match_id: str) -> str:
        return self.router.new_request_id(match_id)

    async def reachable(self, bot_id: int) -> bool:
        if self.router.connected(bot_id):
            return True
        with contextlib.suppress(aioredis.RedisError):
            return bool(await self._elsewhere(bot_id))
        return False

    async def can_play(self, bot_id: int, game: str) -> bool:
        if self.router.plays(bot_id, game):
            return True
        with contextlib.suppress(aioredis.RedisError):
            return any(self._playing(s, game) for s in (await self._elsewhere(bot_id)).values())
        return False

    async def _capacity(self, bot_id: int, game: str) -> int:
        local = sum(c.max_matches for c in self.router.streams(bot_id, game))
        remote = sum(self._playing(s, game) for s in (await self._elsewhere(bot_id)).values())
        return local + remote

    async def lease(
        self, bot_ids: Sequence[int], game: str, timeout: float, holder: str = ""
    ) -> bool:
        """One slot per distinct bot for match `holder`, counted over every arbiter."""
        bots = sorted(set(bot_ids))
        deadline = time.monotonic() + timeout
        pauses = _pauses(MAX_POLL_S)
        while True:
            try:
                if await self._try_lease(bots, game, holder):
                    return True
            except aioredis.RedisError as error:
                log.warning("relay unavailable while seating match %s (%s)", holder, error)
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(min(next(pauses), max(0.0, deadline - time.monotonic())))

    async def _try_lease(self, bots: list[int], game: str, holder: str) -> bool:
        capacities = [await self._capacity(b, game) for b in bots]
        if not all(capacities):
            return False
        granted = await self._lease(
            keys=[self._slots(b) for b in bots],
            args=[holder, time.time(), time.time() + SLOT_S, *capacities],
        )
        if granted:
            self._held[holder] = tuple(bots)
        return bool(granted)

    async def release(self, bot_ids: Sequence[int], holder: str = "") -> None:
        """Free the match's slots (if Redis is away, they lapse within SLOT_S)."""
        self._held.pop(holder, None)
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for bot_id in set(bot_ids):
                    pipe.zrem(self._slots(bot_id), holder)
                await pipe.execute()
        except aioredis.RedisError as error:
            log.warning("relay unavailable; the slots of match %s lapse alone (%s)", holder, error)

    def broadcast(self, bot_id: int, message: bot_gateway_pb2.ConnectResponse) -> None:
        self.router.broadcast(bot_id, message)
        task = asyncio.create_task(self._broadcast(bot_id, message))
        task.add_done_callback(_log_failure)

    async def _broadcast(self, bot_id: int, message: bot_gateway_pb2.ConnectResponse) -> None:
        payload = json.dumps({"kind": "broadcast", "bot": bot_id, "message": _b64(message)})
        for arbiter in await self._elsewhere(bot_id):
            link = self._link(arbiter)
            if link is not None:
                link.news(bot_id, message.SerializeToString())
            else:
                await self.redis.publish(self._channel(arbiter), payload)

    def _link(self, arbiter: str) -> PeerLink | None:
        return self.peers.link(arbiter) if self.peers is not None else None

    async def ask(
        self, bot_id: int, game: str, request: Request, timeout: float
    ) -> bot_gateway_pb2.DecisionAnswer:
        """Ask on a stream here if there is one, else through an arbiter that holds one.

        A forwarded request is watched: when its holder stops refreshing its presence (it died
        or is paused) the request goes at once to wherever the bot's stream is now, instead of
        waiting out the decision's deadline. Failures of Redis, or a holder gone with no other
        in its place, raise `Unreachable`: the infrastructure's fault, not the bot's.
        """
        deadline = time.monotonic() + timeout
        gone: set[str] = set()
        while True:
            if self.router.streams(bot_id, game):
                return await self.router.ask(bot_id, game, request, _left(deadline))
            routed = self._routed(bot_id, game)
            if routed is not None and routed not in gone:
                try:
                    return await self._forward(routed, bot_id, game, request, deadline)
                except _HolderGone:
                    log.warning("arbiter %s went away mid-request; asking again", routed)
                    gone.add(routed)
                    continue
            holders, vanished = await self._holders(bot_id, deadline)
            playing = {
                a: n for a, s in holders.items() if a not in gone and (n := self._playing(s, game))
            }
            if playing:
                arbiter = max(playing, key=lambda a: playing[a])
                if self._link(arbiter) is not None:
                    self._routes[(bot_id, game)] = (arbiter, time.monotonic() + ROUTE_S)
                try:
                    return await self._forward(arbiter, bot_id, game, request, deadline)
                except _HolderGone:
                    log.warning("arbiter %s went away mid-request; asking again", arbiter)
                    gone.add(arbiter)
                    continue
            if not gone and not vanished:
                return await self.router.ask(bot_id, game, request, _left(deadline))
            if _left(deadline) <= 0:
                raise Unreachable(
                    "the arbiter holding the bot's stream went away (died or stalled) and the"
                    " bot was not reachable elsewhere before the deadline"
                )
            await asyncio.sleep(min(POLL_S * 4, _left(deadline)))

    def _routed(self, bot_id: int, game: str) -> str | None:
        """The linked arbiter this bot's asks went to lately (`ROUTE_S`), if still linked."""
        route = self._routes.get((bot_id, game))
        if route is None:
            return None
        arbiter, until = route
        if time.monotonic() < until and self._link(arbiter) is not None:
            return arbiter
        del self._routes[(bot_id, game)]
        return None

    def _forget(self, arbiter: str, bots: Sequence[int] | None = None) -> None:
        """Routes to `arbiter` (of these bots only, when given) are read again."""
        for key, (there, _) in list(self._routes.items()):
            if there == arbiter and (bots is None or key[0] in bots):
                del self._routes[key]

    async def _holders(
        self, bot_id: int, deadline: float
    ) -> tuple[dict[str, list[tuple[frozenset[str], int]]], set[str]]:
        try:
            async with asyncio.timeout(min(_left(deadline), REDIS_WAIT_S)):
                return await self._presence_of(bot_id)
        except (aioredis.RedisError, TimeoutError) as error:
            raise Unreachable(f"the relay is unavailable ({type(error).__name__})") from None

    async def _forward(
        self, arbiter: str, bot_id: int, game: str, request: Request, deadline: float
    ) -> bot_gateway_pb2.DecisionAnswer:
        """On the peer link to `arbiter` when it is up (sent again through Redis if the link
        drops before the answer comes, `_link_lost`), else through Redis."""
        reply_id = f"{self.name}:{next(self._ids)}"
        future: asyncio.Future[peer_pb2.PeerAnswer] = asyncio.get_running_loop().create_future()
        self._waiting[reply_id] = future
        ask = peer_pb2.PeerAsk(
            id=reply_id,
            bot_id=bot_id,
            game=game,
            deadline_unix_us=int((time.time() + _left(deadline)) * 1e6),
            request_id=request.id,
            request=request.data,
        )
        link = self._link(arbiter)
        try:
            if link is not None:
                PEERED.inc()
                link.ask(ask)
            else:
                RELAYED.inc()
                try:
                    delivered = await self._deliver(arbiter, _ask_json(ask, self.name), deadline)
                except (aioredis.RedisError, TimeoutError) as error:
                    raise Unreachable(
                        f"the relay is unavailable ({type(error).__name__})"
                    ) from None
                if not delivered:
                    raise Unreachable(
                        f"arbiter {arbiter} holds the bot's stream but did not listen on its"
                        " relay channel before the deadline"
                    )
            reply = await self._reply(future, arbiter, bot_id, deadline)
        finally:
            self._waiting.pop(reply_id, None)
            if link is not None:
                link.pending.pop(reply_id, None)
        outcome = reply.WhichOneof("outcome")
        if outcome != "answer":
            self._routes.pop((bot_id, game), None)
        if outcome == "timeout":
            raise TimeoutError
        if outcome == "unreachable":
            raise Unreachable(reply.unreachable or LATE)
        if outcome != "answer":
            raise Disconnected(reply.disconnected or "the bot disconnected")
        return bot_gateway_pb2.DecisionAnswer.FromString(reply.answer)

    def _link_lost(self, link: PeerLink) -> None:
        """Every ask the dropped link carried and nobody answered yet goes through Redis now:
        its holder answers it once (asked already, it answers from what it kept)."""
        self._forget(link.peer)
        unanswered = [a for a in link.pending.values() if a.id in self._waiting]
        link.pending.clear()
        if unanswered:
            log.warning(
                "peer link to %s dropped; sending %d unanswered asks through Redis",
                link.peer,
                len(unanswered),
            )
        for ask in unanswered:
            task = asyncio.create_task(self._resend(link.peer, ask))
            task.add_done_callback(_log_failure)

    async def _resend(self, arbiter: str, ask: peer_pb2.PeerAsk) -> None:
        RELAYED.inc()
        RESENT.inc()
        left = ask.deadline_unix_us / 1e6 - time.time()
        deadline = time.monotonic() + max(0.0, left) + REPLY_GRACE_S
        with contextlib.suppress(aioredis.RedisError, TimeoutError):
            if await self._deliver(arbiter, _ask_json(ask, self.name), deadline):
                return
        log.warning("ask %s could not be sent again through Redis to %s", ask.id, arbiter)

    async def _deliver(self, arbiter: str, payload: str, deadline: float) -> bool:
        """Publish to `arbiter`'s channel until it has a listener; False if none by the
        deadline. Pub/sub keeps nothing: a message published while the arbiter subscribes
        again (after Redis dropped its subscription) would be lost, and its sender would wait
        out the whole deadline for a reply that cannot come."""
        pauses = _pauses(HEARTBEAT_S / 4)
        while True:
            async with asyncio.timeout(min(_left(deadline), REDIS_WAIT_S)):
                if await self.redis.publish(self._channel(arbiter), payload):
                    return True
            pause = next(pauses)
            if _left(deadline) <= pause:
                return False
            await asyncio.sleep(pause)

    async def _reply(
        self,
        future: asyncio.Future[peer_pb2.PeerAnswer],
        arbiter: str,
        bot_id: int,
        deadline: float,
    ) -> peer_pb2.PeerAnswer:
        """The holder's reply; every HEARTBEAT_S, whether the holder is still there."""
        while True:
            if _left(deadline) <= 0:
                return await self._verdict(future, arbiter)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(_left(deadline), HEARTBEAT_S)):
                    return await asyncio.shield(future)
            if future.done():
                return future.result()
            if not await self._still_holds(arbiter, bot_id, deadline):
                raise _HolderGone(arbiter)

    @staticmethod
    async def _verdict(
        future: asyncio.Future[peer_pb2.PeerAnswer], arbiter: str
    ) -> peer_pb2.PeerAnswer:
        """Past the deadline, the holder's word on it, by REPLY_GRACE_S: its bot timed out (or
        went away) there, which is the bot's doing, or an answer, which the holder took before
        the host's deadline on its clock (it stops waiting at that instant) and the relay
        carried after it: on time, and used. No word at all by then is the relay's fault."""
        try:
            async with asyncio.timeout(REPLY_GRACE_S):
                return await asyncio.shield(future)
        except TimeoutError:
            raise Unreachable(
                f"no word through the relay from arbiter {arbiter}, which holds the bot's"
                " stream, by the deadline"
            ) from None

    async def _still_holds(self, arbiter: str, bot_id: int, deadline: float) -> bool:
        """Whether `arbiter` refreshed its presence for the bot within HOLDER_SILENT_S."""
        try:
            async with asyncio.timeout(min(_left(deadline), REDIS_WAIT_S)):
                raw = await self.redis.hget(self._presence(bot_id), arbiter)
        except (aioredis.RedisError, TimeoutError) as error:
            raise Unreachable(f"the relay failed mid-forward ({type(error).__name__})") from None
        if raw is None:
            return False
        refreshed = float(json.loads(raw)["until"]) - PRESENCE_S
        return refreshed > time.time() - HOLDER_SILENT_S

    # --- what other arbiters send here ---------------------------------------------------

    async def _listen(self, pubsub: Any) -> None:
        while not _cancel_requested():
            try:
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        self._handle(json.loads(message["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("relay channel failed (%s); subscribing again", error)
                await self._subscribe_again(pubsub)

    async def _subscribe_again(self, pubsub: Any) -> None:
        """Back on the channel as soon as Redis lets us: every request forwarded here while
        unsubscribed waits in its sender's `_deliver`."""
        pauses = _pauses(HEARTBEAT_S)
        while not _cancel_requested():
            await asyncio.sleep(next(pauses))
            with contextlib.suppress(Exception):
                await pubsub.subscribe(self._channel(self.name))
                return

    def _handle(self, message: dict[str, Any]) -> None:
        kind = message.get("kind")
        if kind == "answer":
            self._answered(_answer_of(message))
        elif kind == "ask":
            asker = str(message["reply_to"])
            self._serve(_ask_of(message), lambda answer: self._answer_by_redis(asker, answer))
        elif kind == "claim":
            self._claimed(str(message["match"]))
        elif kind == "broadcast":
            self._news(int(message["bot"]), base64.b64decode(message["message"]))

    def _batch(self, link: PeerLink, batch: peer_pb2.PeerBatch) -> None:
        """What a peer link brought: handled as the same messages through Redis would be,
        answers to its asks going back on the link."""
        for answer in batch.answers:
            self._answered(answer)
        for ask in batch.asks:
            self._serve(ask, link.answer)
        for news in batch.news:
            self._news(news.bot_id, news.message)
        for match_id in batch.claims:
            self._claimed(match_id)
        if batch.gone:
            self._forget(link.peer, batch.gone)

    def _answered(self, answer: peer_pb2.PeerAnswer) -> None:
        future = self._waiting.get(answer.id)
        if future is not None and not future.done():
            future.set_result(answer)

    def _claimed(self, match_id: str) -> None:
        if self.on_claim is not None:
            claim = asyncio.create_task(self.on_claim(match_id))
            claim.add_done_callback(_log_failure)

    def _news(self, bot_id: int, data: bytes) -> None:
        self.router.broadcast(bot_id, bot_gateway_pb2.ConnectResponse.FromString(data))

    def _serve(self, ask: peer_pb2.PeerAsk, reply: Callable[[peer_pb2.PeerAnswer], None]) -> None:
        """Ask the bot here, once per ask id however many times the ask arrives (by the peer
        link, then again through Redis when the link dropped), and `reply` by the way it came."""
        task = self._serving.get(ask.id)
        if task is None:
            task = asyncio.create_task(self._ask_here(ask))
            self._serving[ask.id] = task
            kept = max(0.0, ask.deadline_unix_us / 1e6 - time.time()) + SERVED_KEPT_S
            asyncio.get_running_loop().call_later(kept, self._serving.pop, ask.id, None)

        def done(finished: asyncio.Task[peer_pb2.PeerAnswer]) -> None:
            if not finished.cancelled() and finished.exception() is None:
                reply(finished.result())

        task.add_done_callback(done)

    async def _ask_here(self, ask: peer_pb2.PeerAsk) -> peer_pb2.PeerAnswer:
        # The host's deadline, not one measured from now: a request that took a while to get
        # here must not give the bot longer than the host does (the host would then hear an
        # answer it must call late, and blame the relay for it). One that came after it is
        # not put to the bot at all: it never had the chance to answer, the relay was late.
        answer = peer_pb2.PeerAnswer(id=ask.id)
        timeout = ask.deadline_unix_us / 1e6 - time.time()
        if timeout <= 0:
            answer.unreachable = LATE
            return answer
        try:
            decided = await self.router.ask(
                ask.bot_id, ask.game, Request(ask.request_id, ask.request), timeout, False
            )
            answer.answer = decided.SerializeToString()
        except TimeoutError:
            answer.timeout = True
        except Disconnected as error:
            answer.disconnected = str(error) or "the bot disconnected"
        return answer

    def _answer_by_redis(self, asker: str, answer: peer_pb2.PeerAnswer) -> None:
        task = asyncio.create_task(self._publish_answer(asker, answer))
        task.add_done_callback(_log_failure)

    async def _publish_answer(self, asker: str, answer: peer_pb2.PeerAnswer) -> None:
        deadline = time.monotonic() + REDIS_WAIT_S
        with contextlib.suppress(TimeoutError):
            if await self._deliver(asker, _answer_json(answer), deadline):
                return
        log.warning("arbiter %s was not listening when its answer came", asker)


class _HolderGone(Exception):
    """The arbiter a request was forwarded to stopped refreshing its presence."""


def _pauses(ceiling: float) -> Iterator[float]:
    """Waits between tries: POLL_S, doubling up to ``ceiling``."""
    pause = POLL_S
    while True:
        yield pause
        pause = min(pause * 2, ceiling)


def _left(deadline: float) -> float:
    return max(0.0, deadline - time.monotonic())


def _cancel_requested() -> bool:
    """Whether this task was asked to stop. A cancellation that lands inside a Redis call can
    be swallowed there (redis.asyncio), leaving the task marked cancelling but running; the
    loops check this, or close() would wait for them forever."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("relay message failed: %s", task.exception())
