"""What a hostile HTTP client can make the ladder do (issue 24, findings 8 and 9): the ladder's
real HTTP app in-process on a scratch database holding really played matches.

- One cache key per match: every spelling of a match id (upper case, no hyphens, braces,
  ``urn:uuid:``) reads the same ended replay, built once.
- Replay builds are bounded: twenty spellings of one id at once build it once, while
  ``/api/games`` keeps answering; too many different matches at once are refused (503).
- A NUL byte or a broken escape in a path is one clean log line and a 400, never a traceback.
- One client address cannot take every live-viewer slot (a real arbiter for that one).
"""

from __future__ import annotations

import asyncio
import datetime
import http.client
import json
import logging
import threading
import time
import urllib.request
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from aiohttp import ClientSession
from aiohttp.test_utils import TestServer
from psycopg_pool import ConnectionPool

import games
from games.play import play_match
from games.values import to_plain
from ladder.queries import StandingsCache
from ladder.service import Ladder
from spectator import pages, replays
from spectator.http import http_app
from tests.integration.services import scratch_database, start_bot
from tests.ladder.stack import running_stack
from tests.spectator.test_dashboard import eventually


def spellings(match_id: str) -> list[str]:
    plain = match_id.replace("-", "")
    return [
        match_id,
        match_id.upper(),
        plain,
        plain.upper(),
        "{" + match_id + "}",
        "urn:uuid:" + match_id,
        "urn:uuid:" + match_id.upper(),
        "{" + plain.upper() + "}",
    ]


def insert_played(
    conn: psycopg.Connection[Any], game_id: str, players: int, seed: str, status: str = "finished"
) -> str:
    """A match really played in-process by built-in bots, stored as the arbiter stores it."""
    game = games.get(game_id)
    record = play_match(game, players, seed, ["random"] * players)
    match_id = str(uuid.uuid4())
    with conn.transaction():
        conn.execute(
            "INSERT INTO matches (id, game, options, players, seed, move_time_ms, time_bank_ms,"
            " strike_limit, status, outcome, finished_at, created_at, rated)"
            " VALUES (%s, %s, %s, %s, %s, 1000, 10000, 3, %s, %s, %s, now(), false)",
            (
                match_id,
                game_id,
                json.dumps(record.options),
                players,
                seed,
                status,
                json.dumps(to_plain(record.outcome)) if status == "finished" else None,
                datetime.datetime.now(datetime.UTC) if status == "finished" else None,
            ),
        )
        for seat in range(players):
            conn.execute(
                "INSERT INTO match_seats (match_id, seat, builtin) VALUES (%s, %s, 'random')",
                (match_id, seat),
            )
        for ply, (seat, move) in enumerate(record.moves):
            conn.execute(
                "INSERT INTO match_moves (match_id, ply, seat, move, elapsed_ms, defaulted)"
                " VALUES (%s, %s, %s, %s, 1, false)",
                (match_id, ply, seat, json.dumps(game.encode_move(move))),
            )
    return match_id


@pytest.fixture(scope="module")
def database() -> Iterator[tuple[str, list[str]]]:
    """Two five-seat Magic Trick matches (seconds and megabytes to rebuild each), twelve
    three-seat ones, and one running."""
    with scratch_database() as url:
        with psycopg.connect(url) as conn:
            ids = [
                insert_played(conn, "magic-trick", 5 if n < 2 else 3, f"{n:02d}" * 32)
                for n in range(14)
            ]
            ids.append(insert_played(conn, "magic-trick", 3, "ff" * 32, "running"))
        yield url, ids


