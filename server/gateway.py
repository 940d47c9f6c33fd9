"""BotGatewayService: one authenticated, bidirectional stream per bot process."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import grpc

import games
from premiere_bot.wire import bot_gateway_pb2, bot_gateway_pb2_grpc
from server.router import Connection, Router
from server.store import Store

log = logging.getLogger("premiere.gateway")

HELLO_TIMEOUT_S = 10.0
SERVER = "premiere-arbiter/0.1"


def bearer_token(context: grpc.aio.ServicerContext[Any, Any]) -> str | None:
    for key, value in context.invocation_metadata() or ():
        if key.lower() == "authorization" and isinstance(value, str):
            scheme, _, token = value.partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
    return None


class BotGateway(bot_gateway_pb2_grpc.BotGatewayServiceServicer):
    def __init__(self, store: Store, router: Router) -> None:
        self.store = store
        self.router = router

    async def Connect(
        self,
        request_iterator: AsyncIterator[bot_gateway_pb2.ConnectRequest],
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> AsyncIterator[bot_gateway_pb2.ConnectResponse]:
        token = bearer_token(context)
        bot = await self.store.bot_by_token(token) if token else None
        if bot is None:
            await context.abort(
                grpc.StatusCode.UNAUTHENTICATED,
                "send 'authorization: Bearer <token>' with a token from `premiere bots add`",
            )
            return
        hello = await self._hello(request_iterator, context)
        conn = Connection(
            bot_id=bot["id"],
            bot_name=bot["name"],
            games=frozenset(hello.games),
            max_matches=max(1, hello.max_matches),
        )
        await self.router.add(conn)
        await self.store.record_hello(conn.bot_id, conn.games)
        log.info("bot %s connected (%s, %d at once)", conn.bot_name, hello.client, conn.max_matches)
        reader = asyncio.create_task(self._read(request_iterator, conn))
        try:
            yield bot_gateway_pb2.ConnectResponse(
                welcome=bot_gateway_pb2.Welcome(bot_name=conn.bot_name, server=SERVER)
            )
            while (message := await conn.outbox.get()) is not None:
                yield message
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
            await self.router.remove(conn)
            log.info("bot %s disconnected", conn.bot_name)

    async def _hello(
        self,
        request_iterator: AsyncIterator[bot_gateway_pb2.ConnectRequest],
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> bot_gateway_pb2.Hello:
        try:
            first = await asyncio.wait_for(anext(request_iterator), HELLO_TIMEOUT_S)
        except (TimeoutError, StopAsyncIteration):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "send a Hello first")
            raise AssertionError("unreachable") from None
        if first.WhichOneof("message") != "hello":
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "the first message is a Hello")
        unknown = sorted(set(first.hello.games) - set(games.ids()))
        if unknown:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"unknown games {unknown}; this arbiter hosts {list(games.ids())}",
            )
        return first.hello

    async def _read(
        self, request_iterator: AsyncIterator[bot_gateway_pb2.ConnectRequest], conn: Connection
    ) -> None:
        try:
            async for request in request_iterator:
                if request.WhichOneof("message") == "answer":
                    self.router.answer(conn, request.answer)
        except Exception as error:  # a broken stream: garbage bytes, reset, cancellation
            log.info("stream of %s failed: %r", conn.bot_name, error)
        finally:
            await self.router.remove(conn)
