"""The bulk export on the web, as a chess site's database page: the monthly files the workers
write (``workers.exports``) and a stream of a game's ended matches.

- ``/exports``: the files, newest month first, with their match counts, sizes and SHA-256;
- ``/exports/{file}``: one of them, only if the manifest names it (no other path is served);
- ``/api/exports``: the manifest as JSON;
- ``/api/games/{game}/export?since=ISO-DATE&until=ISO-DATE``: the game's ended matches as
  NDJSON, one export record a line, streamed from a server-side cursor in chunks of
  ``CHUNK`` matches; at most ``MAX_STREAMS`` streams at a time (a third is told to retry).
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

from aiohttp import web
from psycopg_pool import ConnectionPool

import games
from ladder.queries import BadRequest, NotFound
from premiere.config import Settings
from spectator.dashboard import page_headers
from workers.export_rows import FORMATS, json_line, parse_instant
from workers.exports import read_manifest, records

CHUNK = 50
"""Matches read and sent per step of a stream."""
MAX_STREAMS = 2
"""Export streams served at once: each holds a database connection of the ladder's pool."""


def _size(count: int) -> str:
    value = float(count)
    for unit in ("bytes", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{count} bytes" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1000
    raise AssertionError("unreachable")


def page(files: list[dict[str, Any]]) -> str:
    """The /exports page: what it lists, in plain HTML (no script)."""
    rows = "".join(
        "<tr>"
        f"<td>{html.escape(f['month'])}</td>"
        f"<td>{html.escape(f['game'])}</td>"
        f'<td><a href="/exports/{html.escape(f["file"])}" download>'
        f"{html.escape(f['file'])}</a></td>"
        f"<td>{html.escape(f['format'])}</td>"
        f'<td class="number">{int(f["matches"]):,} matches</td>'
        f'<td class="number">{_size(int(f["bytes"]))}</td>'
        f'<td><code class="digest">{html.escape(f["sha256"])}</code></td>'
        "</tr>"
        for f in files
    )
    listing = (
        '<div class="table-wrap"><table class="exports"><thead><tr><th>Month</th><th>Game</th>'
        "<th>File</th><th>Format</th><th>Matches</th><th>Size</th><th>SHA-256</th></tr></thead>"
        f"<tbody>{rows}</tbody></table></div>"
        if files
        else "<p>No export files yet: the first is written once a month with matches has ended.</p>"
    )
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<title>Exports · Premiere</title>\n"
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">\n'
        '<link rel="stylesheet" href="/static/dashboard.css">\n'
        '<link rel="stylesheet" href="/static/pages.css">\n'
        '<link rel="stylesheet" href="/static/exports.css">\n'
        '</head>\n<body data-page="exports" data-ready>\n<header class="top"><h1>Match exports</h1>'
        '<nav><a href="/">Ladder</a></nav></header>\n<main>\n<section>\n'
        "<p>Every ended match of each game, one file a month and format: players, seed, moves"
        " and bot notes, result, rating changes; voided matches marked. Parquet or"
        " zstd-compressed NDJSON (one match a line). Check a download against its SHA-256;"
        ' the list as JSON is <a href="/api/exports">/api/exports</a>, and'
        " <code>/api/games/&lt;game&gt;/export?since=YYYY-MM-DD</code> streams a game's"
        " matches as NDJSON.</p>\n"
        f"{listing}\n</section>\n</main>\n</body>\n</html>\n"
    )


def _lines(rows: Iterator[dict[str, Any]], count: int) -> bytes:
    chunk = bytearray()
    for _ in range(count):
        found = next(rows, None)
        if found is None:
            break
        chunk += json_line(found)
    return bytes(chunk)


def add_routes(app: web.Application, ladder: Any, folder: Path | None = None) -> None:
    """``ladder`` is the ``ladder.service.Ladder`` whose connection pool the stream reads
    with; ``folder`` the export folder (default: PREMIERE_EXPORT_DIR)."""
    where = Path(folder if folder is not None else Settings().export_dir)
    slots = asyncio.Semaphore(MAX_STREAMS)

    def manifest() -> list[dict[str, Any]]:
        return [asdict(item) for item in read_manifest(where)]

    async def listing(request: web.Request) -> web.Response:
        files = await asyncio.to_thread(manifest)
        return web.Response(text=page(files), headers=page_headers())

    async def api(request: web.Request) -> web.Response:
        files = await asyncio.to_thread(manifest)
        return web.json_response({"formats": list(FORMATS), "files": files})

    async def download(request: web.Request) -> web.StreamResponse:
        name = request.match_info["file"]
        named = {item["file"] for item in await asyncio.to_thread(manifest)}
        path = (where / name).resolve()
        if name not in named or path.parent != where.resolve() or not path.is_file():
            raise NotFound(f"no export file {name[:80]!r}")
        return web.FileResponse(
            path,
            headers={
                "Content-Type": "application/octet-stream",
                "Content-Disposition": f'attachment; filename="{name}"',
                "X-Content-Type-Options": "nosniff",
            },
        )

    async def stream(request: web.Request) -> web.StreamResponse:
        game = request.match_info["game"]
        if game not in games.ids():
            raise NotFound(f"no game {game[:40]!r}; games: {', '.join(games.ids())}")
        try:
            since = parse_instant(request.query["since"]) if request.query.get("since") else None
            until = parse_instant(request.query["until"]) if request.query.get("until") else None
        except ValueError as error:
            raise BadRequest(str(error)) from None
        if slots.locked():
            return web.json_response(
                {"error": "too many exports are being streamed; try again shortly"},
                status=503,
                headers={"Retry-After": "10"},
            )
        async with slots:
            pool: ConnectionPool[Any] = ladder.pool
            lease = pool.connection()
            conn = await asyncio.to_thread(lease.__enter__)
            rows = records(conn, game, since, until)
            try:
                response = web.StreamResponse(
                    headers={
                        "Content-Type": "application/x-ndjson; charset=utf-8",
                        "X-Content-Type-Options": "nosniff",
                    }
                )
                response.enable_chunked_encoding()
                await response.prepare(request)
                while chunk := await asyncio.to_thread(_lines, rows, CHUNK):
                    await response.write(chunk)
                await response.write_eof()
                return response
            finally:
                await asyncio.to_thread(_close, rows, lease)

    app.router.add_get("/exports", listing)
    app.router.add_get("/exports/{file}", download)
    app.router.add_get("/api/exports", api)
    app.router.add_get("/api/games/{game}/export", stream)


def _close(rows: Iterator[dict[str, Any]], lease: Any) -> None:
    """End the stream's transaction (its cursor) and give the connection back."""
    try:
        close = getattr(rows, "close", None)
        if close is not None:
            close()
    finally:
        lease.__exit__(None, None, None)
