"""The arbiter's ``GameDataService``: every registered game's data (``premiere.game_data``)."""

from __future__ import annotations

from typing import Any

import grpc

import games
from premiere.game_data import game_data
from premiere_wire import game_data_pb2, game_data_pb2_grpc


class GameDataService(game_data_pb2_grpc.GameDataServiceServicer):
    """Needs no token: the data is the same for everyone."""

    async def GetGameData(
        self,
        request: game_data_pb2.GetGameDataRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> game_data_pb2.GetGameDataResponse:
        if request.game not in games.ids():
            await context.abort(
                grpc.StatusCode.NOT_FOUND,
                f"no game {request.game[:64]!r} (games: {', '.join(games.ids())})",
            )
        return game_data_pb2.GetGameDataResponse(data=game_data(request.game))

    async def ListGameData(
        self,
        request: game_data_pb2.ListGameDataRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> game_data_pb2.ListGameDataResponse:
        return game_data_pb2.ListGameDataResponse(
            games=[
                game_data_pb2.GameDataSummary(game=g, title=d.title, digest=d.digest)
                for g, d in ((g, game_data(g)) for g in games.ids())
            ]
        )
