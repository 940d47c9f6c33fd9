"""The ladder's service: its data for the servers (``Ladder``: each query of ``ladder.queries``
on a small connection pool, run in a worker thread so a standings refit never stalls the loop),
the gRPC ``LadderService``, the loop that rates finished matches (the only place any match is
rated) and the one that refreshes the exported per-player metrics.

The ``premiere ladder`` process runs them beside its HTTP server (``spectator.process``).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import grpc
from google.protobuf.timestamp_pb2 import Timestamp
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio  # type: ignore[attr-defined]
from grpc_reflection.v1alpha import reflection
from psycopg_pool import ConnectionPool

import games
from ladder import elo, queries
from ladder.config import LadderSettings
from ladder.metrics import PLAYERS
from ladder.metrics_snapshot import MetricsSnapshot, metrics_snapshot
from ladder.queries import BadRequest, NotFound, StandingsCache
from ladder.queue_watch import QueueWatch
from ladder.seats import SeatTable
from ladder.store import rate_queued
from premiere.clean_errors import CleanErrors
from premiere.config import Settings
from premiere.outcome import outcome_to_wire
from premiere.tls import add_port, server_options
from premiere_wire import ladder_pb2, ladder_pb2_grpc

log = logging.getLogger("premiere.ladder")

SERVICE = ladder_pb2.DESCRIPTOR.services_by_name["LadderService"].full_name

_T = TypeVar("_T")


class Ladder:
    """The ladder's data for the servers: each query on a pooled connection, in a thread."""

    def __init__(
        self, pool: ConnectionPool[Any], cache: StandingsCache, settle_s: float = 0.0
    ) -> None:
        self.pool = pool
        self.cache = cache
        self.settle_s = settle_s

    async def _run(self, query: Callable[..., _T], *args: Any) -> _T:
        def work() -> _T:
            with self.pool.connection() as conn:
                return query(conn, *args)

        return await asyncio.to_thread(work)

    @staticmethod
    def known(game: str) -> None:
        if game not in games.ids():
            raise NotFound(f"no game {game!r}; games: {', '.join(games.ids())}")

    async def games(self) -> list[dict[str, Any]]:
        def query(conn: Any) -> dict[str, int]:
            rows = conn.execute("SELECT game, last_seq - voided FROM ladders").fetchall()
            return {game: int(count) for game, count in rows}

        counts = await self._run(query)
        return [{"game": game, "rated_matches": counts.get(game, 0)} for game in games.ids()]

    async def leaderboard(self, game: str) -> queries.Leaderboard:
        self.known(game)
        return await self._run(queries.leaderboard, game, self.cache, elo.DEFAULT_PARAMS, False)

    async def history(
        self, game: str, player: str, limit: int, cursor: str = ""
    ) -> queries.RatingHistory:
        self.known(game)
        return await self._run(queries.rating_history, game, player, limit, cursor)

    async def matches(self, game: str, page_size: int, page_token: str) -> queries.MatchPage:
        self.known(game)
        return await self._run(queries.list_matches, game, page_size, page_token)

    async def seats(self, game: str) -> list[SeatTable]:
        self.known(game)
        return await self._run(queries.seat_advantage, game)

    async def versions(self, name: str) -> dict[str, Any]:
        return await self._run(queries.bot_versions, name, elo.DEFAULT_PARAMS)

    async def standing(self, name: str) -> dict[str, Any]:
        return await self._run(queries.bot_standing, name)

    async def leagues(
        self, game: str, format: str | None, limit: int = 50, cursor: str = ""
    ) -> tuple[list[dict[str, Any]], str]:
        self.known(game)
        return await self._run(queries.leagues_of, game, format, limit, cursor)

    async def league(self, key: str) -> dict[str, Any]:
        return await self._run(queries.league_progress, key)

    async def replay(self, match_id: str) -> queries.Replay:
        return await self._run(queries.replay, match_id)

    async def store_fits(self) -> int:
        """Store the standings fits that are ahead of their stored copies (a stop)."""
        return await self._run(self.cache.save_all)

    async def rate_and_refit(self) -> int:
        """Rate what is queued, then refit the standings of every ladder that moved (whoever
        rated its new matches), paced by ``StandingsCache.refresh``; requests are answered
        from the latest fit and never wait for one, except a game's very first."""
        rated = await self._run(rate_queued, elo.DEFAULT_PARAMS, self.settle_s)

        def refit(conn: Any) -> None:
            for (game,) in conn.execute("SELECT game FROM ladders ORDER BY game").fetchall():
                self.cache.refresh(conn, game)

        await self._run(refit)
        return rated


# --- gRPC -----------------------------------------------------------------------------------


def _timestamp(moment: datetime.datetime) -> Timestamp:
    stamp = Timestamp()
    stamp.FromDatetime(moment)
    return stamp


