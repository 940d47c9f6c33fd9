"""API hygiene (issue 45, item 5) on a real `premiere ladder` process, a scratch database and a
Redis of this module's own (so that stopping it harms nobody):

- Lists page by keyset cursor: matches finished between two requests neither repeat nor skip
  a match; ``limit`` is clamped to the route's declared largest page; a foreign cursor is a 400.
- Per-client rate limits: past a tiny limit, 429 with Retry-After and the JSON body; another
  client address is counted apart; the limit resets after its window; with Redis stopped the
  server still answers (fail open) and counts what it served unchecked.
- The OpenAPI document is served, valid, and names every /api route of the app; docs/api.md is
  the generated one.
"""

from __future__ import annotations

import datetime
import http.client
import json
import os
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from openapi_spec_validator import validate
from psycopg_pool import ConnectionPool

import games
from ladder import paging
from ladder.errors import BadRequest
from ladder.queries import Interval, Leaderboard, LeaderboardEntry, StandingsCache, board_page
from ladder.service import Ladder
from spectator import live, openapi
from spectator.api_routes import ROUTES, json_routes, undeclared
from spectator.http import http_app
from spectator.ratelimit import client_address, trusted_networks
from tests.integration.services import BIN, free_port, scratch_database
from tests.spectator.test_event_pages import _divisions_event

ROOT = Path(__file__).resolve().parents[2]
GAME = sorted(games.ids())[0]
DIVISION = "/api/events/winter-league/seasons/1/divisions/1"
EXPENSIVE = 3
WINDOW_S = 2


@dataclass
class Served:
    http: str
    port: int
    database: str
    redis: subprocess.Popen[bytes]

    def call(self, path: str, source: str = "127.0.0.1") -> tuple[int, dict[str, str], Any]:
        conn = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=10, source_address=(source, 0)
        )
        try:
            conn.request("GET", path)
            reply = conn.getresponse()
            body = reply.read()
            kind = reply.headers.get("Content-Type", "")
            return (
                reply.status,
                dict(reply.headers),
                json.loads(body) if "json" in kind else body.decode(errors="replace"),
            )
        finally:
            conn.close()

    def get(self, path: str) -> Any:
        status, _, body = self.call(path)
        assert status == 200, (path, status, body)
        return body


def _redis(port: int, folder: Path) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(folder),
        ],
        stdout=(folder / "redis.log").open("ab"),
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket_to(port):
                return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise TimeoutError("redis-server did not start")


def socket_to(port: int) -> Any:
    import socket

    return socket.create_connection(("127.0.0.1", port), timeout=1)


