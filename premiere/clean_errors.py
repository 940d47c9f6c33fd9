"""Clean errors for every RPC: an exception nobody meant to reach the client becomes INTERNAL
with a fixed message and one log line (no traceback, no internal class name); a request whose
bytes do not parse becomes INVALID_ARGUMENT."""

from __future__ import annotations

import inspect
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
from google.protobuf.message import DecodeError

log = logging.getLogger("premiere.errors")

INTERNAL = "internal error; the operator's log has the details"


def _safe_deserializer(inner: Callable[[bytes], Any] | None) -> Callable[[bytes], Any] | None:
    """Parse errors surface as BadMessage, which the handlers turn into INVALID_ARGUMENT."""
    if inner is None:
        return None

    def parse(raw: bytes) -> Any:
        try:
            return inner(raw)
        except DecodeError:
            return BadMessage()

    return parse


class BadMessage:
    """Stands in for a request whose bytes were not a valid message."""


async def _fail(context: grpc.aio.ServicerContext[Any, Any], method: str, error: Exception) -> None:
    if isinstance(error, grpc.aio.AbortError):
        raise error
    log.error("%s failed: %s", method, type(error).__name__)
    await context.abort(grpc.StatusCode.INTERNAL, INTERNAL)


async def _reject_bad(context: grpc.aio.ServicerContext[Any, Any], method: str) -> None:
    log.info("%s: a request that is not a valid message", method)
    await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "the request is not a valid message")


async def _checked_stream(
    requests: AsyncIterator[Any], context: grpc.aio.ServicerContext[Any, Any], method: str
) -> AsyncIterator[Any]:
    async for request in requests:
        if isinstance(request, BadMessage):
            await _reject_bad(context, method)
        yield request


class CleanErrors(grpc.aio.ServerInterceptor):  # type: ignore[type-arg]
    """Wraps each method's handler once: a wrapped handler is held by every call for its whole
    life, so one made per call cost every open stream its own closures (about half a KiB)."""

    def __init__(self) -> None:
        self._wrapped: dict[
            str, tuple[grpc.RpcMethodHandler[Any, Any], grpc.RpcMethodHandler[Any, Any]]
        ] = {}

    async def intercept_service(
        self,
        continuation: Callable[
            [grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler[Any, Any]]
        ],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any]:
        handler = await continuation(details)
        if handler is None:
            return None
        method = details.method
        cached = self._wrapped.get(method)
        if cached is not None and cached[0] is handler:
            return cached[1]
        wrapped = _wrap(handler, method)
        self._wrapped[method] = (handler, wrapped)
        return wrapped


def _wrap(handler: grpc.RpcMethodHandler[Any, Any], method: str) -> grpc.RpcMethodHandler[Any, Any]:
    deserialize = _safe_deserializer(handler.request_deserializer)
    for kind, make, clean in (
        ("unary_unary", grpc.unary_unary_rpc_method_handler, _unary),
        ("unary_stream", grpc.unary_stream_rpc_method_handler, _unary_stream),
        ("stream_stream", grpc.stream_stream_rpc_method_handler, _stream),
        ("stream_unary", grpc.stream_unary_rpc_method_handler, _stream),
    ):
        inner = getattr(handler, kind)
        if inner is not None:
            wrapped: grpc.RpcMethodHandler[Any, Any] = make(
                clean(inner, method), deserialize, handler.response_serializer
            )
            return wrapped
    return handler


def _unary(inner: Callable[..., Any], method: str) -> Callable[..., Any]:
    async def call(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
        if isinstance(request, BadMessage):
            await _reject_bad(context, method)
        try:
            return await inner(request, context)
        except Exception as error:
            await _fail(context, method, error)

    return call


def _unary_stream(inner: Callable[..., Any], method: str) -> Callable[..., Any]:
    async def call(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> AsyncIterator[Any]:
        if isinstance(request, BadMessage):
            await _reject_bad(context, method)
        try:
            if inspect.isasyncgenfunction(inner):
                async for response in inner(request, context):
                    yield response
            else:
                await inner(request, context)
        except Exception as error:
            await _fail(context, method, error)

    return call


def _stream(inner: Callable[..., Any], method: str) -> Callable[..., Any]:
    if inspect.isasyncgenfunction(inner):

        async def generate(
            requests: AsyncIterator[Any], context: grpc.aio.ServicerContext[Any, Any]
        ) -> AsyncIterator[Any]:
            try:
                async for response in inner(_checked_stream(requests, context, method), context):
                    yield response
            except Exception as error:
                await _fail(context, method, error)

        return generate

    async def run(requests: AsyncIterator[Any], context: grpc.aio.ServicerContext[Any, Any]) -> Any:
        try:
            return await inner(_checked_stream(requests, context, method), context)
        except Exception as error:
            await _fail(context, method, error)

    return run
