"""`premiere ladder`: the gRPC LadderService, the same data as JSON over HTTP, /metrics, and a
loop that rates finished matches (the only place any match is rated), all in one asyncio loop.

HTTP routes (GET, JSON):

- ``/api/games``: every game with its number of rated matches.
- ``/api/games/{game}/data``: the game's data (cards, tiles, films, goals, scoring tables,
  options, digest), as GameDataService.GetGameData serves it on the arbiter.
- ``/api/games/{game}/leaderboard``: live Elo, official standing with its 95% interval, games
  played and the provisional flag of every rated player, best official standing first.
- ``/api/games/{game}/matches?page_size=20&page_token=``: finished matches, most recent first,
  with outcomes, rating changes and a replay link.
- ``/api/bots/{player}/history?game=...&limit=1000``: a player's live Elo after each of its
  rated matches (``player`` is a bot name or ``builtin:<name>``).
- ``/api/games/{game}/seats``: each seat's advantage (mean head-to-head score, 95% interval,
  Elo equivalent) by player count, from the finished matches (``ladder.seats``).
- ``/api/bots/{player}/versions``: the bot's lineage, each version with its predecessor,
  whether it is active, and its live Elo per game.
- ``/api/bots/{player}/standing``: the bot's standing (validating, failed, rated, probation,
  disabled) and every change of it, with the message its owner is given.
- ``/api/games/{game}/leagues?format=sprt``: the game's leagues, newest first, each as below.
- ``/api/leagues/{league}/progress``: a league's format, settings, rated or not, status, and
  the progress of a format that stops on its own (the SPRT's pairs, LLR, bounds and verdict).
- ``/api/matches/{id}/replay``: an ended match's seed, options, players and moves.
- ``/metrics`` (Prometheus) and ``/healthz``.
- ``/`` and ``/static/...``: the dashboard web page (``spectator.dashboard``); the replay, bot,
  league and live pages and their JSON (``spectator.pages``).

The queries are the plain synchronous functions of ``ladder.queries`` on a small connection
pool, run in worker threads so a standings refit never stalls the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime
import logging
import mimetypes
import re
import signal
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

import grpc
from aiohttp import hdrs, web
from google.protobuf.timestamp_pb2 import Timestamp
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio  # type: ignore[attr-defined]
from grpc_reflection.v1alpha import reflection
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest
from psycopg_pool import ConnectionPool

import games
from ladder import elo, queries
from ladder.config import LadderSettings
from ladder.metrics import PLAYERS
from ladder.queries import BadRequest, NotFound, StandingsCache
from ladder.queue_watch import QueueWatch
from ladder.seats import SeatTable
from ladder.store import rate_queued
from premiere.config import Settings
from premiere.tls import add_port, http_ssl_context, server_options
from premiere_wire import ladder_pb2, ladder_pb2_grpc, match_pb2_grpc
from server import game_data
from server.errors import CleanErrors
from server.outcome import outcome_to_wire
from spectator import dashboard, live, pages, profiles

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
    def _known(game: str) -> None:
        if game not in games.ids():
            raise NotFound(f"no game {game!r}; games: {', '.join(games.ids())}")

    async def games(self) -> list[dict[str, Any]]:
        def query(conn: Any) -> dict[str, int]:
            rows = conn.execute("SELECT game, last_seq - voided FROM ladders").fetchall()
            return {game: int(count) for game, count in rows}

        counts = await self._run(query)
        return [{"game": game, "rated_matches": counts.get(game, 0)} for game in games.ids()]

    async def leaderboard(self, game: str) -> queries.Leaderboard:
        self._known(game)
        return await self._run(queries.leaderboard, game, self.cache, elo.DEFAULT_PARAMS, False)

    async def history(self, game: str, player: str, limit: int) -> queries.RatingHistory:
        self._known(game)
        return await self._run(queries.rating_history, game, player, limit)

    async def matches(self, game: str, page_size: int, page_token: str) -> queries.MatchPage:
        self._known(game)
        return await self._run(queries.list_matches, game, page_size, page_token)

    async def seats(self, game: str) -> list[SeatTable]:
        self._known(game)
        return await self._run(queries.seat_advantage, game)

    async def versions(self, name: str) -> dict[str, Any]:
        return await self._run(queries.bot_versions, name, elo.DEFAULT_PARAMS)

    async def standing(self, name: str) -> dict[str, Any]:
        return await self._run(queries.bot_standing, name)

    async def leagues(self, game: str, format: str | None) -> list[dict[str, Any]]:
        self._known(game)
        return await self._run(queries.leagues_of, game, format)

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


# --- HTTP -----------------------------------------------------------------------------------


def plain(value: Any) -> Any:
    """A dataclass tree as JSON-ready values; times in ISO 8601."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            field.name: plain(getattr(value, field.name)) for field in dataclasses.fields(value)
        }
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value