def insert_matches(url: str, finished: list[datetime.datetime]) -> list[str]:
    """Finished matches of GAME, as the arbiter stores them (no seats: the list reads them
    with a left join), one per finish time."""
    ids = [str(uuid.uuid4()) for _ in finished]
    outcome = json.dumps({"scores": [1, 0], "ranks": [1, 2], "tiebreaks": [], "forfeited": []})
    with psycopg.connect(url, autocommit=True) as conn, conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO matches (id, game, options, players, seed, move_time_ms, time_bank_ms,"
            " strike_limit, status, outcome, finished_at, created_at, rated)"
            " VALUES (%s, %s, '{}', 2, 'seed', 1000, 10000, 3, 'finished', %s, %s, %s, false)",
            [(i, GAME, outcome, at, at) for i, at in zip(ids, finished, strict=True)],
        )
    return ids


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("hygiene")
    redis_port = free_port()
    redis = _redis(redis_port, folder)
    ladder = None
    try:
        with scratch_database() as url:
            port = free_port()
            env = dict(os.environ)
            env.update(
                PREMIERE_DATABASE_URL=url,
                PREMIERE_REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
                PREMIERE_RATE_LIMIT_EXPENSIVE=f"{EXPENSIVE} per {WINDOW_S} seconds",
            )
            log = folder / "ladder.log"
            ladder = subprocess.Popen(
                [
                    str(BIN / "premiere"),
                    "ladder",
                    "--grpc-address",
                    f"127.0.0.1:{free_port()}",
                    "--http-address",
                    f"127.0.0.1:{port}",
                    "--interval",
                    "5",
                    "--no-migrate",
                ],
                env=env,
                cwd=folder,
                stdout=log.open("ab"),
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            deadline = time.monotonic() + 30
            while True:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                        break
                except OSError:
                    if ladder.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(log.read_text()[-3000:]) from None
                    time.sleep(0.1)
            yield Served(f"http://127.0.0.1:{port}", port, url, redis)
            ladder.terminate()
            ladder.wait(15)
    finally:
        if ladder is not None and ladder.poll() is None:
            ladder.kill()
        if redis.poll() is None:
            redis.terminate()
            redis.wait(10)


def _all_pages(served: Served, limit: int, between: Any = None) -> list[str]:
    seen: list[str] = []
    path = f"/api/games/{GAME}/matches?limit={limit}"
    page = served.get(path)
    while True:
        seen += [m["match_id"] for m in page["matches"]]
        if between is not None:
            between(len(seen))
        if page["next"] is None:
            return seen
        page = served.get(f"{path}&cursor={page['next']}")


def test_matches_finished_between_pages_neither_repeat_nor_skip(served: Served) -> None:
    now = datetime.datetime.now(datetime.UTC)
    old = insert_matches(
        served.database, [now - datetime.timedelta(hours=1, minutes=n) for n in range(25)]
    )
    late_old: list[str] = []

    def meanwhile(seen: int) -> None:
        if seen == 10:
            # Newer matches land ahead of the cursor (an offset would repeat page one's tail),
            # and one older than every listed match lands behind it: it must still come.
            insert_matches(served.database, [now + datetime.timedelta(seconds=n) for n in range(7)])
            late_old.extend(insert_matches(served.database, [now - datetime.timedelta(days=1)]))

    seen = _all_pages(served, 10, meanwhile)
    assert len(seen) == len(set(seen)), "a match came twice"
    assert seen == old + late_old
    # The first page without a cursor now starts with the newest ones.
    first = served.get(f"/api/games/{GAME}/matches?limit=3")
    assert first["next"] and len(first["matches"]) == 3
    assert first["matches"][0]["match_id"] not in old


def test_a_page_is_never_larger_than_declared(served: Served) -> None:
    largest = ROUTES["/api/games/{game}/matches"].max_page
    assert largest == 200
    now = datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=30)
    insert_matches(served.database, [now - datetime.timedelta(seconds=n) for n in range(220)])
    page = served.get(f"/api/games/{GAME}/matches?limit=100000")
    assert len(page["matches"]) == largest and page["next"]
    old_names = served.get(f"/api/games/{GAME}/matches?page_size=5")
    assert len(old_names["matches"]) == 5 and old_names["next"] == old_names["next_page_token"]
    status, _, body = served.call(f"/api/games/{GAME}/matches?limit=0")
    assert status == 400 and "limit" in body["error"]
    # A cursor of another list, or a made-up one, is refused.
    foreign = paging.encode("history", (5,))
    for token in (foreign, "bm90LWEtY3Vyc29y", "%%%"):
        status, _, body = served.call(f"/api/games/{GAME}/matches?cursor={token}")
        assert status == 400, (token, body)
    status, _, body = served.call(f"/api/events?cursor={foreign}")
    assert status == 400
    assert served.get("/api/events?limit=100000")["next"] is None
    assert served.get(f"/api/games/{GAME}/leaderboard?limit=5")["next"] is None


def _expensive(served: Served, source: str = "127.0.0.1") -> tuple[int, dict[str, str], Any]:
    return served.call(f"/api/matches/{uuid.uuid4()}/replay", source)


def _metric(served: Served, name: str) -> float:
    status, _, text = served.call("/metrics")
    assert status == 200
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name) and not line.startswith("#"):
            total += float(line.rsplit(" ", 1)[1])
    return total


