"""The JSON API described: an OpenAPI 3.1 document, the ``/api`` page and docs/api.md, each
generated from the app's route table and the declarations of ``spectator.api_routes``.

``python -m spectator.openapi`` prints docs/api.md (tests check that the file is up to date).
"""

from __future__ import annotations

import html
import re
from typing import Any

from aiohttp import web

from spectator.api_routes import ROUTES, Route, answer_schema, json_routes
from spectator.ratelimit import RateLimitSettings

PARAMETER = re.compile(r"{([^}]+)}")

ERROR = {
    "type": "object",
    "properties": {"error": {"type": "string"}},
    "required": ["error"],
}
RATE_LIMITED = {
    "type": "object",
    "properties": {
        "error": {"const": "rate_limited"},
        "limit": {"type": "string"},
        "retry_after": {"type": "integer", "minimum": 1},
    },
    "required": ["error", "limit", "retry_after"],
}


def limits_of(settings: RateLimitSettings) -> dict[str, str]:
    return {"cheap": settings.cheap, "expensive": settings.expensive, "page": settings.pages}


def _operation(path: str, route: Route, limits: dict[str, str]) -> dict[str, Any]:
    parameters: list[dict[str, Any]] = [
        {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
        for name in PARAMETER.findall(path)
    ]
    parameters += [
        {
            "name": q.name,
            "in": "query",
            "required": q.required,
            "description": q.description,
            "schema": {"type": q.type},
        }
        for q in route.query
    ]
    body: dict[str, Any] = (
        {"schema": answer_schema(route)} if route.media == "application/json" else {}
    )
    responses: dict[str, Any] = {
        "200": {"description": "OK", "content": {route.media: body}},
        "400": {"$ref": "#/components/responses/BadRequest"},
        "404": {"$ref": "#/components/responses/NotFound"},
    }
    operation: dict[str, Any] = {
        "operationId": "get" + re.sub(r"[^A-Za-z0-9]+", "_", path).rstrip("_"),
        "summary": route.summary,
        "parameters": parameters,
        "responses": responses,
    }
    if route.cost is not None:
        responses["429"] = {"$ref": "#/components/responses/RateLimited"}
        operation["x-rate-limit"] = {"class": route.cost, "limit": limits[route.cost]}
    if route.max_page is not None:
        operation["x-max-page-size"] = route.max_page
    return operation


def document(app: web.Application, settings: RateLimitSettings | None = None) -> dict[str, Any]:
    """The OpenAPI 3.1 description of the app's declared /api routes."""
    limits = limits_of(settings or RateLimitSettings.model_construct())
    paths = {
        path: {"get": _operation(path, ROUTES[path], limits)}
        for path in json_routes(app)
        if path in ROUTES
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Premiere ladder API",
            "version": "1",
            "description": (
                "The ladder's data as JSON. Lists page with ?limit= (clamped to the route's"
                " x-max-page-size) and ?cursor= (the previous answer's `next`, null on the last"
                " page). Each client is rate-limited per route class (x-rate-limit); past the"
                " limit the answer is 429 with Retry-After."
            ),
        },
        "paths": paths,
        "components": {
            "schemas": {"Error": ERROR, "RateLimited": RATE_LIMITED},
            "responses": {
                "BadRequest": {
                    "description": "A malformed parameter or cursor.",
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}
                    },
                },
                "NotFound": {
                    "description": "No such game, bot, match or league.",
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}
                    },
                },
                "RateLimited": {
                    "description": "Over this client's limit for the route's class.",
                    "headers": {
                        "Retry-After": {
                            "description": "Seconds to wait.",
                            "schema": {"type": "integer"},
                        }
                    },
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/RateLimited"}}
                    },
                },
            },
        },
    }


def _rows(limits: dict[str, str]) -> list[tuple[str, str, str, str, str]]:
    rows = []
    for path, route in ROUTES.items():
        limit = f"{route.cost}: {limits[route.cost]}" if route.cost else "none"
        page = str(route.max_page) if route.max_page else ""
        answer = ", ".join(f"{key} ({kind})" for key, kind in route.fields.items()) or route.media
        rows.append((path, route.summary, limit, page, answer))
    return rows


