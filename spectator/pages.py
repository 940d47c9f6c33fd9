"""The spectator's pages beside the dashboard: a match's visual replay, a bot's page, the
leagues, and the live matches. Each page is a static HTML file with its script (no build step,
the dashboard's Content-Security-Policy); the JSON it reads is served here too.

HTTP routes (GET):

- ``/replay/{match}`` (``?ply=N`` opens at a move): the visual replay; reads
  ``/api/matches/{match}/views`` (``spectator.replays``: the engine's views per ply, each frame
  sent as its changes, ``compact``).
- ``/bots``: every bot with its standing and live ratings; reads ``/api/bots``.
- ``/authors/{name}``: an author's account and its bots with their standing and ratings;
  reads ``/api/authors/{name}``.
- ``/bots/{player}``: a bot's standing, versions, ratings, matches page by page (``?page=N``)
  with each one's rating change and faults, its latest faults with their matches, and its
  health; reads ``/api/bots/{player}``.
- ``/leagues`` and ``/leagues/{name}``: every league, one league's standings, rounds and
  matches; read ``/api/leagues`` and ``/api/leagues/{name}``.
- ``/events`` and ``/events/{name}``: every event (also on the home page), one event's rules,
  schedule, state, entrants, standings and a knockout's bracket; read ``/api/events`` and
  ``/api/events/{name}`` (``spectator.events``).
- ``/events/{name}/seasons/{season}/divisions/{division}``: one division of one season of a
  divisions event: its standings with the zones that go up and down, its tables with their
  replays or live pages, its neighbours; reads the same path under /api
  (``spectator.divisions``). An event, season or division that is not there is a 404 page
  saying which.
- ``/tv`` and ``/tv/{game}``: the TV channel, the live page of the match ``ladder.tv`` picks
  (one the operator pinned, else the highest-rated table), moving on by itself when it ends;
  reads ``/api/tv`` (or ``/api/tv/{game}``).
- ``/live`` and ``/live/{match}``: running matches and one of them live; read ``/api/live``
  (each running match with its table now: the spectator's view, every seat's score, the
  seats to move; ``waiting`` when it waits for a host or its bots rather than for a move)
  and the server-sent events of ``/api/live/{match}/events`` (``spectator.live``).
"""

from __future__ import annotations

import asyncio
import gzip
import html
import json
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import quote

from aiohttp import web
from psycopg_pool import ConnectionPool

import games
from ladder import tv as ladder_tv
from ladder.queries import BadRequest, NotFound
from spectator import events as event_pages
from spectator import profiles, replays
from spectator.api_routes import cursor, page_size
from spectator.dashboard import STATIC, page_headers
from spectator.divisions import division as division_detail
from spectator.ids import canonical_match_id
from spectator.leagues import league as league_detail
from spectator.leagues import list_leagues
from spectator.plain import plain
from spectator.running import running_matches

_T = TypeVar("_T")

REPLAYS_AT_ONCE = 2
"""Matches re-executed at once (CPU work, off the event loop)."""
REPLAYS_WAITING = 8
"""Further matches that may wait for a turn; more than that is refused (503) until one ends."""
CACHED_REPLAY_BYTES = 32 * 2**20
"""The ended replays kept, as gzip-compressed JSON, in bytes (the least recently read go
first); served compressed as they are kept, or unpacked for a client that takes no gzip."""


class Busy(Exception):
    pass