def test_over_the_limit_is_429_with_retry_after_until_the_window_ends(served: Served) -> None:
    time.sleep(WINDOW_S)  # a window of its own
    answers = [_expensive(served) for _ in range(EXPENSIVE)]
    assert [status for status, _, _ in answers] == [404] * EXPENSIVE
    assert answers[0][1]["RateLimit-Limit"] == str(EXPENSIVE)
    assert int(answers[-1][1]["RateLimit-Remaining"]) == 0
    status, headers, body = _expensive(served)
    assert status == 429
    retry = int(headers["Retry-After"])
    assert 1 <= retry <= WINDOW_S
    assert body == {
        "error": "rate_limited",
        "limit": f"{EXPENSIVE} per {WINDOW_S} seconds",
        "retry_after": retry,
    }
    # Another client is counted apart, and cheap routes, /healthz and /metrics still answer.
    assert _expensive(served, "127.0.0.2")[0] == 404
    assert served.call("/api/games")[0] == 200
    assert served.call("/healthz")[0] == 200
    assert _metric(served, 'premiere_rate_limited_total{cost="expensive"}') >= 1
    # The window passes: served again.
    time.sleep(retry + 0.2)
    assert _expensive(served)[0] == 404


def test_forwarded_for_is_ignored_unless_the_peer_is_a_trusted_proxy() -> None:
    assert client_address("10.0.0.9", ["1.2.3.4"], ()) == "10.0.0.9"
    proxies = trusted_networks("10.0.0.0/8, 192.0.2.1")
    assert client_address("10.0.0.9", ["1.2.3.4"], proxies) == "1.2.3.4"
    # The client writes the left part itself: only what trusted proxies appended counts.
    assert client_address("10.0.0.9", ["6.6.6.6, 1.2.3.4, 192.0.2.1"], proxies) == "1.2.3.4"
    assert client_address("8.8.8.8", ["1.2.3.4"], proxies) == "8.8.8.8"
    assert client_address("10.0.0.9", ["junk"], proxies) == "10.0.0.9"
    with pytest.raises(SystemExit):
        trusted_networks("not-an-address")


def test_the_openapi_document_is_valid_and_names_every_json_route(served: Served) -> None:
    document = served.get("/api/openapi.json")
    validate(document)
    status, _, text = served.call("/api")
    assert status == 200 and "/api/games/{game}/matches" in text
    matches = document["paths"]["/api/games/{game}/matches"]["get"]
    assert matches["x-max-page-size"] == 200
    assert matches["x-rate-limit"] == {"class": "cheap", "limit": "100000/minute"}
    pool: ConnectionPool[Any] = ConnectionPool(served.database, open=False)
    ladder = Ladder(pool, StandingsCache())
    hub = live.LiveHub(pool, lambda: None, 1, 1, 0)  # type: ignore[arg-type,return-value]
    app = http_app(ladder, hub)
    assert undeclared(app) == [], "a route under /api/ has no declaration in spectator.api_routes"
    assert sorted(document["paths"]) == json_routes(app)
    assert set(ROUTES) == set(json_routes(app)), "a declaration of a route that does not exist"


def test_docs_api_md_is_the_generated_one() -> None:
    assert (ROOT / "docs" / "api.md").read_text() == openapi.markdown(), (
        "regenerate: python -m spectator.openapi > docs/api.md"
    )


def test_paging_cursors_are_checked() -> None:
    at = datetime.datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=datetime.UTC)
    token = paging.encode("matches", (at, "x"))
    assert paging.decode("matches", token, (datetime.datetime, str)) == (at, "x")
    for bad in (
        "",
        "x" * 2000,
        paging.encode("matches", ("x", "x")),
        paging.encode("matches", (at,)),
        paging.encode("matches", (at, "a\x00")),
    ):
        with pytest.raises(BadRequest):
            paging.decode("matches", bad, (datetime.datetime, str))
    # A keyset's whole numbers are bigints.
    assert paging.decode("history", paging.encode("history", (-(1 << 63),)), (int,)) == (
        -(1 << 63),
    )
    for beyond in (1 << 63, -(1 << 63) - 1):
        with pytest.raises(BadRequest):
            paging.decode("history", paging.encode("history", (beyond,)), (int,))


