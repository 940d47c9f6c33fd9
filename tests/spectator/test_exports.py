"""The bulk export on a real stack (arbiter, Celery worker and beat, `premiere ladder`, Redis,
PostgreSQL): matches of two games are played, rated, one voided and one left running; then
`premiere export` writes Parquet and NDJSON.zst, the workers' monthly task writes its files and
manifest, and the web process serves them and streams a game's matches. Every exported match
is re-executed from its seed and moves through its engine to its recorded result."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pyarrow.parquet as pq
import pytest
import zstandard
from playwright.sync_api import Browser

import games
from premiere_wire import match_pb2
from tests.integration.services import premiere_cli, redis_url, start_bot
from tests.ladder.stack import Stack, running_stack
from tests.spectator.test_dashboard import eventually
from tests.spectator.test_watching import browser  # noqa: F401
from workers.app import make_app
from workers.config import WorkerSettings
from workers.export_rows import previous_month
from workers.exports import export_month, read_manifest

MAGIC, TRICKS = "magic-trick", "movie-tricks"
SEATINGS = {
    MAGIC: (
        ["builtin:random", "builtin:heuristic", "builtin:first"],
        ["builtin:heuristic", "builtin:first", "builtin:random"],
    ),
    TRICKS: (
        ["builtin:random", "builtin:heuristic"],
        ["builtin:heuristic", "builtin:random"],
    ),
}
STALLING = {"move_time_ms": 10000, "time_bank_ms": 0, "strike_limit": 20}
CLOCK = {"move_time_ms": 20000, "time_bank_ms": 20000, "strike_limit": 20}


def _create(stack: Stack, game: str, seats: list[str], rated: bool, **clock: int) -> str:
    request = match_pb2.CreateMatchRequest(game=game, rated=rated)
    for seat in seats:
        if seat.startswith("builtin:"):
            request.seats.add(builtin=seat.removeprefix("builtin:"))
        else:
            request.seats.add(bot=seat)
    for name, value in clock.items():
        setattr(request.time_control, name, value)
    return str(stack.arbiter.matches().CreateMatch(request, timeout=10).match_id)


def _status(conn: psycopg.Connection[Any], match_id: str) -> str:
    row = conn.execute("SELECT status FROM matches WHERE id = %s", (match_id,)).fetchone()
    assert row is not None
    return str(row[0])


class Played:
    """What the module's stack played: the ended matches by game, the voided one, the one
    still running, the one with notes."""

    def __init__(self, stack: Stack) -> None:
        self.stack = stack
        self.ended: dict[str, list[str]] = {MAGIC: [], TRICKS: []}
        self.voided = ""
        self.running = ""
        self.noted = ""
        self.rated: list[str] = []


@contextmanager
def playing(folder: Path) -> Iterator[Played]:
    # No beat: the validation gate would seat the two bots in matches of its own.
    with running_stack(folder, workers=False) as stack:
        found = Played(stack)
        tokens = {name: stack.arbiter.add_bot(name) for name in ("noter", "stalling")}
        bots = [
            start_bot(stack.arbiter, spec, tokens[name], folder / f"{name}.log")
            for name, spec in (
                ("noter", "tests.ladder.noting_bot:NotingBot"),
                ("stalling", "tests.integration.bad_bots:SlowBot"),
            )
        ]
        try:
            with psycopg.connect(stack.arbiter.database_url, autocommit=True) as conn:
                eventually(
                    lambda: (
                        conn.execute(
                            "SELECT count(*) = 2 FROM bots WHERE last_connected_at IS NOT NULL"
                        ).fetchone()[0]  # type: ignore[index]
                        or None
                    ),
                    "both bots connected",
                    timeout=30,
                )
                for game, seatings in SEATINGS.items():
                    for seats in seatings:
                        match_id = _create(stack, game, seats, rated=True)
                        found.ended[game].append(match_id)
                        found.rated.append(match_id)
                seats = ["noter", "builtin:random", "builtin:heuristic"]
                found.noted = _create(stack, MAGIC, seats, rated=False, **CLOCK)
                found.ended[MAGIC].append(found.noted)
                everything = [m for ids in found.ended.values() for m in ids]
                eventually(
                    lambda: (
                        all(_status(conn, m) in ("finished", "void") for m in everything) or None
                    ),
                    "the matches ended",
                    timeout=120,
                )
                eventually(
                    lambda: (
                        conn.execute(
                            "SELECT count(*) FROM rated_matches WHERE match_id = ANY(%s::uuid[])",
                            (found.rated,),
                        ).fetchone()[0]  # type: ignore[index]
                        == len(found.rated)
                        or None
                    ),
                    "the ladder rated them",
                    timeout=60,
                )
                found.voided = found.ended[TRICKS][0]
                premiere_cli(
                    stack.arbiter.env(), "matches", "void", found.voided, "--reason", "a bad deal"
                )
                # Each of its bot's decisions waits out the clock: it runs for minutes.
                found.running = _create(
                    stack, TRICKS, ["stalling", "builtin:heuristic"], rated=False, **STALLING
                )
                eventually(
                    lambda: (
                        conn.execute(
                            "SELECT count(*) >= 1 FROM match_moves WHERE match_id = %s",
                            (found.running,),
                        ).fetchone()[0]  # type: ignore[index]
                        or None
                    ),
                    "the running match moved",
                    timeout=60,
                )
            yield found
        finally:
            for bot in bots:
                bot.terminate()
                try:
                    bot.wait(10)
                except subprocess.TimeoutExpired:
                    bot.kill()


def _ndjson(data: bytes) -> list[dict[str, Any]]:
    text = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data)).read().decode()
    return [json.loads(line) for line in text.splitlines()]


def _parquet(path: Path) -> list[dict[str, Any]]:
    """The Parquet rows with each game's JSON text read back: the NDJSON record's shape."""
    table = pq.read_table(path)
    assert table.schema.metadata[b"premiere.schema_version"] == b"1"
    rows = table.to_pylist()
    for row in rows:
        row["ended_at"] = row["ended_at"].isoformat()
        row["options"] = json.loads(row["options"])
        row["forced_at_start"] = _maybe(row["forced_at_start"])
        for move in row["moves"]:
            move["move"] = json.loads(move["move"])
            move["forced"] = _maybe(move["forced"])
        if row["result"] is not None:
            row["result"]["tiebreaks"] = json.loads(row["result"]["tiebreaks"])
    return rows


def _maybe(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def replay_to_result(record: dict[str, Any]) -> None:
    """Re-execute the match from its seed, options and moves, holding the engine's own moves
    to the log's, and compare its outcome with the recorded result."""
    game = games.get(record["game"])
    state = game.new(len(record["players"]), record["seed"], record["options"])
    game.checked_forced(state, record["forced_at_start"])
    for move in record["moves"]:
        state.apply(move["seat"], game.decode_move(move["move"], move["seat"]))
        game.checked_forced(state, move["forced"])
    outcome = state.outcome()
    assert outcome is not None, record["match_id"]
    assert record["result"] is not None
    assert list(outcome.scores) == record["result"]["scores"], record["match_id"]
    assert list(outcome.ranks) == record["result"]["ranks"], record["match_id"]


