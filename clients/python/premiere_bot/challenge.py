"""Challenges on demand: ask the arbiter for a match now, against built-in bots or other bots
that accept challenges. The match is played on the bot's running connection (`run`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import grpc

from premiere_wire import bot_gateway_pb2, bot_gateway_pb2_grpc


class ChallengeRefused(RuntimeError):
    """The arbiter would not create the match; the message says why."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(f"{details} ({code.name})")
        self.code = code


async def challenge(
    arbiter: str,
    token: str,
    game: str,
    opponents: Sequence[str],
    *,
    rated: bool = False,
    seat: int = 0,
    options: Mapping[str, str] | None = None,
    credentials: grpc.ChannelCredentials | None = None,
) -> bot_gateway_pb2.ChallengeResponse:
    """Create a match of `game`: this bot in `seat`, `opponents` ("builtin:random", or bot
    names) in the other seats in order. Raises ChallengeRefused with the arbiter's reason."""
    request = bot_gateway_pb2.ChallengeRequest(
        game=game,
        opponents=list(opponents),
        rated=rated,
        seat=seat,
        options=dict(options or {}),
    )
    channel = (
        grpc.aio.insecure_channel(arbiter)
        if credentials is None
        else grpc.aio.secure_channel(arbiter, credentials)
    )
    async with channel:
        stub = bot_gateway_pb2_grpc.BotGatewayServiceStub(channel)
        try:
            reply: bot_gateway_pb2.ChallengeResponse = await stub.Challenge(
                request, metadata=(("authorization", f"Bearer {token}"),), timeout=30
            )
        except grpc.aio.AioRpcError as error:
            raise ChallengeRefused(error.code(), error.details() or "") from None
    return reply
