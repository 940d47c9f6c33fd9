"""What each JSON route of the ladder's HTTP server is: its summary, query parameters, answer,
rate-limit class and, for a list, its largest page. The OpenAPI description
(``/api/openapi.json``), the ``/api`` page and docs/api.md are all generated from these
declarations and the app's route table (``spectator.openapi``); a route under /api/ without a
declaration fails tests/spectator/test_api_hygiene.py.

Paged lists follow one convention: ``?limit=N`` (clamped to the route's largest page) and
``?cursor=`` (the ``next`` of the previous answer; null on the last page). A cursor is opaque
and names a keyset position, never an offset (``ladder.paging``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp import web

from ladder import paging
from ladder.errors import BadRequest

Cost = Literal["cheap", "expensive", "page"]


@dataclass(frozen=True, slots=True)
class Query:
    name: str
    description: str
    type: Literal["string", "integer"] = "string"
    required: bool = False


@dataclass(frozen=True, slots=True)
class Route:
    summary: str
    cost: Cost | None
    """The rate-limit class (``spectator.ratelimit``); None: never limited."""
    items: str | None = None
    """For a list: the answer's key holding the items."""
    max_page: int | None = None
    """For a paged list: the most items one answer holds (``limit`` is clamped to it)."""
    default_page: int | None = None
    query: tuple[Query, ...] = ()
    fields: dict[str, str] = field(default_factory=dict)
    """The answer's top-level keys and their JSON types."""
    media: str = "application/json"


def _paged(default: int, maximum: int) -> tuple[Query, ...]:
    return (
        Query(
            "limit",
            f"Items in one answer: {default} when absent, at most {maximum} (a larger"
            " value is clamped).",
            "integer",
        ),
        Query("cursor", "The `next` of the previous answer; absent for the first page."),
    )


def _list(
    summary: str,
    items: str,
    default: int,
    maximum: int,
    *,
    query: tuple[Query, ...] = (),
    fields: dict[str, str] | None = None,
) -> Route:
    return Route(
        summary,
        "cheap",
        items=items,
        max_page=maximum,
        default_page=default,
        query=query + _paged(default, maximum),
        fields={items: "array", "next": "string|null", **(fields or {})},
    )


PLAYER = "a bot name or builtin:<name>"

ROUTES: dict[str, Route] = {
    "/api": Route(
        "This page: every JSON route, its limits and its answer.", None, media="text/html"
    ),
    "/api/openapi.json": Route(
        "The OpenAPI 3.1 description of the JSON API.",
        None,
        fields={"openapi": "string", "paths": "object"},
    ),
    "/api/games": Route(
        "Every game with its number of rated matches.",
        "cheap",
        items="games",
        fields={"games": "array"},
    ),
    "/api/games/{game}/data": Route(
        "The game's data: cards, tiles, films, goals, scoring tables, options, digest.",
        "cheap",
        fields={"game": "string"},
    ),
    "/api/games/{game}/leaderboard": _list(
        "Every rated player: live Elo, official standing with its 95% interval, games played,"
        " provisional flag; best official standing first.",
        "entries",
        500,
        500,
        fields={
            "game": "string",
            "rated_matches": "integer",
            "standings_matches": "integer",
            "scale_moves": "array",
        },
    ),
    "/api/games/{game}/matches": _list(
        "Finished matches, most recent first, with outcomes, rating changes and a replay link.",
        "matches",
        20,
        200,
        query=(
            Query("page_size", "Old name of `limit`.", "integer"),
            Query("page_token", "Old name of `cursor`."),
        ),
        fields={"next_page_token": "string"},
    ),
    "/api/games/{game}/seats": Route(
        "Each seat's advantage by player count, from the latest finished matches.",
        "expensive",
        fields={"game": "string", "by_players": "array"},
    ),
    "/api/games/{game}/leagues": _list(
        "The game's leagues, newest first, each with its progress as the pages draw it.",
        "leagues",
        50,
        100,
        query=(Query("format", "Only leagues of this format, e.g. sprt."),),
        fields={"game": "string"},
    ),
    "/api/bots/{player}/history": _list(
        f"A player's ({PLAYER}) live Elo after each of its rated matches, oldest first; the"
        " first page holds the latest ones, and `next` goes back in time.",
        "points",
        1000,
        1000,
        query=(Query("game", "The game (required).", required=True),),
        fields={"game": "string", "player": "string", "builtin": "boolean"},
    ),
    "/api/bots/{player}/versions": Route(
        "The bot's lineage: each version, its predecessor, whether active, its live Elo per game.",
        "cheap",
        fields={"family": "string", "versions": "array"},
    ),
    "/api/bots/{player}/standing": Route(
        "The bot's standing and its last 100 changes, with the message its owner is given.",
        "cheap",
        fields={"bot": "string", "state": "string", "events": "array"},
    ),
    "/api/leagues/{league}/progress": Route(
        "A league's format, settings, status and the progress of a format that stops on its own.",
        "cheap",
        fields={"name": "string", "format": "string", "progress": "object", "shown": "object|null"},
    ),
    "/api/matches/{match_id}/replay": Route(
        "An ended match's seed, options, players and moves.",
        "expensive",
        fields={"match_id": "string", "game": "string", "seed": "string", "moves": "array"},
    ),
    "/api/matches/{match_id}/views": Route(
        "The engine's views of every frame of a match (the replay page), gzip-compressed.",
        "expensive",
        fields={"frames": "array"},
    ),
    "/api/bots": Route(
        "Every registered bot and version not removed, then the built-ins with a rated match"
        " (at most 1000 bots: not paged).",
        "cheap",
        items="bots",
        fields={"bots": "array"},
    ),
    "/api/bots/{player}": Route(
        "A bot's profile: ratings, recent matches (10 a page), forfeits and latency.",
        "cheap",
        query=(Query("page", "Page of the recent matches, from 0.", "integer"),),
        fields={"name": "string", "recent": "array", "page": "integer", "page_size": "integer"},
    ),
    "/api/authors/{name}": Route(
        "An account's public profile: its bots, matches, wins, recent matches and leagues.",
        "cheap",
        fields={"name": "string", "bots": "array"},
    ),
    "/api/leagues": _list("Leagues, newest first.", "leagues", 100, 100),
    "/api/leagues/{name}": Route(
        "One league: rounds, standings, recent progress.",
        "cheap",
        query=(Query("since", "Only the progress of rounds from this one.", "integer"),),
        fields={"name": "string", "since": "integer|null"},
    ),
    "/api/events": _list(
        "Events: those to come or running first (soonest start first), then the ended ones.",
        "events",
        100,
        100,
    ),
    "/api/events/{name}": Route(
        "One event: rules, schedule, state, entrants, standings, bracket.",
        "cheap",
        fields={"name": "string", "game": "string", "status": "string"},
    ),
    "/api/events/{name}/seasons/{season}/divisions/{division}": _list(
        "One division of one season of a divisions event: where it sits, its table best first"
        " (place, bot, owner, points, games, the move at the season's end or the zone it is in),"
        " the points a table's places earn, its neighbours, and its tables newest round first"
        " (a running one by its match id only).",
        "matches",
        200,
        500,
        fields={
            "event": "string",
            "season": "integer",
            "division": "integer",
            "divisions": "integer",
            "over": "boolean",
            "standings": "array",
        },
    ),
    "/api/live": Route(
        "The matches running now (at most 100, most recently started first: not paged), with"
        " their tables.",
        "cheap",
        items="matches",
        fields={"matches": "array", "labels": "object"},
    ),
    "/api/tv": Route(
        "The match the TV channel shows now, of any game.",
        "cheap",
        fields={"match": "object|null", "game": "string|null"},
    ),
    "/api/tv/{game}": Route(
        "The match the TV channel of one game shows now.",
        "cheap",
        fields={"match": "object|null", "game": "string|null"},
    ),
    "/api/live/{match_id}/events": Route(
        "A running match's spectator view as server-sent events.",
        "expensive",
        media="text/event-stream",
    ),
    "/api/exports": Route(
        "The monthly export files (one per game, month and format): each file's name, game,"
        " month, format, schema version, match count, bytes and SHA-256; download them from"
        " /exports/{file}.",
        "cheap",
        items="files",
        fields={"formats": "array", "files": "array"},
    ),
    "/api/games/{game}/export": Route(
        "Every ended match of the game as NDJSON, one record a line (the export schema of"
        " docs/research.md), oldest first, streamed; at most two streams at once, a third"
        " is answered 503 with Retry-After.",
        "expensive",
        query=(
            Query("since", "Only matches that ended at or after this ISO 8601 date or instant."),
            Query("until", "Only matches that ended before this ISO 8601 date or instant."),
        ),
        media="application/x-ndjson",
    ),
}
"""Every route under /api, by its canonical path."""

