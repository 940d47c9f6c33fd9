"""Connected bots: their streams, their capacity, and routing decision requests to them.

A bot may hold several streams (processes); a request goes to the live stream with the fewest
pending requests, and its answer is accepted only on that stream, for that request id.

Lifecycle news survives reconnects: the `MatchStarted` of every running match is sent again on
each stream the bot opens (marked `resent`), and a `MatchEnded` that found no open stream is
kept (the last `KEPT_ENDINGS` per bot) for the bot's next stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import secrets
import time
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from premiere_wire import bot_gateway_pb2
from server.encoder import varint
from server.limits import Rate
from server.metrics import CONNECTED_BOTS, STALE_ANSWERS
from server.outbox import Outbox


class Disconnected(Exception):
    """The bot's stream closed, or no stream of the bot came up before the deadline."""

    infrastructure = False
    """Whether the failure is the service's (the relay, or the arbiter holding the bot's
    stream), not the bot's: the decision is then charged to the infrastructure, no strike."""


class Unreachable(Disconnected):
    """The bot could not be asked because Premiere's own parts failed between the match's host
    and the bot's stream: Redis (the relay) is unavailable, or the arbiter holding the stream
    went away mid-request and no other took its place before the deadline."""

    infrastructure = True


DEFAULT_OUTBOX = 256
DEFAULT_REFUSALS_PER_MINUTE = 600
DEFAULT_REQUEST_ID_BYTES = 128
KEPT_ENDINGS = 64
"""MatchEnded notices kept per bot while it has no stream open; older ones are dropped."""


class TooManyStreams(Exception):
    """The bot already holds as many streams as it may."""


_DECISION_TAG = varint(bot_gateway_pb2.ConnectResponse.DECISION_FIELD_NUMBER << 3 | 2)

_BATCH_TAG = varint(bot_gateway_pb2.ConnectResponse.DECISIONS_FIELD_NUMBER << 3 | 2)
_BATCH_ITEM_TAG = varint(bot_gateway_pb2.DecisionBatch.REQUESTS_FIELD_NUMBER << 3 | 2)


@dataclass(slots=True)
class Request:
    """A decision request ready for the wire: its id, which the answer quotes, and the
    serialized `DecisionRequest`."""

    id: str
    data: bytes
    sent_at: float = field(default=0.0, compare=False)
    """When the stream's writer put it on the wire (`time.monotonic`), 0 until then: the
    bot's clock runs from here, not from when the match asked (a busy arbiter's queue is not
    the bot's time)."""

    @classmethod
    def of(cls, message: bot_gateway_pb2.DecisionRequest) -> Request:
        return cls(message.request_id, message.SerializeToString())

    def framed(self) -> bytes:
        """The serialized `ConnectResponse` carrying this request."""
        return _DECISION_TAG + varint(len(self.data)) + self.data


def framed_batch(requests: Sequence[Request]) -> bytes:
    """The serialized `ConnectResponse` carrying these requests as one `DecisionBatch`, built
    from their serialized bytes (nothing is parsed or serialized again)."""
    body = b"".join(
        [part for r in requests for part in (_BATCH_ITEM_TAG, varint(len(r.data)), r.data)]
    )
    return _BATCH_TAG + varint(len(body)) + body


Outgoing = bot_gateway_pb2.ConnectResponse | Request
"""What a stream sends: a message, or a decision request, built as bytes once and never parsed
again on its way out."""


