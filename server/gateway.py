"""BotGatewayService: one authenticated, bidirectional stream per bot process."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import grpc
import psycopg

import games
from premiere.admission import judge
from premiere_wire import bot_gateway_pb2, bot_gateway_pb2_grpc
from server.arbiter import Arbiter, BadRequest
from server.bots import VersionQuota, active_version, announce_version
from server.coalesce import frames, ready
from server.config import ArbiterSettings
from server.limits import LimitExceeded, Rate, Slots, peer_host
from server.quotas import BotOwner, Quotas
from server.router import Connection, Outgoing, Request, Router, TooManyStreams
from server.store import Store

log = logging.getLogger("premiere.gateway")

SERVER = "premiere-arbiter/0.1"
MAX_MATCHES = 64
"""A Hello's max_matches is capped: more slots than this only let a bot hog matches."""
MAX_HELLO_GAMES = 32
MAX_CLIENT_CHARS = 200
BUILTIN = "builtin:"


def bearer_token(context: grpc.aio.ServicerContext[Any, Any]) -> str | None:
    for key, value in context.invocation_metadata() or ():
        if key.lower() == "authorization" and isinstance(value, str):
            scheme, _, token = value.partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
    return None


def _cancel(task: asyncio.Task[Any]) -> None:
    task.cancel()


def _serialize_response(message: Outgoing | bytes) -> bytes:
    if isinstance(message, bytes):
        return message
    if isinstance(message, Request):
        return message.framed()
    return message.SerializeToString()


def add_to_server(gateway: BotGateway, server: grpc.aio.Server) -> None:
    """As the generated `add_BotGatewayServiceServicer_to_server`, except that a Connect
    response may be written already serialized: decision requests are built as bytes."""
    messages = bot_gateway_pb2
    handlers = {
        "Connect": grpc.stream_stream_rpc_method_handler(
            gateway.Connect,
            request_deserializer=messages.ConnectRequest.FromString,
            response_serializer=_serialize_response,
        ),
        "Challenge": grpc.unary_unary_rpc_method_handler(
            gateway.Challenge,
            request_deserializer=messages.ChallengeRequest.FromString,
            response_serializer=messages.ChallengeResponse.SerializeToString,
        ),
    }
    service = messages.DESCRIPTOR.services_by_name["BotGatewayService"].full_name
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service, handlers),))
    server.add_registered_method_handlers(service, handlers)  # type: ignore[attr-defined]