class Builds:
    """Counts the matches the ladder re-executes (a spy on ``replays.build_views``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        self.lock = threading.Lock()
        real = replays.build_views

        def counted(logged: replays.Logged) -> replays.ReplayViews:
            with self.lock:
                self.count += 1
            return real(logged)

        monkeypatch.setattr(replays, "build_views", counted)


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> Builds:
    return Builds(monkeypatch)


class Serving:
    def __init__(self, server: TestServer, session: ClientSession):
        self.server = server
        self.session = session

    def url(self, path: str) -> str:
        return str(self.server.make_url("")) + path


async def serving(url: str) -> AsyncIterator[Serving]:
    pool: ConnectionPool[Any] = ConnectionPool(
        url, min_size=1, max_size=4, kwargs={"autocommit": True}, open=False
    )
    await asyncio.to_thread(pool.open, True, 30.0)
    app = http_app(Ladder(pool, StandingsCache()))
    server = TestServer(app)
    await server.start_server()
    try:
        async with ClientSession() as session:
            yield Serving(server, session)
    finally:
        await server.close()
        await asyncio.to_thread(pool.close)


def run(url: str, test: Any) -> Any:
    async def main() -> Any:
        async for serve in serving(url):
            return await test(serve)

    return asyncio.run(main())


def test_every_spelling_of_a_match_id_is_one_cached_replay(
    database: tuple[str, list[str]], builds: Builds
) -> None:
    url, ids = database
    match_id = ids[0]

    async def test(serve: Serving) -> None:
        bodies = []
        for spelled in spellings(match_id):
            async with serve.session.get(serve.url(f"/api/matches/{spelled}/views")) as reply:
                assert reply.status == 200, spelled
                bodies.append(await reply.read())
        assert all(body == bodies[0] for body in bodies)
        assert json.loads(bodies[0])["match_id"] == match_id
        assert builds.count == 1
        for bad in ("not-a-match", match_id[:-1], match_id + "0", "x" * 5000):
            async with serve.session.get(serve.url(f"/api/matches/{bad}/views")) as reply:
                assert reply.status == 404, bad
        # The page itself answers at the one canonical address.
        async with serve.session.get(
            serve.url(f"/replay/{match_id.upper()}?ply=3"), allow_redirects=False
        ) as reply:
            assert reply.status == 308
            assert reply.headers["Location"] == f"/replay/{match_id}?ply=3"

    run(url, test)


def test_twenty_spellings_at_once_build_the_match_once_and_the_api_keeps_answering(
    database: tuple[str, list[str]], builds: Builds
) -> None:
    url, ids = database
    match_id = ids[1]
    asked = (spellings(match_id) * 3)[:20]

    async def test(serve: Serving) -> list[float]:
        async def views(spelled: str) -> bytes:
            async with serve.session.get(serve.url(f"/api/matches/{spelled}/views")) as reply:
                assert reply.status == 200
                return await reply.read()

        def poll(stop: threading.Event) -> list[float]:
            took = []
            while not stop.is_set():
                started = time.perf_counter()
                with urllib.request.urlopen(serve.url("/api/games"), timeout=30) as reply:
                    assert reply.status == 200
                    reply.read()
                took.append(time.perf_counter() - started)
                time.sleep(0.02)
            return took

        stop = threading.Event()
        polling = asyncio.create_task(asyncio.to_thread(poll, stop))
        await asyncio.sleep(0.1)
        bodies = await asyncio.gather(*(views(s) for s in asked))
        stop.set()
        assert len(set(bodies)) == 1
        return await polling

    took = sorted(run(url, test))
    assert builds.count == 1
    # The build holds a CPU for seconds; /api/games, asked all along, still answers at once
    # (the median; this machine's load decides the slowest).
    assert len(took) >= 3 and took[len(took) // 2] < 0.3, took


def test_too_many_different_replays_at_once_are_refused_not_queued(
    database: tuple[str, list[str]],
) -> None:
    url, ids = database
    capacity = pages.REPLAYS_AT_ONCE + pages.REPLAYS_WAITING
    assert len(ids) - 3 > capacity

    async def test(serve: Serving) -> list[int]:
        async def status(match_id: str) -> int:
            async with serve.session.get(serve.url(f"/api/matches/{match_id}/views")) as reply:
                await reply.read()
                return reply.status

        return list(await asyncio.gather(*(status(m) for m in ids[2:-1])))

    statuses = run(url, test)
    assert statuses.count(200) >= capacity
    assert set(statuses) <= {200, 503} and 503 in statuses


@pytest.mark.parametrize(
    "path",
    [
        "/api/bots/%00",
        "/api/bots/ada%00",
        "/bots/%00",
        "/api/leagues/%00x",
        "/api/leagues/%00x/progress",
        "/api/matches/%00/views",
        "/api/games/%00/leaderboard",
        "/api/bots/%ff%fe",
        "/api/bots/%ED%A0%80",
        "/static/%00.js",
        "/api/games/magic-trick/matches?page_token=%00",
        "/api/bots/ada/history?game=magic-trick%00",
    ],
)
def test_bad_bytes_in_a_path_are_one_clean_log_line(
    database: tuple[str, list[str]], path: str, caplog: pytest.LogCaptureFixture
) -> None:
    url, _ = database
    caplog.set_level(logging.INFO)

    async def test(serve: Serving) -> int:
        async with serve.session.get(serve.url(path)) as reply:
            await reply.read()
            return reply.status

    status = run(url, test)
    assert status in (400, 404), status
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert not tracebacks, [r.getMessage() for r in tracebacks]
    errors = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(errors) <= 1 and all("\n" not in r.getMessage() for r in errors)
    if status == 400:
        assert len(errors) == 1 and "bad bytes" in errors[0].getMessage()


def test_a_replay_of_a_running_match_is_never_kept(
    database: tuple[str, list[str]], builds: Builds
) -> None:
    url, ids = database

    async def test(serve: Serving) -> None:
        for spelled in spellings(ids[-1])[:3]:
            async with serve.session.get(serve.url(f"/api/matches/{spelled}/views")) as reply:
                assert reply.status == 200
                assert (await reply.json())["status"] == "running"

    run(url, test)
    assert builds.count == 3


def test_one_address_cannot_take_every_live_viewer_slot(tmp_path: Path) -> None:
    """A real arbiter and ladder; a match that runs for a while (its network bot answers too
    late every time).
    Two streams from one address are all it gets (PREMIERE_LADDER_MAX_LIVE_VIEWERS_PER_ADDRESS
    = 2, of 4 in all): the third is refused with 429 while another address still gets in, and
    a slot closed is a slot given back."""
    with running_stack(
        tmp_path,
        workers=False,
        PREMIERE_LADDER_MAX_LIVE_VIEWERS="4",
        PREMIERE_LADDER_MAX_LIVE_VIEWERS_PER_ADDRESS="2",
    ) as stack:
        token = stack.arbiter.add_bot("sleeper")
        bot = start_bot(
            stack.arbiter, "tests.integration.bad_bots:SlowBot", token, tmp_path / "bot.log"
        )
        with psycopg.connect(stack.arbiter.database_url) as db:
            eventually(
                lambda: (
                    db.execute(
                        "SELECT last_connected_at IS NOT NULL FROM bots WHERE name = 'sleeper'"
                    ).fetchone()
                    == (True,)
                    or None
                ),
                "the bot connected",
                timeout=20,
            )
        # Each of its answers comes after the clock ran out: a defaulted move every 0.4 s.
        match_id = stack.match(
            "movie-tricks",
            ["sleeper", "builtin:random"],
            move_time_ms=400,
            time_bank_ms=1,
            strike_limit=20,
        )
        host, port = stack.http.removeprefix("http://").split(":")

        def open_stream(source: str) -> http.client.HTTPConnection:
            conn = http.client.HTTPConnection(
                host, int(port), timeout=10, source_address=(source, 0)
            )
            conn.request("GET", f"/api/live/{match_id}/events")
            return conn

        opened: list[http.client.HTTPConnection] = []
        for _ in range(2):
            conn = open_stream("127.0.0.1")
            reply = conn.getresponse()
            assert reply.status == 200, reply.read()
            opened.append(conn)
        refused = open_stream("127.0.0.1").getresponse()
        assert refused.status == 429
        assert "this address already follows 2" in json.loads(refused.read())["error"]
        other = open_stream("127.0.0.2")
        assert other.getresponse().status == 200
        opened.pop().close()

        def let_in() -> bool | None:
            conn = open_stream("127.0.0.1")
            reply = conn.getresponse()
            if reply.status == 200:
                opened.append(conn)
                return True
            conn.close()
            return None

        try:
            eventually(let_in, "the closed stream's slot given back")
        finally:
            for conn in [*opened, other]:
                conn.close()
            bot.terminate()
            bot.wait(10)


@pytest.mark.parametrize("page", ["-1", "x", "1e3", "99999", "501"])
def test_a_bot_page_number_out_of_bounds_is_refused(
    database: tuple[str, list[str]], page: str
) -> None:
    url, _ = database

    async def test(serve: Serving) -> tuple[int, dict[str, Any]]:
        async with serve.session.get(serve.url(f"/api/bots/builtin:random?page={page}")) as reply:
            return reply.status, await reply.json()

    status, body = run(url, test)
    assert status == 400 and "page" in body["error"]


def test_a_bot_page_pages_its_matches(database: tuple[str, list[str]]) -> None:
    """Fourteen ended matches and a running one seat builtin:random three to five times
    each: twenty to a page, the newest first, every match on exactly one page."""
    url, _ = database

    async def test(serve: Serving) -> list[dict[str, Any]]:
        pages = []
        for number in range(4):
            async with serve.session.get(
                serve.url(f"/api/bots/builtin:random?page={number}")
            ) as reply:
                assert reply.status == 200
                pages.append(await reply.json())
        return pages

    pages = run(url, test)
    seen = [(m["match_id"], m["seat"]) for p in pages for m in p["recent"]]
    assert len(seen) == len(set(seen)) == 2 * 5 + 12 * 3 + 3
    assert [len(p["recent"]) for p in pages] == [20, 20, 9, 0]
    assert [p["has_more"] for p in pages] == [True, True, False, False]
    assert pages[0]["standing"] is None and pages[0]["versions"] is None
