"""The spectator's pages beside the dashboard: a match's visual replay, a bot's page, the
leagues, and the live matches. Each page is a static HTML file with its script (no build step,
the dashboard's Content-Security-Policy); the JSON it reads is served here too.

HTTP routes (GET):

- ``/replay/{match}`` (``?ply=N`` opens at a move): the visual replay; reads
  ``/api/matches/{match}/views`` (``spectator.replays``: the engine's views per ply, each frame
  sent as its changes, ``compact``).
- ``/bots/{player}``: a bot's ratings, recent matches and health; reads ``/api/bots/{player}``.
- ``/leagues`` and ``/leagues/{name}``: every league, one league's standings, rounds and
  matches; read ``/api/leagues`` and ``/api/leagues/{name}``.
- ``/live`` and ``/live/{match}``: running matches and one of them live; read ``/api/live``
  (each running match with its table now: the spectator's view, every seat's score, the
  seats to move) and the server-sent events of ``/api/live/{match}/events``
  (``spectator.live``).
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from aiohttp import web
from psycopg_pool import ConnectionPool

from spectator import profiles, replays
from spectator.dashboard import STATIC, page_headers

_T = TypeVar("_T")

REPLAYS_AT_ONCE = 2
CACHED_REPLAYS = 32

PAGES = {
    "/replay/{match_id}": "replay.html",
    "/bots/{player}": "bot.html",
    "/leagues": "leagues.html",
    "/leagues/{name}": "league.html",
    "/live": "live.html",
    "/live/{match_id}": "watch.html",
}


def _page(name: str) -> Callable[[web.Request], Any]:
    async def serve(request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / name, headers=page_headers())

    return serve


def add_routes(app: web.Application, ladder: Any) -> None:
    """``ladder`` is the ``ladder.app.Ladder`` whose connection pool the queries use."""

    async def run(query: Callable[..., _T], *args: Any) -> _T:
        pool: ConnectionPool[Any] = ladder.pool

        def work() -> _T:
            with pool.connection() as conn:
                return query(conn, *args)

        return await asyncio.to_thread(work)

    from ladder.app import plain  # the dataclass-to-JSON helper of the JSON API

    # An ended match's frames never change: the last few are kept, as JSON. Re-executing a
    # match is CPU work, so only a couple run at once, off the event loop and off the pool.
    ended: OrderedDict[str, bytes] = OrderedDict()
    replaying = asyncio.Semaphore(REPLAYS_AT_ONCE)

    async def views(request: web.Request) -> web.Response:
        match_id = request.match_info["match_id"]
        body = ended.get(match_id)
        if body is None:
            logged = await run(replays.load, match_id)
            async with replaying:
                found = await asyncio.to_thread(replays.build_views, logged)
            body = json.dumps(plain(replays.compact(found))).encode()
            if found.status in replays.ENDED:
                ended[match_id] = body
                while len(ended) > CACHED_REPLAYS:
                    ended.popitem(last=False)
        else:
            ended.move_to_end(match_id)
        response = web.Response(body=body, content_type="application/json")
        response.enable_compression()
        return response

    async def bot(request: web.Request) -> web.Response:
        found = await run(profiles.bot_profile, request.match_info["player"])
        return web.json_response(plain(found))

    async def leagues(request: web.Request) -> web.Response:
        return web.json_response({"leagues": plain(await run(profiles.list_leagues))})

    async def league(request: web.Request) -> web.Response:
        return web.json_response(plain(await run(profiles.league, request.match_info["name"])))

    # The running matches' tables, each re-executed once and then advanced move by move.
    running: dict[str, replays.Replica] = {}
    advancing = asyncio.Lock()

    def running_tables(conn: Any) -> list[dict[str, Any]]:
        matches = profiles.running_matches(conn)
        keys = [(m.match_id, m.game, m.decisions) for m in matches]
        now = replays.tables(conn, keys, running)
        return [{**plain(m), **now.get(m.match_id, {})} for m in matches]

    async def live(request: web.Request) -> web.Response:
        async with advancing:
            return web.json_response({"matches": await run(running_tables)})

    app.router.add_get("/api/matches/{match_id}/views", views)
    app.router.add_get("/api/bots/{player}", bot)
    app.router.add_get("/api/leagues", leagues)
    app.router.add_get("/api/leagues/{name}", league)
    app.router.add_get("/api/live", live)
    for path, name in PAGES.items():
        app.router.add_get(path, _page(name))
