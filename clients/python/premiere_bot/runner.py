"""Connecting a bot to an arbiter, answering its requests, and reconnecting with backoff."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import inspect
import logging
import random
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import grpc

from premiere_bot import entries
from premiere_bot.bot import Bot, Decision, answer_request, runs_inline
from premiere_wire import bot_gateway_pb2, bot_gateway_pb2_grpc, game_data_pb2, game_data_pb2_grpc

Listener = Callable[[bot_gateway_pb2.ConnectResponse], None]
"""Sees every message but decision requests: welcome, match news, refusals."""

ErrorListener = Callable[[bot_gateway_pb2.DecisionRequest, Exception], None]
"""Told of every exception `decide` raised (answered with the first legal move instead)."""

log = logging.getLogger("premiere_bot")

CLIENT = "premiere-bot-python/0.1"


class AuthenticationError(RuntimeError):
    """The arbiter refused the token; retrying will not help."""


class UnreachableError(ConnectionError):
    """The arbiter could not be reached at all (and reconnecting was not asked for)."""


class RefusedError(RuntimeError):
    """The arbiter refused the Hello (an unknown game, say); retrying will not help."""


@dataclass
class Backoff:
    """Exponential backoff with full jitter, reset after every successful connection."""

    initial: float = 0.2
    maximum: float = 10.0
    attempt: int = 0

    def next_delay(self) -> float:
        ceiling = min(self.maximum, self.initial * 2**self.attempt)
        self.attempt += 1
        return random.uniform(ceiling / 2, ceiling)

    def reset(self) -> None:
        self.attempt = 0


async def run(
    bot: Bot,
    arbiter: str,
    token: str,
    *,
    reconnect: bool = True,
    stop: asyncio.Event | None = None,
    tls: bool = False,
    ca: bytes | None = None,
    listener: Listener | None = None,
    on_error: ErrorListener | None = None,
) -> None:
    """Play until `stop` is set (or forever); reconnects after any drop unless told not to.

    With `tls` (or a `ca`), the channel is TLS, trusting `ca` (PEM) or the system's roots.
    Raises AuthenticationError or RefusedError at once (retrying would not help), and
    UnreachableError when the arbiter cannot be reached and `reconnect` is off. `on_error` is
    told of every exception `decide` raises, before its stand-in answer goes out.
    """
    stop = stop or asyncio.Event()
    backoff = Backoff()
    credentials = (
        grpc.ssl_channel_credentials(root_certificates=ca) if tls or ca is not None else None
    )
    with ThreadPoolExecutor(
        max_workers=max(8, bot.max_matches), thread_name_prefix="premiere-bot-decide"
    ) as pool:
        session = _Session(
            bot, arbiter, token, stop, backoff, credentials, pool, listener, on_error
        )
        while not stop.is_set():
            try:
                await session.run()
            except (AuthenticationError, RefusedError):
                raise
            except (grpc.aio.AioRpcError, ConnectionError, OSError) as error:
                if (
                    isinstance(error, grpc.aio.AioRpcError)
                    and not session.welcomed
                    and error.code() == grpc.StatusCode.UNAVAILABLE
                    and not reconnect
                ):
                    raise UnreachableError(
                        f"cannot reach the arbiter at {arbiter}: {error.details()}"
                    ) from error
                if session.welcomed:
                    log.warning("connection to %s lost: %s", arbiter, _describe(error))
                else:
                    log.warning("cannot reach the arbiter at %s: %s", arbiter, _describe(error))
            if not reconnect or stop.is_set():
                return
        delay = backoff.next_delay()
        log.info("reconnecting in %.1f s", delay)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), delay)


def _describe(error: Exception) -> str:
    if isinstance(error, grpc.aio.AioRpcError):
        return f"{error.code().name}: {error.details()}"
    return str(error)


def _channel(arbiter: str, credentials: grpc.ChannelCredentials | None) -> grpc.aio.Channel:
    if credentials is None:
        return grpc.aio.insecure_channel(arbiter)
    return grpc.aio.secure_channel(arbiter, credentials)


class _Session:
    """One connection at a time, on the thread pool of its `run`.

    Requests are read and answers written on the one call (`call.read` / `call.write`, as a
    bare gRPC client does). An inline bot is answered in the reading loop itself; an `async`
    bot in a task per decision; a plain bot on the pool, handed back to the loop by a
    callback (no task, no asyncio future).
    """

    def __init__(
        self,
        bot: Bot,
        arbiter: str,
        token: str,
        stop: asyncio.Event,
        backoff: Backoff,
        credentials: grpc.ChannelCredentials | None,
        pool: ThreadPoolExecutor,
        listener: Listener | None,
        on_error: ErrorListener | None = None,
    ) -> None:
        self.bot = bot
        self.arbiter = arbiter
        self.token = token
        self.stop = stop
        self.backoff = backoff
        self.credentials = credentials
        self.pool = pool
        self.listener = listener
        self.on_error = on_error
        self.data_stub: game_data_pb2_grpc.GameDataServiceAsyncStub | None = None
        self.welcomed = False
        self.asynchronous = inspect.iscoroutinefunction(
            bot.decide_raw
        ) or inspect.iscoroutinefunction(bot.decide)
        self.inline = runs_inline(bot) and not self.asynchronous

    async def run(self) -> None:
        self.welcomed = False
        hello = bot_gateway_pb2.Hello(
            games=list(self.bot.games),
            max_matches=max(1, self.bot.max_matches),
            client=CLIENT,
            accept_challenges=self.bot.accept_challenges,
            version=self.bot.version,
            batches=True,
        )
        tasks: set[asyncio.Task[None]] = set()
        async with _channel(self.arbiter, self.credentials) as channel:
            stub = bot_gateway_pb2_grpc.BotGatewayServiceStub(channel)
            self.data_stub = game_data_pb2_grpc.GameDataServiceStub(channel)
            call = stub.Connect(  # type: ignore[call-arg]
                metadata=(("authorization", f"Bearer {self.token}"),)
            )
            outbox = _Outbox(call, tasks)
            stopper = asyncio.create_task(_cancel_on(self.stop, call))
            try:
                await outbox.write(bot_gateway_pb2.ConnectRequest(hello=hello))
                await self._read(call, outbox, tasks)
            except grpc.aio.AioRpcError as error:
                if error.code() == grpc.StatusCode.UNAUTHENTICATED:
                    raise AuthenticationError(error.details()) from error
                if error.code() == grpc.StatusCode.INVALID_ARGUMENT:
                    raise RefusedError(error.details()) from error
                if error.code() != grpc.StatusCode.CANCELLED or not self.stop.is_set():
                    raise
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if not self.stop.is_set() or (task is not None and task.cancelling()):
                    raise
            finally:
                stopper.cancel()
                for task in tasks:
                    task.cancel()

    async def _read(
        self,
        call: grpc.aio.StreamStreamCall[Any, Any],
        outbox: _Outbox,
        tasks: set[asyncio.Task[None]],
    ) -> None:
        loop = asyncio.get_running_loop()
        while isinstance(message := await call.read(), bot_gateway_pb2.ConnectResponse):
            kind = message.WhichOneof("message")
            if kind == "decision":
                if self.inline:
                    await outbox.write(self._reply(message.decision, None))
                else:
                    self._answer(message.decision, outbox, tasks, loop)
                continue
            if kind == "decisions":
                requests = message.decisions.requests
                if self.inline:
                    await outbox.write(self._replies(requests))
                else:
                    for request in requests:
                        self._answer(request, outbox, tasks, loop)
                continue
            if kind == "welcome":
                self.welcomed = True
                outbox.batches = message.welcome.batches
                self.backoff.reset()
                log.info("connected to %s as %s", self.arbiter, message.welcome.bot_name)
            elif kind == "match_started":
                await self._fetch_game_data(message.match_started)
                self._callback(self.bot.match_started, message.match_started)
            elif kind == "match_ended":
                self._callback(self.bot.match_ended, message.match_ended)
            elif kind == "refused":
                refused = message.refused
                log.warning("answer %s refused: %s", refused.request_id, refused.reason)
            if self.listener is not None:
                self.listener(message)

    def _answer(
        self,
        request: bot_gateway_pb2.DecisionRequest,
        outbox: _Outbox,
        tasks: set[asyncio.Task[None]],
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        if self.inline:
            outbox.post(self._reply(request, None))
        elif self.asynchronous:
            task = loop.create_task(self._answer_async(request, outbox))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        else:
            self._answer_on_pool(request, outbox, loop)

    def _replies(
        self, requests: Iterable[bot_gateway_pb2.DecisionRequest]
    ) -> bot_gateway_pb2.ConnectRequest:
        """One AnswerBatch answering every request of a DecisionBatch (an inline bot)."""
        message = bot_gateway_pb2.ConnectRequest()
        message.answers.answers.extend(self._reply(r, None).answer for r in requests)
        return message

    async def _fetch_game_data(self, started: bot_gateway_pb2.MatchStarted) -> None:
        """The game's data, once per digest, before the match's first request is read: the
        typed views resolve card numbers with it (`premiere_bot.entries`)."""
        if self.data_stub is None or entries.known(started.game, started.game_data_digest):
            return
        try:
            reply = await self.data_stub.GetGameData(
                game_data_pb2.GetGameDataRequest(game=started.game), timeout=30
            )
        except grpc.aio.AioRpcError as error:
            log.warning("no game data for %s: %s", started.game, _describe(error))
            return
        entries.register(reply.data)

    @staticmethod
    def _callback(method: Callable[[Any], None], event: Any) -> None:
        """A bot's bug in match_started/match_ended is logged; the connection goes on."""
        try:
            method(event)
        except Exception:
            log.exception("%s raised; the connection goes on", method.__name__)

    def _reply(
        self, request: bot_gateway_pb2.DecisionRequest, decided: Future[Decision] | None
    ) -> bot_gateway_pb2.ConnectRequest:
        """The answer to `request`: decided now (inline), or the pool's `decided` outcome."""
        try:
            decision = self.bot.decide_raw(request) if decided is None else decided.result()
            return answer_request(request, decision)
        except Exception as error:
            return self._failed(request, error)

    def _failed(
        self, request: bot_gateway_pb2.DecisionRequest, error: Exception
    ) -> bot_gateway_pb2.ConnectRequest:
        log.error(
            "decide() failed for %s; answering with the first legal move",
            request.request_id,
            exc_info=error,
        )
        if self.on_error is not None:
            try:
                self.on_error(request, error)
            except Exception:
                log.exception("the decide-error listener raised")
        return answer_request(request, 0)

    def _answer_on_pool(
        self,
        request: bot_gateway_pb2.DecisionRequest,
        outbox: _Outbox,
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        def done(decided: Future[Decision]) -> None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(answered, decided)

        def answered(decided: Future[Decision]) -> None:
            outbox.post(self._reply(request, decided))

        self.pool.submit(self.bot.decide_raw, request).add_done_callback(done)

    async def _answer_async(
        self, request: bot_gateway_pb2.DecisionRequest, outbox: _Outbox
    ) -> None:
        try:
            decision = self.bot.decide_raw(request)
            if inspect.isawaitable(decision):
                decision = await decision
            reply = answer_request(request, decision)
        except Exception as error:
            reply = self._failed(request, error)
        await outbox.write(reply)


class _Outbox:
    """Writes on the call one at a time (gRPC allows one write in flight): a write while
    another is under way waits in a queue, and the writer in flight drains it, all the
    answers waiting in one AnswerBatch when the arbiter reads batches (`batches`, from its
    Welcome)."""

    def __init__(
        self, call: grpc.aio.StreamStreamCall[Any, Any], tasks: set[asyncio.Task[None]]
    ) -> None:
        self.call = call
        self.tasks = tasks
        self.pending: collections.deque[bot_gateway_pb2.ConnectRequest] = collections.deque()
        self.busy = False
        self.batches = False

    async def write(self, request: bot_gateway_pb2.ConnectRequest) -> None:
        if self.busy:
            self.pending.append(request)
            return
        self.busy = True
        try:
            await self.call.write(request)
            while self.pending:
                await self.call.write(self._next())
        except asyncio.InvalidStateError:
            self.pending.clear()
        finally:
            self.busy = False

    def _next(self) -> bot_gateway_pb2.ConnectRequest:
        """The next message to write: every waiting answer in one batch when it can be (only
        answers ever wait: the Hello is the first write, made with nothing in flight)."""
        if not self.batches or len(self.pending) == 1:
            return self.pending.popleft()
        message = bot_gateway_pb2.ConnectRequest()
        message.answers.answers.extend(item.answer for item in self.pending)
        self.pending.clear()
        return message

    def post(self, request: bot_gateway_pb2.ConnectRequest) -> None:
        """From a callback on the loop: written by the writer in flight, or by a new task."""
        if self.busy:
            self.pending.append(request)
            return
        task = asyncio.get_running_loop().create_task(self._write_quietly(request))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _write_quietly(self, request: bot_gateway_pb2.ConnectRequest) -> None:
        """A dropped call is the reading loop's to report."""
        with contextlib.suppress(grpc.aio.AioRpcError):
            await self.write(request)


async def _cancel_on(stop: asyncio.Event, call: grpc.aio.StreamStreamCall[Any, Any]) -> None:
    await stop.wait()
    call.cancel()