@dataclass(eq=False)
class Connection:
    """One bot stream: an outbox the gateway drains and the requests awaiting answers.

    The outbox is bounded: a bot that stops reading lets it fill, and the stream is then
    closed (`overflowed` set, `kill` called) instead of holding the arbiter's memory.
    """

    bot_id: int
    bot_name: str
    games: frozenset[str]
    max_matches: int
    max_outbox: int = DEFAULT_OUTBOX
    accepts_challenges: bool = False
    batches: bool = False
    """The bot's Hello set `batches`: requests ready together go out as one DecisionBatch."""
    refusals: Rate = field(default_factory=lambda: Rate(DEFAULT_REFUSALS_PER_MINUTE))
    outbox: Outbox[Outgoing | None] = field(default_factory=Outbox)
    pending: dict[str, asyncio.Future[bot_gateway_pb2.DecisionAnswer]] = field(default_factory=dict)
    closed: bool = False
    overflowed: str = ""
    close_code: str = "RESOURCE_EXHAUSTED"
    """The gRPC status name the gateway ends a stream closed by `close_for` with."""
    kill: Callable[[], None] = lambda: None

    def plays(self, game: str) -> bool:
        return not self.games or game in self.games

    def send(self, message: Outgoing) -> None:
        if self.closed:
            return
        if self.outbox.qsize() >= self.max_outbox:
            self.close_for(f"more than {self.max_outbox} messages unread; the stream is closed")
            return
        self.outbox.put_nowait(message)

    def close_for(self, reason: str, code: str = "RESOURCE_EXHAUSTED") -> None:
        """Close a misbehaving stream: the gateway ends it with `code` (a gRPC status name)."""
        if not self.overflowed:
            self.overflowed = reason
            self.close_code = code
            self.closed = True
            self.kill()


class Bots(Protocol):
    """What a match host needs from the bots: this arbiter's `Router`, or a `Relay` that also
    reaches bots connected to other arbiters."""

    def new_request_id(self, match_id: str) -> str: ...

    async def reachable(self, bot_id: int) -> bool: ...

    async def can_play(self, bot_id: int, game: str) -> bool: ...

    async def lease(
        self, bot_ids: Sequence[int], game: str, timeout: float, holder: str = ""
    ) -> bool: ...

    async def release(self, bot_ids: Sequence[int], holder: str = "") -> None: ...

    def broadcast(self, bot_id: int, message: bot_gateway_pb2.ConnectResponse) -> None: ...

    async def ask(
        self, bot_id: int, game: str, request: Request, timeout: float
    ) -> bot_gateway_pb2.DecisionAnswer: ...