def _export(played: Played, game: str, fmt: str, out: Path) -> str:
    return premiere_cli(
        played.stack.arbiter.env(), "export", "--game", game, "--format", fmt, "--out", str(out)
    )


def test_exports(tmp_path: Path, browser: Browser) -> None:  # noqa: F811
    """One stack for every check (a test each would start one each under xdist)."""
    files = tmp_path / "files"
    files.mkdir()
    with playing(tmp_path / "stack") as played:
        check_files_replay_to_their_results(played, files)
        check_the_export_stream(played)
        check_monthly_files_manifest_and_pages(played, browser)


def check_files_replay_to_their_results(played: Played, tmp_path: Path) -> None:
    stack = played.stack
    exported: dict[tuple[str, str], list[dict[str, Any]]] = {}
    with psycopg.connect(stack.arbiter.database_url, autocommit=True) as conn:
        assert _status(conn, played.running) == "running"
        for game in (MAGIC, TRICKS):
            for fmt in ("parquet", "ndjson.zst"):
                out = tmp_path / f"{game}.{fmt}"
                said = _export(played, game, fmt, out)
                assert f"{len(played.ended[game])} matches" in said, said
                digest = hashlib.sha256(out.read_bytes()).hexdigest()
                assert digest in said
                exported[game, fmt] = (
                    _parquet(out) if fmt == "parquet" else _ndjson(out.read_bytes())
                )
        assert _status(conn, played.running) == "running", "the export ran while it ran"
    for game in (MAGIC, TRICKS):
        rows = exported[game, "ndjson.zst"]
        assert exported[game, "parquet"] == rows, "both formats hold the same records"
        assert sorted(r["match_id"] for r in rows) == sorted(played.ended[game])
        assert played.running not in {r["match_id"] for r in rows}
        for row in rows:
            assert row["schema_version"] == 1 and row["game"] == game
            replay_to_result(row)
            assert [p["seat"] for p in row["players"]] == list(range(len(row["players"])))
            if row["match_id"] == played.voided:
                assert row["voided"] and row["void_reason"] == "a bad deal"
                assert row["rating_changes"] == [] and not row["rated"]
            else:
                assert not row["voided"] and row["void_reason"] is None
            if row["match_id"] in played.rated and row["match_id"] != played.voided:
                seated = len(row["players"])
                assert row["rated"] and len(row["rating_changes"]) == seated
                for change in row["rating_changes"]:
                    assert change["after"] == pytest.approx(change["before"] + change["delta"])
    noted = next(r for r in exported[MAGIC, "ndjson.zst"] if r["match_id"] == played.noted)
    assert noted["players"][0] == {"seat": 0, "name": "noter", "bot": "noter", "version": None}
    assert noted["players"][1]["name"] == "builtin:random"
    views = stack.get(f"/api/matches/{played.noted}/views")
    shown = [
        (f["ply"], f["note"]) for f in views["frames"] if f["ply"] is not None and not f["forced"]
    ]
    assert [(m["ply"], m["note"]) for m in noted["moves"]] == shown
    assert any(m["note"] and m["note"].startswith("plan ") for m in noted["moves"])
    since = (datetime.now(UTC) + timedelta(days=1)).date().isoformat()
    out = tmp_path / "none.ndjson.zst"
    said = premiere_cli(
        stack.arbiter.env(),
        *("export", "--game", MAGIC, "--format", "ndjson.zst", "--out", str(out)),
        *("--since", since),
    )
    assert "0 matches" in said and _ndjson(out.read_bytes()) == []


