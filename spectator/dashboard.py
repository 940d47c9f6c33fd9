"""The ladder's dashboard: one web page at ``/`` and its static files under ``/static/``.

The page (``spectator/static/index.html`` with ``dashboard.js`` and ``dashboard.css``) is plain
HTML and a vanilla JavaScript module with no build step. It reads the JSON API of the same
service: a game picker, the leaderboard, a player's rating-history chart, the recent matches
page by page (each linked to its replay page, ``/replay/<match>``, the one place that shows a
match's moves), with the matches being played now on top (``live_strip.js``); it refreshes
itself every few seconds. The chart library is
vendored under ``static/vendor/`` (see its README): the page loads nothing from elsewhere, and
its Content-Security-Policy says so. The spectator pages beside it (replays, live matches, bots,
leagues) are served by ``spectator.pages`` with the same headers (``page_headers``).
"""

from __future__ import annotations

from pathlib import Path

from aiohttp import web

STATIC = Path(__file__).resolve().parent / "static"

# Everything from this origin and nothing else: no inline scripts, no remote files.
# Chart.js sets canvas sizes through the CSSOM, which style-src does not restrict.
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


def page_headers() -> dict[str, str]:
    """The headers of every HTML page the ladder serves."""
    return {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-cache",
        "Content-Security-Policy": POLICY,
        "X-Content-Type-Options": "nosniff",
    }


async def index(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "index.html", headers=page_headers())


async def _no_cache(request: web.Request, response: web.StreamResponse) -> None:
    """Static files are revalidated on each load (ETag/Last-Modified answer with 304), so a
    new release's page never runs with the old script."""
    if request.path.startswith("/static/"):
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Content-Type-Options"] = "nosniff"


def add_routes(app: web.Application) -> None:
    """Serve the dashboard from ``app``: ``/`` and ``/static/...``."""
    app.router.add_get("/", index)
    app.router.add_static("/static/", STATIC, follow_symlinks=False, append_version=False)
    app.on_response_prepare.append(_no_cache)