class ReplayBuilds:
    """An ended match's frames never change, so they are built once and kept (up to
    ``budget`` bytes); a match is built at most once at a time however many requests (and
    spellings of its id) ask for it meanwhile; at most ``at_once`` builds run together and
    ``waiting`` more wait, so neither the CPU nor the memory of the replays grows with the
    number of requests. ``build`` runs in a thread and returns (the body, whether the match has
    ended)."""

    def __init__(
        self,
        build: Callable[[str], tuple[bytes, bool]],
        at_once: int = REPLAYS_AT_ONCE,
        waiting: int = REPLAYS_WAITING,
        budget: int = CACHED_REPLAY_BYTES,
    ) -> None:
        self.build = build
        self.at_once = at_once
        self.waiting = waiting
        self.budget = budget
        self.slots = asyncio.Semaphore(at_once)
        self.kept: OrderedDict[str, bytes] = OrderedDict()
        self.kept_bytes = 0
        self.flights: dict[str, asyncio.Task[bytes]] = {}
        self.builds = 0

    async def get(self, match_id: str) -> bytes:
        body = self.kept.get(match_id)
        if body is not None:
            self.kept.move_to_end(match_id)
            return body
        flight = self.flights.get(match_id)
        if flight is None:
            if len(self.flights) >= self.at_once + self.waiting:
                raise Busy(f"{len(self.flights)} replays are being built; try again in a moment")
            flight = asyncio.create_task(self._build(match_id))
            self.flights[match_id] = flight
            flight.add_done_callback(lambda done: self._landed(match_id, done))
        return await asyncio.shield(flight)

    def _landed(self, match_id: str, done: asyncio.Task[bytes]) -> None:
        if self.flights.get(match_id) is done:
            del self.flights[match_id]
        if not done.cancelled():
            done.exception()  # retrieved: a waiter that went away must not leave it unseen

    async def _build(self, match_id: str) -> bytes:
        async with self.slots:
            self.builds += 1
            body, ended = await asyncio.to_thread(self.build, match_id)
        if ended and len(body) <= self.budget:
            self.kept[match_id] = body
            self.kept_bytes += len(body)
            while self.kept_bytes > self.budget:
                _, dropped = self.kept.popitem(last=False)
                self.kept_bytes -= len(dropped)
        return body


PAGES = {
    "/replay/{match_id:[^/]+}": "replay.html",
    "/bots": "bots.html",
    "/bots/{player}": "bot.html",
    "/authors/{name}": "author.html",
    "/leagues": "leagues.html",
    "/leagues/{name}": "league.html",
    "/events": "events.html",
    "/events/{name}": "event.html",
    "/live": "live.html",
    "/live/{match_id:[^/]+}": "watch.html",
    "/tv": "watch.html",
    "/tv/{game}": "watch.html",
}


NOT_FOUND = {
    "match": (
        "No such match",
        "There is no match {}: the link may be mistyped, or the match was never created.",
        "/live",
        "See the matches being played now",
    ),
    "league": (
        "No such league",
        "There is no league {}: the link may be mistyped.",
        "/leagues",
        "See every league",
    ),
}
"""What the not-found page says of a missing match or league: heading, sentence, and a link on."""


def not_found_page(kind: str, spelled: str) -> web.Response:
    """A page (status 404) that says, in words, that this match or league does not exist."""
    heading, sentence, href, link = NOT_FOUND[kind]
    return not_found_words(heading, sentence.format(repr(spelled[:80])), href, link)


def not_found_words(heading: str, sentence: str, href: str, link: str) -> web.Response:
    """The not-found page (status 404): ``heading``, ``sentence`` and a link on, as text."""
    text = (STATIC / "not_found.html").read_text()
    heading, sentence, href, link = (html.escape(v) for v in (heading, sentence, href, link))
    text = (
        text.replace("<title>Not found", f"<title>{heading}")
        .replace('<h1 id="title">Not found</h1>', f'<h1 id="title">{heading}</h1>')
        .replace('<h2 id="what">Nothing here</h2>', f'<h2 id="what">{heading}</h2>')
        .replace('<p id="why"></p>', f'<p id="why">{sentence}</p>')
        .replace(
            '<a id="back" href="/">Back to the leaderboards</a>',
            f'<a id="back" href="{href}">{link}</a>',
        )
    )
    headers = page_headers()
    del headers["Content-Type"]
    return web.Response(status=404, text=text, content_type="text/html", headers=headers)


