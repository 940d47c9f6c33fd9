"""The ladder's HTTP server gzip-compresses its static files and JSON answers for a client
that accepts it, and sends them plain to one that does not."""

from __future__ import annotations

import gzip
import http.client
import urllib.request
from pathlib import Path

import psycopg

from tests.integration.services import scratch_database
from tests.ladder.synthetic import GAME, add_bots, insert_matches, random_matches
from tests.ladder.test_api import Ladder


def fetch(url: str, gzipped: bool) -> tuple[str | None, bytes]:
    headers = {"Accept-Encoding": "gzip, deflate"} if gzipped else {"Accept-Encoding": "identity"}
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as r:
        return r.headers.get("Content-Encoding"), r.read()


def test_static_files_and_json_are_gzipped_when_accepted(tmp_path: Path) -> None:
    with scratch_database() as url:
        with psycopg.connect(url) as conn:
            names = ["ada", "grace", "edsger", "barbara", "donald", "linus"]
            insert_matches(conn, random_matches(60, names, seed=3), add_bots(conn, names))
        ladder = Ladder(url, tmp_path / "ladder.log")
        try:
            ladder.wait_serving()
            for path, least in (
                ("/static/vendor/chart.umd.js", 100_000),
                (f"/api/games/{GAME}/matches?limit=50", 10_000),
            ):
                encoding, body = fetch(ladder.http + path, gzipped=True)
                plain_encoding, plain = fetch(ladder.http + path, gzipped=False)
                assert (encoding, plain_encoding) == ("gzip", None), path
                assert len(plain) > least, (path, len(plain))
                assert gzip.decompress(body) == plain
                assert len(body) < len(plain) / 2, (path, len(body), len(plain))
        finally:
            ladder.process.terminate()
            ladder.process.wait(10)


def test_a_file_revalidated_by_a_browser_gets_a_bare_304(tmp_path: Path) -> None:
    """A browser asks again for a file it holds (If-None-Match, If-Modified-Since): the answer
    is a 304 without a body, gzip or not (a gzip body on a 304 makes Chromium refuse it)."""
    with scratch_database() as url:
        ladder = Ladder(url, tmp_path / "ladder.log")
        try:
            ladder.wait_serving()
            path = ladder.http + "/static/replay.js"
            with urllib.request.urlopen(path, timeout=10) as reply:
                etag, modified = reply.headers["ETag"], reply.headers["Last-Modified"]
            for header, value in (("If-None-Match", etag), ("If-Modified-Since", modified)):
                connection = http.client.HTTPConnection(ladder.http.removeprefix("http://"))
                connection.request("GET", "/static/replay.js", headers={header: value,
                                   "Accept-Encoding": "gzip"})  # fmt: skip
                reply = connection.getresponse()
                assert reply.status == 304, header
                assert reply.getheader("Content-Encoding") is None, header
                assert reply.read() == b"", header
                connection.close()
        finally:
            ladder.process.terminate()
            ladder.process.wait(10)