def _integer(request: web.Request, name: str, default: int) -> int:
    text = request.query.get(name)
    if text is None or text == "":
        return default
    try:
        return int(text)
    except ValueError:
        raise BadRequest(f"{name} must be an integer, not {text!r}") from None


_BAD_CHARACTERS = re.compile("[\x00-\x1f\x7f\ud800-\udfff\ufffd]")


def clean_request(request: web.Request) -> bool:
    """Whether the decoded path and query hold no NUL, control character, lone surrogate or
    replacement of an invalid UTF-8 byte: no name, id or page token has one, and PostgreSQL
    refuses NUL in text."""
    try:
        texts = [request.path, *request.query.keys(), *request.query.values()]
    except (UnicodeError, ValueError):
        return False
    return not any(_BAD_CHARACTERS.search(text) for text in texts)


def http_app(ladder: Ladder, hub: live.LiveHub | None = None) -> web.Application:
    routes = web.RouteTableDef()

    @routes.get("/api/games")
    async def list_games(request: web.Request) -> web.Response:
        return web.json_response({"games": await ladder.games()})

    @routes.get("/api/games/{game}/data")
    async def get_game_data(request: web.Request) -> web.Response:
        game = request.match_info["game"]
        Ladder._known(game)
        return web.json_response(game_data.as_json(game))

    @routes.get("/api/games/{game}/leaderboard")
    async def get_leaderboard(request: web.Request) -> web.Response:
        board = await ladder.leaderboard(request.match_info["game"])
        return web.json_response(plain(board))

    @routes.get("/api/games/{game}/matches")
    async def get_matches(request: web.Request) -> web.Response:
        page = await ladder.matches(
            request.match_info["game"],
            _integer(request, "page_size", 20),
            request.query.get("page_token", ""),
        )
        body = plain(page)
        for match in body["matches"]:
            match["replay_url"] = match.pop("replay_path")
        return web.json_response(body)

    @routes.get("/api/games/{game}/seats")
    async def get_seats(request: web.Request) -> web.Response:
        game = request.match_info["game"]
        return web.json_response({"game": game, "by_players": plain(await ladder.seats(game))})

    @routes.get("/api/bots/{player}/versions")
    async def get_versions(request: web.Request) -> web.Response:
        return web.json_response(plain(await ladder.versions(request.match_info["player"])))

    @routes.get("/api/bots/{player}/standing")
    async def get_standing(request: web.Request) -> web.Response:
        return web.json_response(plain(await ladder.standing(request.match_info["player"])))

    @routes.get("/api/games/{game}/leagues")
    async def get_leagues(request: web.Request) -> web.Response:
        game = request.match_info["game"]
        found = await ladder.leagues(game, request.query.get("format") or None)
        return web.json_response({"game": game, "leagues": plain(found)})

    @routes.get("/api/leagues/{league}/progress")
    async def get_league_progress(request: web.Request) -> web.Response:
        return web.json_response(plain(await ladder.league(request.match_info["league"])))

    @routes.get("/api/bots/{player}/history")
    async def get_history(request: web.Request) -> web.Response:
        game = request.query.get("game")
        if not game:
            raise BadRequest("the game query parameter is required, e.g. ?game=movie-tricks")
        history = await ladder.history(
            game, request.match_info["player"], _integer(request, "limit", 1000)
        )
        return web.json_response(plain(history))

    @routes.get("/api/matches/{match_id:[^/]+}/replay")
    async def get_replay(request: web.Request) -> web.Response:
        return web.json_response(plain(await ladder.replay(request.match_info["match_id"])))

    @routes.get("/metrics")
    async def metrics(request: web.Request) -> web.Response:
        return web.Response(
            body=generate_latest(REGISTRY), headers={"Content-Type": CONTENT_TYPE_LATEST}
        )

    @routes.get("/healthz")
    async def healthz(request: web.Request) -> web.Response:
        return web.json_response({"status": "ok"})

    @web.middleware
    async def errors(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if not clean_request(request):
            log.warning(
                "refused %s %s: bad bytes in its path or query",
                request.method[:16],
                ascii(request.raw_path[:200]),
            )
            return web.json_response(
                {"error": "bad bytes in the path or query (NUL, control or invalid UTF-8)"},
                status=400,
            )
        try:
            return await handler(request)
        except NotFound as error:
            return web.json_response({"error": str(error)}, status=404)
        except BadRequest as error:
            return web.json_response({"error": str(error)}, status=400)

    app = web.Application(middlewares=[compress, errors])
    app.add_routes(routes)
    dashboard.add_routes(app)
    pages.add_routes(app, ladder)
    if hub is not None:
        live.add_routes(app, hub)
    return app


COMPRESSIBLE = (
    "text/html",
    "text/css",
    "text/plain",
    "application/json",
    "text/javascript",
    "application/javascript",
    "image/svg+xml",
)
"""Content types gzip-compressed for a client that accepts it (the event stream compresses
itself, event by event: ``spectator.live``)."""


CONDITIONAL = (hdrs.IF_NONE_MATCH, hdrs.IF_MODIFIED_SINCE, hdrs.IF_RANGE, hdrs.RANGE)


@web.middleware
async def compress(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Every page, script, style sheet and JSON answer gzip-compressed when the client
    accepts it."""
    response = await handler(request)
    accepts = "gzip" in request.headers.get(hdrs.ACCEPT_ENCODING, "").lower()
    if isinstance(response, web.FileResponse):
        kind = mimetypes.guess_type(request.path)[0]  # a file's type is set once it is sent
        # A browser revalidating a file it holds gets a bare 304, and one asking for a range
        # gets those bytes: compressing either sends a gzip body the client cannot take
        # (Chromium refuses the response, and the page load fails on a second visit).
        if any(h in request.headers for h in CONDITIONAL):
            kind = None
    else:
        kind = response.content_type
    # A body its handler already compressed (an ended replay, kept gzipped) goes as it is.
    packed = hdrs.CONTENT_ENCODING in response.headers
    if accepts and not packed and not response.prepared and kind in COMPRESSIBLE:
        response.enable_compression(web.ContentCoding.gzip)
    return response


# --- the process ----------------------------------------------------------------------------


def _split(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise SystemExit(f"not a host:port address: {address!r}")
    return host.strip("[]"), int(port)


async def _rate_loop(
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


async def _metrics_loop(
    pool: ConnectionPool[Any], settings: LadderSettings, stop: asyncio.Event
) -> None:
    """Keep the per-game and per-player gauges (``ladder.metrics.PLAYERS``) fresh."""
    while not stop.is_set():
        try:

            def query() -> profiles.MetricsSnapshot:
                with pool.connection() as conn:
                    return profiles.metrics_snapshot(conn, settings.metrics_top_players)

            PLAYERS.snapshot = await asyncio.to_thread(query)
        except Exception:
            log.exception("refreshing the per-player metrics failed")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), settings.metrics_refresh_s)


async def serve(
    database_url: str, settings: LadderSettings, stop: asyncio.Event | None = None
) -> None:
    """Run until ``stop`` is set or SIGTERM/SIGINT arrives."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)
    pool: ConnectionPool[Any] = ConnectionPool(
        database_url,
        min_size=1,
        max_size=4,
        kwargs={"autocommit": True},
        check=ConnectionPool.check_connection,
        open=False,
    )
    await asyncio.to_thread(pool.open, True, 30.0)
    cache = StandingsCache(exact_after_s=settings.exact_after_s)
    ladder = Ladder(pool, cache, settings.rate_settle_s)

    shared = Settings()
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
    if add_port(server, settings.grpc_address, shared) == 0:
        raise SystemExit(f"cannot bind {settings.grpc_address}")
    channel = live.arbiter_channel(shared)
    stub = match_pb2_grpc.MatchServiceStub(channel)
    hub = live.LiveHub(
        pool,
        lambda: stub,
        settings.max_live_matches,
        settings.max_live_viewers,
        settings.omniscient_delay_moves,
        settings.max_live_viewers_per_address,
        settings.max_live_matches_per_address,
    )
    runner = web.AppRunner(http_app(ladder, hub), access_log=None)
    await runner.setup()
    host, port = _split(settings.http_address)
    tls = http_ssl_context(shared, settings.http_address)
    site = web.TCPSite(runner, host, port, ssl_context=tls)
    await site.start()
    await server.start()
    watch = QueueWatch(database_url)
    rating = asyncio.create_task(_rate_loop(ladder, settings.rate_interval_s, watch, stop))
    exporting = asyncio.create_task(_metrics_loop(pool, settings, stop))
    for name in ("", SERVICE):
        await health.set(name, health_pb2.HealthCheckResponse.SERVING)
    log.info(
        "ladder listening: gRPC on %s, HTTP%s on %s; rating every %.1f s",
        settings.grpc_address,
        "S" if tls else "",
        settings.http_address,
        settings.rate_interval_s,
    )
    try:
        await stop.wait()
    finally:
        log.info("ladder stopping")
        await health.enter_graceful_shutdown()
        stop.set()
        await rating
        try:  # the folded fits not stored yet, so that the next start folds less
            await ladder.store_fits()
        except Exception:
            log.exception("could not store the standings on the way out")
        await watch.close()
        await exporting
        await server.stop(grace=1.0)
        await runner.cleanup()
        await channel.close(None)
        await asyncio.to_thread(pool.close)