def _page(
    name: str, exists: Callable[[str, str], Any] | None = None
) -> Callable[[web.Request], Any]:
    """Serve the static page ``name``; with ``exists`` (kind, key -> awaitable bool), first
    answer a proper not-found page for a match or league that is not there."""

    async def serve(request: web.Request) -> web.StreamResponse:
        spelled = request.match_info.get("match_id")
        league = request.match_info.get("name") if name == "league.html" else None
        if spelled is not None:
            try:
                canonical = canonical_match_id(spelled)
            except NotFound:
                return not_found_page("match", spelled)
            if exists is not None and not await exists("match", canonical):
                return not_found_page("match", spelled)
            if canonical != spelled:
                path = request.path[: -len(spelled)] + canonical
                raise web.HTTPPermanentRedirect(
                    request.rel_url.with_path(path).with_query(request.query)
                )
        if league is not None and exists is not None and not await exists("league", league):
            return not_found_page("league", league)
        return web.FileResponse(STATIC / name, headers=page_headers())

    return serve


DIVISION_API = "/api/events/{name}/seasons/{season}/divisions/{division}"
"""One division of one season of a divisions event; its page is the same path without /api."""


def _season_and_division(request: web.Request) -> tuple[int, int]:
    """The season and division a path names, each a whole number from 1 (else NotFound)."""
    found = []
    for key in ("season", "division"):
        text = request.match_info[key]
        if not text.isdigit() or len(text) > 6 or int(text) < 1:
            raise NotFound(f"no {key} {text[:20]!r}: {key}s are numbered from 1")
        found.append(int(text))
    return found[0], found[1]


