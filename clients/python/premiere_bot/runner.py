"""Connecting a bot to an arbiter, answering its requests, and reconnecting with backoff."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import random
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import grpc

from premiere_bot.bot import Bot, Decision, answer
from premiere_wire import bot_gateway_pb2, bot_gateway_pb2_grpc

Listener = Callable[[bot_gateway_pb2.ConnectResponse], None]
"""Sees every message but decision requests: welcome, match news, refusals."""

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
) -> None:
    """Play until `stop` is set (or forever); reconnects after any drop unless told not to.

    With `tls` (or a `ca`), the channel is TLS, trusting `ca` (PEM) or the system's roots.
    Raises AuthenticationError or RefusedError at once (retrying would not help), and
    UnreachableError when the arbiter cannot be reached and `reconnect` is off.
    """
    stop = stop or asyncio.Event()
    backoff = Backoff()
    credentials = (
        grpc.ssl_channel_credentials(root_certificates=ca) if tls or ca is not None else None
    )
    with ThreadPoolExecutor(
        max_workers=max(8, bot.max_matches), thread_name_prefix="premiere-bot-decide"
    ) as pool:
        session = _Session(bot, arbiter, token, stop, backoff, credentials, pool, listener)
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
    """One connection at a time, on the thread pool of its `run`."""

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
    ) -> None:
        self.bot = bot
        self.arbiter = arbiter
        self.token = token
        self.stop = stop
        self.backoff = backoff
        self.credentials = credentials
        self.pool = pool
        self.listener = listener
        self.welcomed = False
        self.asynchronous = inspect.iscoroutinefunction(
            bot.decide_raw
        ) or inspect.iscoroutinefunction(bot.decide)

    async def run(self) -> None:
        self.welcomed = False
        outbox: asyncio.Queue[bot_gateway_pb2.ConnectRequest | None] = asyncio.Queue()
        hello = bot_gateway_pb2.Hello(
            games=list(self.bot.games),
            max_matches=max(1, self.bot.max_matches),
            client=CLIENT,
            accept_challenges=self.bot.accept_challenges,
            version=self.bot.version,
        )
        await outbox.put(bot_gateway_pb2.ConnectRequest(hello=hello))

        async def requests() -> AsyncIterator[bot_gateway_pb2.ConnectRequest]:
            while (item := await outbox.get()) is not None:
                yield item

        tasks: set[asyncio.Task[None]] = set()
        async with _channel(self.arbiter, self.credentials) as channel:
            stub = bot_gateway_pb2_grpc.BotGatewayServiceStub(channel)
            call = stub.Connect(requests(), metadata=(("authorization", f"Bearer {self.token}"),))
            stopper = asyncio.create_task(_cancel_on(self.stop, call))
            try:
                async for message in call:
                    kind = message.WhichOneof("message")
                    if kind == "decision":
                        task = asyncio.create_task(self._answer(message.decision, outbox))
                        tasks.add(task)
                        task.add_done_callback(tasks.discard)
                        continue
                    if kind == "welcome":
                        self.welcomed = True
                        self.backoff.reset()
                        log.info("connected to %s as %s", self.arbiter, message.welcome.bot_name)
                    elif kind == "match_started":
                        self._callback(self.bot.match_started, message.match_started)
                    elif kind == "match_ended":
                        self._callback(self.bot.match_ended, message.match_ended)
                    elif kind == "refused":
                        refused = message.refused
                        log.warning("answer %s refused: %s", refused.request_id, refused.reason)
                    if self.listener is not None:
                        self.listener(message)
            except grpc.aio.AioRpcError as error:
                if error.code() == grpc.StatusCode.UNAUTHENTICATED:
                    raise AuthenticationError(error.details()) from error
                if error.code() == grpc.StatusCode.INVALID_ARGUMENT:
                    raise RefusedError(error.details()) from error
                if error.code() != grpc.StatusCode.CANCELLED or not self.stop.is_set():
                    raise
            finally:
                stopper.cancel()
                for task in tasks:
                    task.cancel()
                await outbox.put(None)

    @staticmethod
    def _callback(method: Callable[[Any], None], event: Any) -> None:
        """A bot's bug in match_started/match_ended is logged; the connection goes on."""
        try:
            method(event)
        except Exception:
            log.exception("%s raised; the connection goes on", method.__name__)

    async def _answer(
        self,
        request: bot_gateway_pb2.DecisionRequest,
        outbox: asyncio.Queue[bot_gateway_pb2.ConnectRequest | None],
    ) -> None:
        try:
            if self.asynchronous:
                decision: Decision = self.bot.decide_raw(request)
                if inspect.isawaitable(decision):
                    decision = await decision
            else:
                loop = asyncio.get_running_loop()
                decision = await loop.run_in_executor(self.pool, self.bot.decide_raw, request)
            reply = answer(request, decision)
        except Exception:
            log.exception(
                "decide() failed for %s; answering with the first legal move", request.request_id
            )
            reply = answer(request, 0)
        await outbox.put(bot_gateway_pb2.ConnectRequest(answer=reply))


async def _cancel_on(stop: asyncio.Event, call: grpc.aio.StreamStreamCall[Any, Any]) -> None:
    await stop.wait()
    call.cancel()