class Router:
    """Tracks live streams per bot, leases match capacity, and asks for decisions."""

    def __init__(
        self,
        max_streams_per_bot: int = 16,
        max_request_id_bytes: int = DEFAULT_REQUEST_ID_BYTES,
    ) -> None:
        self.max_streams_per_bot = max_streams_per_bot
        self.max_request_id_bytes = max_request_id_bytes
        self._streams: dict[int, list[Connection]] = defaultdict(list)
        self._leases: dict[int, int] = defaultdict(int)
        self._changed = asyncio.Condition()
        self._ids = itertools.count()
        # Request ids are "<match>:<boot>:<n>": the boot tag differs after every restart.
        self._boot = secrets.token_hex(4)
        self._started: dict[int, dict[str, bot_gateway_pb2.MatchStarted]] = defaultdict(dict)
        self._endings: dict[int, deque[bot_gateway_pb2.MatchEnded]] = defaultdict(
            lambda: deque(maxlen=KEPT_ENDINGS)
        )
        self.listeners: list[Callable[[int], None]] = []
        """Called with the bot's id whenever one of its streams comes or goes."""

    # --- streams -------------------------------------------------------------------------

    async def add(self, conn: Connection) -> None:
        """Raises TooManyStreams when the bot already holds `max_streams_per_bot` streams."""
        if len(self._streams[conn.bot_id]) >= self.max_streams_per_bot:
            raise TooManyStreams(
                f"at most {self.max_streams_per_bot} streams per bot; close one first"
            )
        self._streams[conn.bot_id].append(conn)
        CONNECTED_BOTS.inc()
        for started in self._started.get(conn.bot_id, {}).values():
            if conn.plays(started.game):
                again = bot_gateway_pb2.MatchStarted()
                again.CopyFrom(started)
                again.resent = True
                conn.send(bot_gateway_pb2.ConnectResponse(match_started=again))
        endings = self._endings.pop(conn.bot_id, ())
        for ended in endings:
            conn.send(bot_gateway_pb2.ConnectResponse(match_ended=ended))
        self._notify(conn.bot_id)
        async with self._changed:
            self._changed.notify_all()

    async def remove(self, conn: Connection) -> None:
        conn.closed = True
        with contextlib.suppress(ValueError):
            self._streams[conn.bot_id].remove(conn)
            CONNECTED_BOTS.dec()
        for future in conn.pending.values():
            if not future.done():
                future.set_exception(Disconnected(f"{conn.bot_name} disconnected"))
        conn.pending.clear()
        conn.outbox.put_nowait(None)
        self._notify(conn.bot_id)
        async with self._changed:
            self._changed.notify_all()

    def _notify(self, bot_id: int) -> None:
        for listener in self.listeners:
            listener(bot_id)

    def bot_ids(self) -> Iterable[int]:
        return [bot_id for bot_id, conns in self._streams.items() if conns]

    def live_streams(self, bot_id: int) -> list[Connection]:
        return [c for c in self._streams.get(bot_id, []) if not c.closed]

    def plays(self, bot_id: int, game: str) -> bool:
        return bool(self.streams(bot_id, game))

    async def reachable(self, bot_id: int) -> bool:
        return self.connected(bot_id)

    async def can_play(self, bot_id: int, game: str) -> bool:
        return self.plays(bot_id, game)

    def streams(self, bot_id: int, game: str) -> list[Connection]:
        return [c for c in self._streams.get(bot_id, []) if not c.closed and c.plays(game)]

    def accepts_challenges(self, bot_id: int, game: str) -> bool:
        return any(c.accepts_challenges for c in self.streams(bot_id, game))

    def connected(self, bot_id: int) -> bool:
        return any(not c.closed for c in self._streams.get(bot_id, []))

    def broadcast(self, bot_id: int, message: bot_gateway_pb2.ConnectResponse) -> None:
        """Lifecycle news goes to every stream of the bot (and is remembered, see above)."""
        kind = message.WhichOneof("message")
        if kind == "match_started":
            started = message.match_started
            self._started[bot_id][f"{started.match_id}/{started.seat}"] = started
        elif kind == "match_ended":
            ended = message.match_ended
            seats = self._started.get(bot_id, {})
            seats.pop(f"{ended.match_id}/{ended.seat}", None)
            if not seats:
                self._started.pop(bot_id, None)
        live = [c for c in self._streams.get(bot_id, []) if not c.closed]
        if kind == "match_ended" and not live:
            self._endings[bot_id].append(message.match_ended)
            return
        for conn in live:
            conn.send(message)

    # --- capacity ------------------------------------------------------------------------

    def _capacity(self, bot_id: int, game: str) -> int:
        return sum(c.max_matches for c in self.streams(bot_id, game))

    async def lease(
        self, bot_ids: Sequence[int], game: str, timeout: float, holder: str = ""
    ) -> bool:
        """Reserve one match slot on each distinct bot, all or none.

        A bot's capacity is the sum of `max_matches` over its live streams that play the game;
        a bot seated several times in one match uses one slot. Waits for free slots until the
        timeout passes.
        """
        bots = set(bot_ids)
        deadline = time.monotonic() + timeout

        def free() -> bool:
            return all(self._capacity(b, game) > self._leases[b] for b in bots)

        async with self._changed:
            while not free():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a
                # cancellation of this task that arrives as the condition is notified.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(remaining):
                        await self._changed.wait()
            for bot_id in bots:
                self._leases[bot_id] += 1
        return True

    async def release(self, bot_ids: Sequence[int], holder: str = "") -> None:
        async with self._changed:
            for bot_id in set(bot_ids):
                self._leases[bot_id] = max(0, self._leases[bot_id] - 1)
            self._changed.notify_all()

    # --- decisions -----------------------------------------------------------------------

    def new_request_id(self, match_id: str) -> str:
        """Unique across restarts and arbiters: a match taken over never reuses a pending
        request's id."""
        return f"{match_id}:{self._boot}:{next(self._ids)}"

    async def ask(
        self, bot_id: int, game: str, request: Request, timeout: float, from_write: bool = True
    ) -> bot_gateway_pb2.DecisionAnswer:
        """Send a request to the bot's least busy stream; raise TimeoutError or Disconnected.

        The bot has `timeout` from when the request goes on the wire (`Request.sent_at`);
        without `from_write`, from now (a relayed ask: its host's deadline is already set)."""
        deadline = time.monotonic() + timeout
        conn = await self._stream_for(bot_id, game, deadline)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bot_gateway_pb2.DecisionAnswer] = loop.create_future()
        conn.pending[request.id] = future
        conn.send(request)
        timer = loop.call_at(deadline, _expire, future, request if from_write else None, timeout)
        try:
            return await future
        finally:
            timer.cancel()
            conn.pending.pop(request.id, None)

    async def _stream_for(self, bot_id: int, game: str, deadline: float) -> Connection:
        """The least busy live stream; waits for one (under the condition) only when there is
        none, so the usual ask takes no lock."""
        live = self.streams(bot_id, game)
        if live:
            return min(live, key=_load)
        async with self._changed:
            while True:
                live = self.streams(bot_id, game)
                if live:
                    return min(live, key=_load)
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise Disconnected("the bot has no open stream")
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a
                # cancellation of this task that arrives as the condition is notified.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(remaining):
                        await self._changed.wait()

    def answer(self, conn: Connection, answer: bot_gateway_pb2.DecisionAnswer) -> None:
        """Hand an answer to the request that awaits it, or refuse it as stale or unknown.

        Refusals are rate-limited per stream (a bot past the limit loses the stream), and the
        quoted request id is echoed only up to `max_request_id_bytes`.
        """
        request_id = answer.request_id
        future = conn.pending.get(request_id)
        if future is None or future.done():
            STALE_ANSWERS.labels("stale").inc()
            self.refuse(
                conn,
                request_id,
                "stale or unknown request (answer only requests sent on this stream)",
            )
            return
        future.set_result(answer)

    def answer_batch(
        self, conn: Connection, answers: Sequence[bot_gateway_pb2.DecisionAnswer]
    ) -> None:
        """Each answer of an `AnswerBatch` as if it came alone, in order: a duplicate finds its
        request answered and is refused as stale. Stops once the stream is closed (a batch of
        bad answers reaches the refusal limit as quickly as single ones would)."""
        if not answers:
            STALE_ANSWERS.labels("malformed").inc()
            self.refuse(conn, "", "malformed: an AnswerBatch holds at least one answer")
            return
        for answer in answers:
            if conn.closed:
                return
            self.answer(conn, answer)

    def refuse(self, conn: Connection, request_id: str, reason: str) -> None:
        """Tell one stream its answer was not used, unless it keeps sending refused answers."""
        if not conn.refusals.allow():
            conn.close_for(
                f"more than {conn.refusals.limit} refused answers a minute; the stream is closed"
            )
            return
        quoted = request_id.encode()[: self.max_request_id_bytes].decode(errors="ignore")
        conn.send(
            bot_gateway_pb2.ConnectResponse(
                refused=bot_gateway_pb2.AnswerRefused(request_id=quoted, reason=reason)
            )
        )


def _load(conn: Connection) -> int:
    return len(conn.pending)


def _expire(future: asyncio.Future[Any], request: Request | None, timeout: float) -> None:
    """Time the request out, unless it went on the wire late: its time then runs from there."""
    if future.done():
        return
    if request is not None and request.sent_at and request.sent_at + timeout > time.monotonic():
        asyncio.get_running_loop().call_at(
            request.sent_at + timeout, _expire, future, request, timeout
        )
        return
    future.set_exception(TimeoutError())