UNLIMITED = ("/metrics", "/healthz")


def canonical(request: web.Request) -> str | None:
    """The matched route's path with its parameters named (``/api/bots/{player}``)."""
    resource = request.match_info.route.resource
    return resource.canonical if resource is not None else None


def cost_of(request: web.Request) -> Cost | None:
    """A request's rate-limit class: its declaration's; a path no route matched is cheap;
    /metrics, /healthz and the static files (a page load fetches a dozen, each a file sent as
    it is) are never limited; the rest (the pages) ``page``."""
    path = canonical(request)
    if path is None:
        return "cheap"
    if path in ROUTES:
        return ROUTES[path].cost
    if path in UNLIMITED:
        return None
    if path.startswith("/static"):
        return None
    return "page"


def json_routes(app: web.Application) -> list[str]:
    """The canonical paths of the app's routes under /api (and /api itself)."""
    found = []
    for resource in app.router.resources():
        path = resource.canonical
        if path == "/api" or path.startswith("/api/"):
            found.append(path)
    return sorted(set(found))


def undeclared(app: web.Application) -> list[str]:
    """The app's /api routes that have no declaration here."""
    return [path for path in json_routes(app) if path not in ROUTES]


def page_size(request: web.Request, path: str, legacy: str | None = None) -> int:
    """The page size a request asks of the list at ``path``: ``limit`` (or its old name),
    its declared default when absent, clamped to its declared largest page."""
    route = ROUTES[path]
    assert route.max_page is not None and route.default_page is not None
    text = request.query.get("limit") or (request.query.get(legacy) if legacy else None)
    if not text:
        return route.default_page
    try:
        wanted = int(text)
    except ValueError:
        raise BadRequest(f"limit must be an integer, not {text[:20]!r}") from None
    return paging.clamp(wanted, route.max_page)


def cursor(request: web.Request, legacy: str | None = None) -> str:
    return request.query.get("cursor") or (request.query.get(legacy, "") if legacy else "")


def answer_schema(route: Route) -> dict[str, Any]:
    """The JSON schema of an answer: its top-level keys and their types (more keys may come)."""
    properties: dict[str, Any] = {}
    for key, kind in route.fields.items():
        types = kind.split("|")
        properties[key] = {"type": types[0] if len(types) == 1 else types}
    return {"type": "object", "properties": properties, "additionalProperties": True}