def markdown(settings: RateLimitSettings | None = None) -> str:
    """docs/api.md."""
    limits = limits_of(settings or RateLimitSettings.model_construct())
    lines = [
        "# The JSON API",
        "",
        "The `premiere ladder` process serves the ladder's data as JSON over HTTP (GET only).",
        "The same list, with each answer's schema, is served as OpenAPI 3.1 at",
        "`/api/openapi.json`, and as a page at `/api`. This file is generated:",
        "`python -m spectator.openapi > docs/api.md`.",
        "",
        "## Paging",
        "",
        "A list answers at most its largest page of items. Ask for fewer with `?limit=N` (a",
        "larger `N` is clamped to the largest page); the answer's `next` is the cursor of the",
        "following page (`?cursor=...`), null on the last one. A cursor names the position of the",
        "page's last item in the list's order (for matches, its finish time and id), not a count",
        "of items, so items added between two requests never repeat or go missing on the next",
        "page. A cursor is opaque: pass it back as it came. A bad cursor is a 400.",
        "",
        "## Rate limits",
        "",
        "Each client (its address) has its own count for each class of route. Past the limit",
        "the answer is `429 Too Many Requests` with `Retry-After` (seconds) and the body",
        '`{"error": "rate_limited", "limit": "...", "retry_after": N}`; every limited answer',
        "carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds).",
        "",
        "| class | default limit | setting | routes |",
        "| --- | --- | --- | --- |",
        f"| cheap | {limits['cheap']} | `PREMIERE_RATE_LIMIT_CHEAP` | small JSON answers |",
        f"| expensive | {limits['expensive']} | `PREMIERE_RATE_LIMIT_EXPENSIVE` | replays, replay"
        " views, live event streams, seat statistics |",
        f"| page | {limits['page']} | `PREMIERE_RATE_LIMIT_PAGES` | the HTML pages |",
        "",
        "`/metrics`, `/healthz`, `/static/...`, `/api` and `/api/openapi.json` are not limited.",
        "The counts live in Redis; when Redis cannot be reached, requests are served without a",
        "limit (and `premiere_rate_limit_unavailable_total` counts them). Behind a reverse",
        "proxy, every request seems to come from the proxy: set",
        "`PREMIERE_RATE_LIMIT_TRUSTED_PROXIES` to the proxies' addresses or networks, and the",
        "client is then the right-most address of",
        "`X-Forwarded-For` that is not a trusted proxy. By default no proxy is trusted and the",
        "header is ignored (any client can write it). `PREMIERE_RATE_LIMIT_ENABLED=false` turns",
        "the limits off.",
        "",
        "## Routes",
        "",
        "| route | what | limit | largest page | answer |",
        "| --- | --- | --- | --- | --- |",
    ]
    for path, summary, limit, page, answer in _rows(limits):
        lines.append(f"| `{path}` | {summary} | {limit} | {page} | {answer} |")
    return "\n".join(lines) + "\n"


def page(settings: RateLimitSettings | None = None) -> str:
    """The ``/api`` page: the routes, their limits and answers."""
    limits = limits_of(settings or RateLimitSettings.model_construct())
    labels = ("Route", "What", "Limit", "Largest page", "Answer")
    cells = "".join(
        "<tr>"
        + "".join(
            f'<td data-label="{label}">'
            + (f"<code>{html.escape(text)}</code>" if label == "Route" else html.escape(text))
            + "</td>"
            for label, text in zip(labels, row, strict=True)
        )
        + "</tr>"
        for row in _rows(limits)
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>API · Premiere</title>"
        '<link rel="stylesheet" href="/static/dashboard.css">'
        '<link rel="stylesheet" href="/static/pages.css">'
        "<style>.api td{vertical-align:top;padding:.3rem .5rem}"
        ".api td:first-child{white-space:nowrap}"
        "@media (max-width:700px){.api thead{display:none}"
        ".api table,.api tbody,.api tr,.api td{display:block}"
        ".api tr{padding:.5rem 0;border-bottom:1px solid #ccc}"
        ".api td{padding:.1rem 0}.api td:first-child{white-space:normal;overflow-wrap:anywhere}"
        ".api td:empty{display:none}"
        '.api td:not(:first-child):before{content:attr(data-label) ": ";font-weight:600}}'
        "</style></head>"
        '<body data-page="api"><header class="top"><h1 id="title">The JSON API</h1></header>'
        "<main><p>Every route answers GET with JSON. Lists page with <code>?limit=</code> and"
        " <code>?cursor=</code> (the previous answer's <code>next</code>). The full description"
        ' is <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p>'
        '<div class="api"><table id="routes"><thead><tr><th>Route</th><th>What</th>'
        "<th>Limit</th><th>Largest page</th><th>Answer</th></tr></thead>"
        f"<tbody>{cells}</tbody></table></div></main></body></html>"
    )


def add_routes(app: web.Application, settings: RateLimitSettings) -> None:
    async def openapi(request: web.Request) -> web.Response:
        return web.json_response(document(request.app, settings))

    async def listing(request: web.Request) -> web.Response:
        return web.Response(text=page(settings), content_type="text/html")

    app.router.add_get("/api/openapi.json", openapi)
    app.router.add_get("/api", listing)


if __name__ == "__main__":
    print(markdown(), end="")