def add_routes(app: web.Application, ladder: Any) -> None:
    """``ladder`` is the ``ladder.service.Ladder`` whose connection pool the queries use."""

    async def run(query: Callable[..., _T], *args: Any) -> _T:
        pool: ConnectionPool[Any] = ladder.pool

        def work() -> _T:
            with pool.connection() as conn:
                return query(conn, *args)

        return await asyncio.to_thread(work)

    def build(match_id: str) -> tuple[bytes, bool]:
        pool: ConnectionPool[Any] = ladder.pool
        with pool.connection() as conn:
            logged = replays.load(conn, match_id)
        found = replays.build_views(logged)
        body = json.dumps(plain(replays.compact(found))).encode()
        return gzip.compress(body, compresslevel=6), found.status in replays.ENDED

    built = ReplayBuilds(build)

    async def views(request: web.Request) -> web.Response:
        match_id = canonical_match_id(request.match_info["match_id"])
        try:
            packed = await built.get(match_id)
        except Busy as error:
            return web.json_response(
                {"error": str(error)}, status=503, headers={"Retry-After": "2"}
            )
        headers = {"Vary": "Accept-Encoding", "Content-Type": "application/json"}
        if "gzip" in request.headers.get("Accept-Encoding", "").lower():
            return web.Response(body=packed, headers={**headers, "Content-Encoding": "gzip"})
        return web.Response(body=await asyncio.to_thread(gzip.decompress, packed), headers=headers)

    async def bot(request: web.Request) -> web.Response:
        text = request.query.get("page") or "0"
        if not text.isdigit() or len(text) > 4:
            raise BadRequest(f"page must be a whole number, not {text[:20]!r}")
        found = await run(profiles.bot_profile, request.match_info["player"], None, int(text))
        return web.json_response(plain(found))

    async def bots(request: web.Request) -> web.Response:
        return web.json_response({"bots": plain(await run(profiles.list_bots))})

    async def author(request: web.Request) -> web.Response:
        return web.json_response(
            plain(await run(profiles.author_profile, request.match_info["name"]))
        )

    async def leagues(request: web.Request) -> web.Response:
        found, following = await run(
            list_leagues, page_size(request, "/api/leagues"), cursor(request)
        )
        return web.json_response({"leagues": plain(found), "next": following or None})

    async def league(request: web.Request) -> web.Response:
        text = request.query.get("since")
        if text is not None and (not text.isdigit() or len(text) > 6):
            raise BadRequest(f"since is a round number, not {text[:20]!r}")
        since = int(text) if text is not None else None
        found = await run(league_detail, request.match_info["name"], 50, since)
        return web.json_response({**plain(found), "since": since})

    # The running matches' tables, each re-executed once and then advanced move by move.
    running: dict[str, replays.Replica] = {}
    advancing = asyncio.Lock()

    def running_tables(conn: Any) -> list[dict[str, Any]]:
        matches = running_matches(conn)
        keys = [(m.match_id, m.game, m.decisions) for m in matches]
        now = replays.tables(conn, keys, running)
        stalled = replays.waiting(conn, [m.match_id for m in matches])
        return [
            {**plain(m), **now.get(m.match_id, {}), "waiting": m.match_id in stalled}
            for m in matches
        ]

    async def live(request: web.Request) -> web.Response:
        async with advancing:
            found = await run(running_tables)
        # Each game's title and display names once, so the small boards name what they show
        # as the full page does (a film's title, never its slug).
        shown = sorted({m["game"] for m in found if m["game"] in games.ids()})
        return web.json_response(
            {
                "matches": [
                    {**m, "title": games.get(m["game"]).title} if m["game"] in shown else m
                    for m in found
                ],
                "labels": {game: dict(games.get(game).labels()) for game in shown},
            }
        )

    app.router.add_get("/api/matches/{match_id:[^/]+}/views", views)
    app.router.add_get("/api/bots", bots)
    app.router.add_get("/api/bots/{player}", bot)
    app.router.add_get("/api/authors/{name}", author)
    app.router.add_get("/api/leagues", leagues)
    app.router.add_get("/api/leagues/{name}", league)

    async def events(request: web.Request) -> web.Response:
        found, following = await run(
            event_pages.list_events, page_size(request, "/api/events"), cursor(request)
        )
        return web.json_response({"events": plain(found), "next": following or None})

    async def event(request: web.Request) -> web.Response:
        return web.json_response(plain(await run(event_pages.event, request.match_info["name"])))

    async def division(request: web.Request) -> web.Response:
        season, number = _season_and_division(request)
        found = await run(
            division_detail,
            request.match_info["name"],
            season,
            number,
            page_size(request, DIVISION_API),
            cursor(request),
        )
        return web.json_response(plain(found))

    async def division_page(request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        try:
            season, number = _season_and_division(request)
            await run(division_detail, name, season, number, 1)
        except NotFound as error:
            said = str(error)
            if not await run(there, "event", name):
                return not_found_words(
                    "No such event",
                    f"There is no event {name[:80]!r}: the link may be mistyped.",
                    "/events",
                    "See every event",
                )
            return not_found_words(
                "No such division",
                f"{said[0].upper()}{said[1:]}.",
                f"/events/{quote(name, safe='')}",
                f"See the event {name[:80]}",
            )
        return web.FileResponse(STATIC / "division.html", headers=page_headers())

    app.router.add_get("/api/events", events)
    app.router.add_get("/api/events/{name}", event)
    app.router.add_get(DIVISION_API, division)
    app.router.add_get(DIVISION_API.removeprefix("/api"), division_page)

    async def tv(request: web.Request) -> web.Response:
        game = request.match_info.get("game")
        if game is not None and game not in games.ids():
            raise NotFound(f"no game {game[:40]!r}; games: {', '.join(games.ids())}")
        found = await run(ladder_tv.pick, game)
        if found is None:
            return web.json_response({"match": None, "game": game})
        return web.json_response(
            {"match": {**plain(found), "title": games.get(found.game).title}, "game": game}
        )

    app.router.add_get("/api/live", live)
    app.router.add_get("/api/tv", tv)
    app.router.add_get("/api/tv/{game}", tv)

    def there(conn: Any, kind: str, key: str) -> bool:
        table = {
            "match": "SELECT 1 FROM matches WHERE id = %s",
            "league": "SELECT 1 FROM leagues WHERE name = %s",
            "event": "SELECT 1 FROM events WHERE name = %s",
        }[kind]
        return conn.execute(table, (key,)).fetchone() is not None

    async def exists(kind: str, key: str) -> bool:
        return await run(there, kind, key)

    for path, name in PAGES.items():
        app.router.add_get(path, _page(name, exists))