def _get(stack: Stack, path: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(stack.http + path, timeout=30) as reply:
            return int(reply.status), dict(reply.headers), reply.read()
    except urllib.error.HTTPError as error:
        return int(error.code), dict(error.headers), error.read()


def check_the_export_stream(played: Played) -> None:
    stack = played.stack
    status, headers, body = _get(stack, f"/api/games/{MAGIC}/export?since=2000-01-01")
    assert status == 200, body[:400]
    assert headers["Transfer-Encoding"] == "chunked"
    assert headers["Content-Type"].startswith("application/x-ndjson")
    rows = [json.loads(line) for line in body.decode().splitlines()]
    assert sorted(r["match_id"] for r in rows) == sorted(played.ended[MAGIC])
    for row in rows:
        replay_to_result(row)
    status, _, body = _get(stack, f"/api/games/{TRICKS}/export")
    ids = {json.loads(line)["match_id"] for line in body.decode().splitlines()}
    assert status == 200 and played.voided in ids
    with psycopg.connect(stack.arbiter.database_url, autocommit=True) as conn:
        assert _status(conn, played.running) == "running"
    assert played.running not in ids and played.running not in body.decode()
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).date().isoformat()
    assert _get(stack, f"/api/games/{MAGIC}/export?since={tomorrow}")[2] == b""
    assert _get(stack, f"/api/games/{MAGIC}/export?since=yesterday")[0] == 400
    assert _get(stack, "/api/games/no-such-game/export")[0] == 404


def check_monthly_files_manifest_and_pages(played: Played, chromium: Browser) -> None:
    stack = played.stack
    folder = stack.folder / "exports"
    month = previous_month(datetime.now(UTC))
    ended = [m for ids in played.ended.values() for m in ids]
    with psycopg.connect(stack.arbiter.database_url, autocommit=True) as conn:
        # The matches ended last month, as far as the monthly files can tell.
        conn.execute(
            "UPDATE matches SET finished_at = date_trunc('month', now()) - interval '3 days'"
            " WHERE id = ANY(%s::uuid[])",
            (ended,),
        )
        conn.execute(
            "UPDATE rating_queue SET finished_at = date_trunc('month', now()) - interval '3 days'"
        )
    stack.workers.start_worker()
    settings = WorkerSettings(redis_url=redis_url(), queue=stack.workers.queue)
    make_app(settings).send_task("workers.tasks.export_month", queue=stack.workers.queue)
    files = eventually(
        lambda: ((found := read_manifest(folder)) and len(found) == 4 and found) or None,
        "the monthly files",
        timeout=60,
    )
    assert {(f.game, f.month, f.format) for f in files} == {
        (game, month, fmt) for game in (MAGIC, TRICKS) for fmt in ("parquet", "ndjson.zst")
    }
    for item in files:
        data = (folder / item.file).read_bytes()
        assert hashlib.sha256(data).hexdigest() == item.sha256
        assert len(data) == item.bytes and item.schema_version == 1
        assert item.matches == len(played.ended[item.game])
    before = {f.file: (folder / f.file).stat().st_mtime_ns for f in files}
    with psycopg.connect(stack.arbiter.database_url, autocommit=True) as conn:
        again = export_month(conn, folder, games.ids(), month, datetime.now(UTC))
    assert again == [], "a finished month is not written again"
    assert {f.file: (folder / f.file).stat().st_mtime_ns for f in files} == before
    assert read_manifest(folder) == files

    status, _, body = _get(stack, "/api/exports")
    assert status == 200
    listed = json.loads(body)["files"]
    assert {f["sha256"] for f in listed} == {f.sha256 for f in files}
    first = files[0]
    status, headers, data = _get(stack, f"/exports/{first.file}")
    assert status == 200 and hashlib.sha256(data).hexdigest() == first.sha256
    assert "attachment" in headers["Content-Disposition"]
    for bad in ("manifest.json", "..%2Fexports.log", "%2E%2E/ladder.log", "nothing.parquet"):
        assert _get(stack, f"/exports/{bad}")[0] == 404, bad

    for width, height in ((1366, 900), (390, 844)):
        context = chromium.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.goto(f"{stack.http}/exports")
        text = page.inner_text("body")
        for item in files:
            assert item.file in text and item.sha256 in text, (width, text[:1500])
            assert f"{item.matches} matches" in text
        assert "Match exports" in text
        scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert scroll <= inner, (width, scroll, inner)
        digest = page.locator("code.digest").first
        assert digest.is_visible()
        box = digest.bounding_box()
        assert box is not None and box["x"] + box["width"] <= width
        context.close()
