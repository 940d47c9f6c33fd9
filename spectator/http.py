"""The HTTP server of the ``premiere ladder`` process: the ladder's data as JSON, the pages, their
static files, /metrics and /healthz, every answer gzip-compressed for a client that accepts it.

Routes (GET, JSON unless said):

- ``/api/games``: every game with its number of rated matches.
- ``/api/games/{game}/data``: the game's data (cards, tiles, films, goals, scoring tables,
  options, digest), as GameDataService.GetGameData serves it on the arbiter.
- ``/api/games/{game}/leaderboard?limit=&cursor=``: live Elo, official standing with its 95%
  interval, games played and the provisional flag of every rated player, best official
  standing first.
- ``/api/games/{game}/matches?limit=20&cursor=``: finished matches, most recent first,
  with outcomes, rating changes and a replay link (``page_size`` and ``page_token`` are the
  old names of ``limit`` and ``cursor``).
- ``/api/bots/{player}/history?game=...&limit=1000&cursor=``: a player's live Elo after each
  of its rated matches (``player`` is a bot name or ``builtin:<name>``).
- ``/api/games/{game}/seats``: each seat's advantage (mean head-to-head score, 95% interval,
  Elo equivalent) by player count, from the finished matches (``ladder.seats``).
- ``/api/bots/{player}/versions``: the bot's lineage, each version with its predecessor,
  whether it is active, and its live Elo per game.
- ``/api/bots/{player}/standing``: the bot's standing (validating, failed, rated, probation,
  disabled) and every change of it, with the message its owner is given.
- ``/api/games/{game}/leagues?format=sprt&limit=&cursor=``: the game's leagues, newest first,
  each as below.
- ``/api/leagues/{league}/progress``: a league's format, settings, rated or not, status, and
  the progress of a format that stops on its own (the SPRT's pairs, LLR, bounds and verdict),
  with ``shown``, that progress as the pages draw it (labelled values, a verdict, a series).
- ``/api/matches/{id}/replay``: an ended match's seed, options, players and moves.
- ``/metrics`` (Prometheus) and ``/healthz``.
- ``/api/openapi.json`` and ``/api``: this API described (``spectator.openapi``).
- ``/`` and ``/static/...``: the dashboard web page (``spectator.dashboard``); the replay, bot,
  league and live pages and their JSON (``spectator.pages``, ``spectator.live``).

Each JSON route asks the ladder's service (``ladder.service.Ladder``) and sends its dataclasses
as they are (``spectator.plain``). Every route under /api/ is declared in
``spectator.api_routes`` (summary, answer, rate-limit class, largest page); lists page with
``?limit=`` and ``?cursor=``, answering ``next``. Each client is rate-limited per route class
(``spectator.ratelimit``).
"""

from __future__ import annotations

import logging
import mimetypes
import re
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import hdrs, web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from ladder.queries import BadRequest, NotFound, board_page
from ladder.service import Ladder
from premiere import game_data
from spectator import api_routes, dashboard, exports, live, openapi, pages, ratelimit
from spectator.api_routes import cursor, page_size
from spectator.plain import plain
from workers.planning import shown

log = logging.getLogger("premiere.ladder")


# --- HTTP -----------------------------------------------------------------------------------


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


def drawn(league: dict[str, Any]) -> Any:
    """A league as the JSON API sends it: with ``shown``, its progress as the pages draw it
    (``workers.formats.declaration.Shown``; null for a format that reports none)."""
    return plain({**league, "shown": shown(league["format"], league["progress"])})


def http_app(
    ladder: Ladder,
    hub: live.LiveHub | None = None,
    limits: ratelimit.RateLimits | None = None,
    limit_settings: ratelimit.RateLimitSettings | None = None,
) -> web.Application:
    """The app; with ``limits``, each client rate-limited per route class."""
    routes = web.RouteTableDef()

    @routes.get("/api/games")
    async def list_games(request: web.Request) -> web.Response:
        return web.json_response({"games": await ladder.games()})

    @routes.get("/api/games/{game}/data")
    async def get_game_data(request: web.Request) -> web.Response:
        game = request.match_info["game"]
        ladder.known(game)
        return web.json_response(game_data.as_json(game))

    @routes.get("/api/games/{game}/leaderboard")
    async def get_leaderboard(request: web.Request) -> web.Response:
        path = "/api/games/{game}/leaderboard"
        board = await ladder.leaderboard(request.match_info["game"])
        shown = board_page(board, page_size(request, path), cursor(request))
        return web.json_response({**plain(shown), "next": shown.next or None})

    @routes.get("/api/games/{game}/matches")
    async def get_matches(request: web.Request) -> web.Response:
        page = await ladder.matches(
            request.match_info["game"],
            page_size(request, "/api/games/{game}/matches", "page_size"),
            cursor(request, "page_token"),
        )
        body = plain(page)
        for match in body["matches"]:
            match["replay_url"] = match.pop("replay_path")
        return web.json_response({**body, "next": page.next_page_token or None})

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
        found, following = await ladder.leagues(
            game,
            request.query.get("format") or None,
            page_size(request, "/api/games/{game}/leagues"),
            cursor(request),
        )
        return web.json_response(
            {"game": game, "leagues": [drawn(item) for item in found], "next": following or None}
        )

    @routes.get("/api/leagues/{league}/progress")
    async def get_league_progress(request: web.Request) -> web.Response:
        return web.json_response(drawn(await ladder.league(request.match_info["league"])))

    @routes.get("/api/bots/{player}/history")
    async def get_history(request: web.Request) -> web.Response:
        game = request.query.get("game")
        if not game:
            raise BadRequest("the game query parameter is required, e.g. ?game=movie-tricks")
        history = await ladder.history(
            game,
            request.match_info["player"],
            page_size(request, "/api/bots/{player}/history"),
            cursor(request),
        )
        return web.json_response({**plain(history), "next": history.next or None})

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

    middlewares: list[Any] = [compress]
    if limits is not None:
        middlewares.append(ratelimit.middleware(limits, api_routes.cost_of))
    app = web.Application(middlewares=[*middlewares, errors])
    app.add_routes(routes)
    openapi.add_routes(app, limit_settings or ratelimit.RateLimitSettings.model_construct())
    dashboard.add_routes(app)
    pages.add_routes(app, ladder)
    exports.add_routes(app, ladder)
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