def test_a_forged_cursor_is_a_400_never_a_500(served: Served) -> None:
    """A cursor is client text that reaches SQL as it decodes: a string holding NUL (no
    PostgreSQL text holds one), an events start that is no number, or a whole number beyond
    a bigint failed the query (500); each is a 400 now, and a real cursor still pages."""
    with psycopg.connect(served.database) as conn:
        _divisions_event(conn)
        conn.execute(
            "INSERT INTO events (name, game, format, players, opens_at, starts_at)"
            " VALUES ('spring-cup', 'movie-tricks', 'knockout', 2, now(), now() + '1 day')"
        )
        conn.commit()
    at = datetime.datetime(2026, 1, 2, tzinfo=datetime.UTC)
    forged = [
        ("/api/events", paging.encode("events", (True, "abc", 1))),
        ("/api/events", paging.encode("events", (True, "\x00", 1))),
        ("/api/events", paging.encode("events", (True, "1e1000000", 1))),
        ("/api/events", paging.encode("events", (True, "1", 1 << 70))),
        (f"/api/games/{GAME}/leagues", paging.encode("game-leagues", (1 << 70,))),
        (f"/api/games/{GAME}/matches", paging.encode("matches", (at, "\x00"))),
        (
            f"/api/games/{GAME}/leaderboard",
            paging.encode("leaderboard", (False, False, 1.0, 1.0, "\x00")),
        ),
        (DIVISION, paging.encode("division-tables", (1 << 70, 0))),
    ]
    for path, token in forged:
        status, _, body = served.call(f"{path}?cursor={token}")
        assert status == 400 and "bad cursor" in body["error"], (path, status, body)
    first = served.get("/api/events?limit=1")
    second = served.get(f"/api/events?limit=1&cursor={first['next']}")
    assert [e["name"] for e in first["events"] + second["events"]] == [
        "winter-league",
        "spring-cup",
    ]
    # A round newer than any (one no integer column holds): every table comes after it.
    beyond = paging.encode("division-tables", (1 << 40, 0))
    tables = served.get(f"{DIVISION}?cursor={beyond}")["matches"]
    assert tables and tables == served.get(DIVISION)["matches"]


def test_with_redis_stopped_the_server_still_answers(served: Served) -> None:
    """Last in the module: it stops the module's Redis."""
    served.redis.terminate()
    served.redis.wait(10)
    before = _metric(served, "premiere_rate_limit_unavailable_total")
    started = time.monotonic()
    statuses = [_expensive(served)[0] for _ in range(EXPENSIVE * 3)]
    assert statuses == [404] * len(statuses)
    assert served.get("/api/games")["games"]
    assert time.monotonic() - started < 5
    assert _metric(served, "premiere_rate_limit_unavailable_total") > before


def test_leaderboard_pages_by_standing_not_by_position() -> None:
    """The leaderboard's order comes from the standings fit (Python), so its keyset is the
    entry's sort key: a player placed above the cursor between two pages shifts nothing."""
    at = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)

    def entry(name: str, standing: float | None, games_played: int = 50) -> LeaderboardEntry:
        interval = None if standing is None else Interval(standing, standing - 9, standing + 9, 4)
        return LeaderboardEntry(
            0, name, False, 1500.0, games_played, games_played < 10, interval, at
        )

    players = [entry(f"bot{n}", 1600.0 - 10 * n) for n in range(7)] + [entry("new", None, 2)]
    board = Leaderboard(GAME, 100, 100, tuple(players))
    first = board_page(board, 3)
    assert [e.player for e in first.entries] == ["bot0", "bot1", "bot2"] and first.next
    # Two players now rank above the cursor: an offset would repeat bot2 and bot3.
    moved = Leaderboard(GAME, 101, 101, (entry("top", 1700.0), entry("mid", 1655.0), *players))
    rest, cursor_ = [], first.next
    while cursor_:
        page = board_page(moved, 3, cursor_)
        rest += [e.player for e in page.entries]
        cursor_ = page.next
    assert rest == ["bot3", "bot4", "bot5", "bot6", "new"]
