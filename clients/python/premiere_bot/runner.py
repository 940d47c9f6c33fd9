"""Connecting a bot to an arbiter, answering its requests, and reconnecting with backoff."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import grpc

from premiere_bot.bot import Bot, Decision
from premiere_wire import bot_gateway_pb2, bot_gateway_pb2_grpc, game_pb2

log = logging.getLogger("premiere_bot")

CLIENT = "premiere-bot-python/0.1"


class AuthenticationError(RuntimeError):
    """The arbiter refused the token; retrying will not help."""


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
) -> None:
    """Play until `stop` is set (or forever); reconnects after any drop unless told not to.

    With `tls` (or a `ca`), the channel is TLS, trusting `ca` (PEM) or the system's roots.
    """
    stop = stop or asyncio.Event()
    backoff = Backoff()
    credentials = (
        grpc.ssl_channel_credentials(root_certificates=ca) if tls or ca is not None else None
    )
    while not stop.is_set():
        try:
            await _session(bot, arbiter, token, stop, backoff, credentials)
        except (AuthenticationError, RefusedError):
            raise
        except (grpc.aio.AioRpcError, ConnectionError, OSError) as error:
            log.warning("connection to %s lost: %s", arbiter, _describe(error))
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


async def _session(
    bot: Bot,
    arbiter: str,
    token: str,
    stop: asyncio.Event,
    backoff: Backoff,
    credentials: grpc.ChannelCredentials | None = None,
) -> None:
    outbox: asyncio.Queue[bot_gateway_pb2.ConnectRequest | None] = asyncio.Queue()
    hello = bot_gateway_pb2.Hello(
        games=list(bot.games), max_matches=max(1, bot.max_matches), client=CLIENT
    )
    await outbox.put(bot_gateway_pb2.ConnectRequest(hello=hello))

    async def requests() -> AsyncIterator[bot_gateway_pb2.ConnectRequest]:
        while (item := await outbox.get()) is not None:
            yield item

    tasks: set[asyncio.Task[None]] = set()
    async with _channel(arbiter, credentials) as channel:
        stub = bot_gateway_pb2_grpc.BotGatewayServiceStub(channel)
        call = stub.Connect(requests(), metadata=(("authorization", f"Bearer {token}"),))
        stopper = asyncio.create_task(_cancel_on(stop, call))
        try:
            async for message in call:
                kind = message.WhichOneof("message")
                if kind == "welcome":
                    backoff.reset()
                    log.info("connected to %s as %s", arbiter, message.welcome.bot_name)
                elif kind == "decision":
                    task = asyncio.create_task(_answer(bot, message.decision, outbox))
                    tasks.add(task)
                    task.add_done_callback(tasks.discard)
                elif kind == "match_started":
                    bot.match_started(message.match_started)
                elif kind == "match_ended":
                    bot.match_ended(message.match_ended)
                elif kind == "refused":
                    log.warning(
                        "answer %s refused: %s", message.refused.request_id, message.refused.reason
                    )
        except grpc.aio.AioRpcError as error:
            if error.code() == grpc.StatusCode.UNAUTHENTICATED:
                raise AuthenticationError(error.details()) from error
            if error.code() == grpc.StatusCode.INVALID_ARGUMENT:
                raise RefusedError(error.details()) from error
            if error.code() != grpc.StatusCode.CANCELLED or not stop.is_set():
                raise
        finally:
            stopper.cancel()
            for task in tasks:
                task.cancel()
            await outbox.put(None)


async def _cancel_on(stop: asyncio.Event, call: grpc.aio.StreamStreamCall[Any, Any]) -> None:
    await stop.wait()
    call.cancel()


async def _answer(
    bot: Bot,
    request: bot_gateway_pb2.DecisionRequest,
    outbox: asyncio.Queue[bot_gateway_pb2.ConnectRequest | None],
) -> None:
    try:
        if inspect.iscoroutinefunction(bot.decide):
            decision: Decision = await bot.decide(request)
        else:
            decision = await asyncio.to_thread(bot.decide, request)
    except Exception:
        log.exception(
            "decide() failed for %s; answering with the first legal move", request.request_id
        )
        decision = 0
    answer = bot_gateway_pb2.DecisionAnswer(request_id=request.request_id)
    if isinstance(decision, game_pb2.Move):
        answer.move.CopyFrom(decision)
    else:
        answer.legal_move_index = int(decision)
    await outbox.put(bot_gateway_pb2.ConnectRequest(answer=answer))