class BotGateway(bot_gateway_pb2_grpc.BotGatewayServiceServicer):
    def __init__(
        self,
        store: Store,
        router: Router,
        settings: ArbiterSettings | None = None,
        arbiter: Arbiter | None = None,
    ) -> None:
        self.store = store
        self.router = router
        self.settings = settings or ArbiterSettings()
        self.arbiter = arbiter
        self.peers = Slots(self.settings.max_streams_per_peer, "bot streams from one address")
        name = arbiter.owner if arbiter is not None else f"gateway/{uuid.uuid4().hex[:8]}"
        self.quotas = Quotas(store.database_url, name, self.settings)
        self._open: dict[int, Connection | None] = {}
        """Every stream from before its quota row is inserted until after it is deleted; its
        Connection once it is set up."""
        self._doomed: dict[int, str] = {}
        """Streams found retired while still being set up: refused once they are."""
        self._stream_ids = itertools.count(1)
        self._renewer: asyncio.Task[None] | None = None

    def _ensure_renewer(self) -> None:
        if self._renewer is None or self._renewer.done():
            self._renewer = asyncio.create_task(self._renew_loop(), name="stream-renewal")

    async def close(self) -> None:
        if self._renewer is not None:
            self._renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewer
        await asyncio.to_thread(self.quotas.close)

    async def _renew_loop(self) -> None:
        """Keep this arbiter's stream rows alive (the caps count them on every arbiter), and
        close the streams that may play no more (``Quotas.retired``) within
        ``retire_check_s`` of the change."""
        renewed = time.monotonic()
        while True:
            await asyncio.sleep(min(self.settings.retire_check_s, self.settings.lease_renew_s))
            held = list(self._open)
            try:
                if time.monotonic() - renewed >= self.settings.lease_renew_s:
                    renewed = time.monotonic()
                    await asyncio.to_thread(self.quotas.renew, held)
                out = await asyncio.to_thread(self.quotas.retired, held)
            except psycopg.Error as error:
                log.warning("stream renewal failed: %s", type(error).__name__)
                continue
            for stream, why in out.items():
                self._retire(stream, why)

    def _retire(self, stream: int, why: str) -> None:
        """Close the stream (or, still being set up, refuse it once it is): ``why`` it may play
        no more."""
        if stream not in self._open:
            return  # it ended meanwhile
        conn = self._open[stream]
        if conn is None:
            self._doomed[stream] = why
            return
        log.info("bot %s: stream closed, %s", conn.bot_name, why)
        conn.close_for(f"this stream may play no more: {why}", code="PERMISSION_DENIED")

    async def Connect(  # type: ignore[override]
        self,
        request_iterator: AsyncIterator[bot_gateway_pb2.ConnectRequest],
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> None:
        """Writes with `context.write` (not a generator), so that a stream closed for not
        reading can still be ended with a status from here."""
        token = bearer_token(context)
        bot = await self.store.bot_by_token(token) if token else None
        if bot is None:
            await context.abort(
                grpc.StatusCode.UNAUTHENTICATED,
                "send 'authorization: Bearer <token>' with a token from `premiere bots add`",
            )
            return
        # Every hosted bot of a runner comes from the runner's address: its streams are held
        # to the per-bot and per-account caps, and the runner's own count, not the peer's.
        peer = (
            contextlib.nullcontext()
            if bot["hosted"]
            else self.peers.take(peer_host(context.peer()))
        )
        name = bot["name"]
        try:
            with peer:
                serving = self._serve(bot, request_iterator, context)
                del bot  # held by `_serve` only while the stream is set up (see `_serve`)
                await serving
        except LimitExceeded as error:
            log.info("bot %s refused: %s", name, error)
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(error))

    async def Challenge(
        self,
        request: bot_gateway_pb2.ChallengeRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> bot_gateway_pb2.ChallengeResponse:
        """A match the bot asked for: checked here (who may be challenged, how many at once),
        then created like any other (`Arbiter.create`, which validates game and options)."""
        token = bearer_token(context)
        bot = await self.store.bot_by_token(token) if token else None
        if bot is None:
            await context.abort(
                grpc.StatusCode.UNAUTHENTICATED,
                "send 'authorization: Bearer <token>' with the bot's token",
            )
        assert bot is not None
        allowed = self.settings.challenges if self.arbiter is not None else "off"
        if allowed == "off":
            await context.abort(
                grpc.StatusCode.PERMISSION_DENIED, "this arbiter takes no challenges"
            )
        if request.rated and allowed != "rated":
            await context.abort(
                grpc.StatusCode.PERMISSION_DENIED,
                "this arbiter takes casual challenges only: ask without rated",
            )
        if request.game not in games.ids():
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"unknown game {request.game[:40]!r}; this arbiter hosts {list(games.ids())}",
            )
        # The token names the bot; its streams and its seat are its active version's (a
        # hosted run's token names its version itself).
        if bot["hosted"]:
            bot_id, bot_name = bot["id"], bot["name"]
        else:
            bot_id, bot_name = await asyncio.to_thread(
                active_version, self.store.database_url, bot["name"]
            )
        bot = {**bot, "id": bot_id, "name": bot_name}
        seats = await self._challenge_seats(bot, request, context)
        standings = await self.store.seat_standings([name for kind, name in seats if kind == "bot"])
        verdict = judge(
            request.game,
            [standings[name] if kind == "bot" else None for kind, name in seats],
            rated=request.rated,
        )
        if verdict.refused is not None:
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, verdict.refused)
        if not self.router.streams(bot["id"], request.game):
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION,
                f"open a Connect stream that plays {request.game[:40]} first: the match is"
                " played on it",
            )
        challenge = await self._reserve(BotOwner.of(bot), verdict.rated, context)
        assert self.arbiter is not None
        match_id: str | None = None
        refused: str | None = None
        try:
            match_id = await self.arbiter.create(
                request.game,
                dict(request.options),
                seats,
                rated=verdict.rated,
                unrated_reason=verdict.unrated_reason,
            )
        except BadRequest as error:
            refused = str(error)
        finally:
            # Before the bot hears the answer: a refused challenge must no longer count
            # against its caps when it asks again.
            await asyncio.to_thread(self.quotas.attach_challenge, challenge, match_id)
        if refused is not None:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, refused)
        assert match_id is not None
        log.info("bot %s challenged: match %s %s", bot["name"], match_id, seats)
        return bot_gateway_pb2.ChallengeResponse(
            match_id=match_id, rated=verdict.rated, unrated_reason=verdict.unrated_reason or ""
        )

    async def _reserve(
        self, owner: BotOwner, rated: bool, context: grpc.aio.ServicerContext[Any, Any]
    ) -> int:
        try:
            return await asyncio.to_thread(self.quotas.reserve_challenge, owner, rated)
        except LimitExceeded as error:
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(error))
            raise AssertionError("unreachable") from None

    async def _challenge_seats(
        self,
        bot: dict[str, Any],
        request: bot_gateway_pb2.ChallengeRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> list[tuple[str, str]]:
        if len(request.opponents) > MAX_HELLO_GAMES or request.seat > len(request.opponents):
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"name 1 to {MAX_HELLO_GAMES} opponents, and a seat no greater than their number",
            )
        if any("\x00" in name for name in request.opponents):
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT, "opponents may not contain NUL characters"
            )
        names = [n for n in request.opponents if not n.startswith(BUILTIN)]
        if bot["name"] in names:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT, "challenge other bots or built-in bots"
            )
        ids = await self.store.bots_by_name(names)
        if any(ids[name][0] == bot["id"] for name in names if name in ids):
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT, "challenge other bots or built-in bots"
            )
        for name in names:
            if name not in ids or not self.router.accepts_challenges(ids[name][0], request.game):
                await context.abort(
                    grpc.StatusCode.FAILED_PRECONDITION,
                    f"{name[:40]!r} does not accept {request.game[:40]} challenges now",
                )
        seats = [
            ("builtin", n.removeprefix(BUILTIN)) if n.startswith(BUILTIN) else ("bot", n)
            for n in request.opponents
        ]
        seats.insert(request.seat, ("bot", bot["name"]))
        return seats

    async def _serve(
        self,
        bot: dict[str, Any],
        request_iterator: AsyncIterator[bot_gateway_pb2.ConnectRequest],
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> None:
        hello = await self._hello(request_iterator, context)
        # Counted before a Hello's version is announced: a refused stream creates nothing.
        stream = next(self._stream_ids)
        self._open[stream] = None
        self._ensure_renewer()
        try:
            await asyncio.to_thread(
                self.quotas.open_stream, stream, BotOwner.of(bot), bot.get("token_hash", "")
            )
            conn = await self._join(bot, hello, stream, context)
            # An open stream lives for hours; what set it up is dropped, not kept in this frame
            # (an idle stream's memory is a benchmark goal: docs/capacity.md).
            del bot, hello
            await self._play(conn, request_iterator, context)
        finally:
            with contextlib.suppress(psycopg.Error):
                await asyncio.to_thread(self.quotas.close_stream, stream)
            self._open.pop(stream, None)
            self._doomed.pop(stream, None)

    async def _join(
        self,
        bot: dict[str, Any],
        hello: bot_gateway_pb2.Hello,
        stream: int,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> Connection:
        """The stream's Connection, routed to: refused (the call aborted) if the bot may not
        play."""
        try:
            if bot.get("hosted"):
                bot_id, bot_name = bot["id"], bot["name"]
            elif hello.version:
                bot_id, bot_name, created = await asyncio.to_thread(
                    announce_version,
                    self.store.database_url,
                    bot["name"],
                    hello.version,
                    True,
                    self.settings.max_versions_per_day,
                )
                if created:
                    log.info("bot %s: new version %s", bot["name"], bot_name)
            else:
                bot_id, bot_name = await asyncio.to_thread(
                    active_version, self.store.database_url, bot["name"]
                )
        except ValueError as error:
            code = grpc.StatusCode.INVALID_ARGUMENT
            if isinstance(error, VersionQuota):
                code = grpc.StatusCode.RESOURCE_EXHAUSTED
            await context.abort(code, str(error))
            raise AssertionError("unreachable") from None
        await asyncio.to_thread(self.quotas.retarget, stream, bot_id)
        conn = Connection(
            bot_id=bot_id,
            bot_name=bot_name,
            games=_claimed(bot, hello),
            max_matches=min(hello.max_matches, MAX_MATCHES),
            max_outbox=self.settings.max_outbox,
            refusals=Rate(self.settings.max_refusals_per_minute),
            accepts_challenges=hello.accept_challenges,
            batches=hello.batches,
        )
        # Retired while it was being set up (its token was checked before the change, or the
        # renewal loop found it before it had a Connection): refused before it plays.
        why: str | None = None
        with contextlib.suppress(psycopg.Error):
            why = (await asyncio.to_thread(self.quotas.retired, [stream])).get(stream)
        if why is None:
            try:
                await self.router.add(conn)
            except TooManyStreams as error:
                raise LimitExceeded(str(error)) from None
            self._open[stream] = conn
            why = self._doomed.pop(stream, None)
            if why is not None:
                await self.router.remove(conn)
        if why is not None:
            log.info("bot %s: stream refused, %s", bot_name, why)
            await context.abort(
                grpc.StatusCode.PERMISSION_DENIED, f"this stream may play no more: {why}"
            )
        await self.store.record_hello(
            conn.bot_id,
            conn.games,
            hello.player_counts,
            hello.accepts or "any",
            conn.max_matches,
        )
        task = asyncio.current_task()
        assert task is not None
        conn.kill = lambda: _cancel(task)
        if conn.closed:
            # Retired while its Hello was recorded (`close_for` found no task to cancel yet):
            # refused here, before its Welcome is written.
            await self.router.remove(conn)
            await context.abort(getattr(grpc.StatusCode, conn.close_code), conn.overflowed)
        log.info("bot %s connected (%r, %d at once)", conn.bot_name, hello.client, conn.max_matches)
        return conn

    async def _play(
        self,
        conn: Connection,
        request_iterator: AsyncIterator[bot_gateway_pb2.ConnectRequest],
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> None:
        reader = asyncio.create_task(self._read(request_iterator, conn))
        try:
            await context.write(
                bot_gateway_pb2.ConnectResponse(
                    welcome=bot_gateway_pb2.Welcome(
                        bot_name=conn.bot_name, server=SERVER, batches=conn.batches
                    )
                )
            )
            await self._write(conn, context)
        except asyncio.CancelledError:
            if not conn.overflowed:
                raise
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
            await self.router.remove(conn)
            log.info("bot %s disconnected", conn.bot_name)
        if conn.overflowed:
            log.warning("bot %s: stream closed: %s", conn.bot_name, conn.overflowed)
            await context.abort(getattr(grpc.StatusCode, conn.close_code), conn.overflowed)

    @staticmethod
    async def _write(conn: Connection, context: grpc.aio.ServicerContext[Any, Any]) -> None:
        """Drain the outbox onto the stream until it ends. A stream that takes batches gets
        what is ready at each write in as few messages as order allows (`server.coalesce`);
        any other stream gets one message per write, as it always did."""
        while (message := await conn.outbox.get()) is not None:
            if not conn.batches:
                if isinstance(message, Request):
                    message.sent_at = time.monotonic()
                await context.write(message)
                continue
            messages, ended = ready(message, conn.outbox)
            now = time.monotonic()
            for ready_message in messages:
                if isinstance(ready_message, Request):
                    ready_message.sent_at = now
            for frame in frames(messages):
                await context.write(frame)
            if ended:
                return

    async def _hello(
        self,
        request_iterator: AsyncIterator[bot_gateway_pb2.ConnectRequest],
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> bot_gateway_pb2.Hello:
        try:
            first = await asyncio.wait_for(anext(request_iterator), self.settings.hello_timeout_s)
        except (TimeoutError, StopAsyncIteration):
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"send a Hello first, within {self.settings.hello_timeout_s:g} s",
            )
            raise AssertionError("unreachable") from None
        if first.WhichOneof("message") != "hello":
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "the first message is a Hello")
        hello = first.hello
        if len(hello.games) > MAX_HELLO_GAMES or len(hello.client) > MAX_CLIENT_CHARS:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"a Hello names at most {MAX_HELLO_GAMES} games and {MAX_CLIENT_CHARS} client"
                " characters",
            )
        if len(hello.player_counts) > 8 or any(not 1 <= n <= 8 for n in hello.player_counts):
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT, "player_counts are table sizes from 1 to 8"
            )
        if hello.accepts not in ("", "any", "rated", "casual"):
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                'accepts is "any", "rated" or "casual" (or empty: any)',
            )
        if hello.max_matches < 1:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"Hello.max_matches must be at least 1 (at most {MAX_MATCHES} are used)",
            )
        unknown = sorted(set(hello.games) - set(games.ids()))
        if unknown:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"unknown games {[name[:40] for name in unknown[:5]]}; this arbiter hosts"
                f" {list(games.ids())}",
            )
        return hello

    async def _read(
        self, request_iterator: AsyncIterator[bot_gateway_pb2.ConnectRequest], conn: Connection
    ) -> None:
        try:
            async for request in request_iterator:
                kind = request.WhichOneof("message")
                if kind == "answer":
                    self.router.answer(conn, request.answer)
                elif kind == "answers":
                    self.router.answer_batch(conn, request.answers.answers)
                elif kind == "hello":
                    conn.close_for(
                        "a stream takes one Hello, as its first message; open another stream"
                        " to change games or capacity",
                        code="INVALID_ARGUMENT",
                    )
                    return
        except Exception as error:  # a broken stream: garbage bytes, reset, cancellation
            log.info("stream of %s failed: %s", conn.bot_name, type(error).__name__)
        finally:
            await self.router.remove(conn)


def _claimed(bot: dict[str, Any], hello: bot_gateway_pb2.Hello) -> frozenset[str]:
    """The games a stream plays: its Hello's, and for a hosted version never more than its
    bundle's manifest claims (a Hello of every game plays the manifest's)."""
    said = frozenset(hello.games)
    manifest = frozenset(bot.get("manifest_games") or ()) if bot.get("hosted") else frozenset()
    if not manifest:
        return said
    return (said & manifest) or manifest