def leaderboard_message(board: queries.Leaderboard) -> ladder_pb2.GetLeaderboardResponse:
    response = ladder_pb2.GetLeaderboardResponse(
        game=board.game,
        rated_matches=board.rated_matches,
        standings_matches=board.standings_matches,
    )
    for entry in board.entries:
        row = response.entries.add(
            rank=entry.rank,
            player=entry.player,
            builtin=entry.builtin,
            elo=entry.elo,
            games=entry.games,
            provisional=entry.provisional,
            last_played=_timestamp(entry.last_played),
            reference=entry.reference,
            anchor=entry.anchor,
            hosted=entry.hosted,
        )
        if entry.standing is not None:
            row.standing.CopyFrom(
                ladder_pb2.Standing(
                    rating=entry.standing.rating,
                    low=entry.standing.low,
                    high=entry.standing.high,
                    stderr=entry.standing.stderr,
                )
            )
    return response


def history_message(history: queries.RatingHistory) -> ladder_pb2.GetRatingHistoryResponse:
    response = ladder_pb2.GetRatingHistoryResponse(
        game=history.game, player=history.player, builtin=history.builtin
    )
    for point in history.points:
        response.points.add(
            match_id=point.match_id,
            seq=point.seq,
            applied_at=_timestamp(point.applied_at),
            seat=point.seat,
            rank=point.rank,
            seats=point.seats,
            before=point.before,
            after=point.after,
            delta=point.delta,
            games=point.games,
        )
    return response


def matches_message(page: queries.MatchPage) -> ladder_pb2.ListMatchesResponse:
    response = ladder_pb2.ListMatchesResponse(next_page_token=page.next_page_token)
    for match in page.matches:
        message = response.matches.add(
            match_id=match.match_id,
            game=match.game,
            finished_at=_timestamp(match.finished_at),
            outcome=outcome_to_wire(match.outcome),
            rated=match.rated,
            seq=match.seq or 0,
            replay_url=match.replay_path,
        )
        for seat in match.seats:
            message.seats.add(
                seat=seat.seat,
                player=seat.player,
                builtin=seat.builtin,
                score=seat.score,
                rank=seat.rank,
                forfeited=seat.forfeited,
                rated=seat.rated,
                rating_before=seat.rating_before or 0.0,
                rating_delta=seat.rating_delta or 0.0,
            )
    return response


async def _answer(context: grpc.aio.ServicerContext[Any, Any], work: Awaitable[_T]) -> _T:
    try:
        return await work
    except NotFound as error:
        await context.abort(grpc.StatusCode.NOT_FOUND, str(error))
    except BadRequest as error:
        await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(error))
    raise AssertionError("unreachable: abort raises")


class LadderService(ladder_pb2_grpc.LadderServiceServicer):
    def __init__(self, ladder: Ladder) -> None:
        self.ladder = ladder

    async def GetLeaderboard(
        self,
        request: ladder_pb2.GetLeaderboardRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> ladder_pb2.GetLeaderboardResponse:
        board = await _answer(context, self.ladder.leaderboard(request.game))
        return leaderboard_message(board)

    async def GetRatingHistory(
        self,
        request: ladder_pb2.GetRatingHistoryRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> ladder_pb2.GetRatingHistoryResponse:
        history = await _answer(
            context, self.ladder.history(request.game, request.player, request.limit or 1000)
        )
        return history_message(history)

    async def ListMatches(
        self,
        request: ladder_pb2.ListMatchesRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> ladder_pb2.ListMatchesResponse:
        page = await _answer(
            context,
            self.ladder.matches(request.game, request.page_size or 20, request.page_token),
        )
        return matches_message(page)


def grpc_server(ladder: Ladder, address: str, shared: Settings) -> tuple[grpc.aio.Server, Any]:
    """The gRPC server of ``LadderService``, with health and reflection, bound to ``address``
    (not started); and its health servicer."""
    server = grpc.aio.server(interceptors=[CleanErrors()], options=server_options(shared))
    ladder_pb2_grpc.add_LadderServiceServicer_to_server(LadderService(ladder), server)
    health = health_aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    reflection.enable_server_reflection(
        (
            SERVICE,
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
            reflection.SERVICE_NAME,
        ),
        server,
    )
    if add_port(server, address, shared) == 0:
        raise SystemExit(f"cannot bind {address}")
    return server, health


# --- the loops ------------------------------------------------------------------------------


async def rate_loop(
    ladder: Ladder, interval: float, watch: QueueWatch, stop: asyncio.Event
) -> None:
    """A pass, then a wait for what comes first (``ladder.queue_watch``): a match finishing
    (one that finished during the pass has already been announced), or ``interval``."""
    while not stop.is_set():
        try:
            rated = await ladder.rate_and_refit()
            if rated:
                log.info("rated %d match(es)", rated)
        except Exception:
            log.exception("rating pass failed; trying again in %.1f s", interval)
        await watch.wait(interval, stop)


async def metrics_loop(
    pool: ConnectionPool[Any], settings: LadderSettings, stop: asyncio.Event
) -> None:
    """Keep the per-game and per-player gauges (``ladder.metrics.PLAYERS``) fresh."""
    while not stop.is_set():
        try:

            def query() -> MetricsSnapshot:
                with pool.connection() as conn:
                    return metrics_snapshot(conn, settings.metrics_top_players)

            PLAYERS.snapshot = await asyncio.to_thread(query)
        except Exception:
            log.exception("refreshing the per-player metrics failed")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), settings.metrics_refresh_s)
