"""The validation gate and probation through the real stack (arbiter, Celery worker and beat,
ladder, Postgres, bots over gRPC): a clean bot passes validation into rated play, a broken one
fails it and is told why; a bot that starts faulting goes on probation (unrated, fewer games)
and comes back after clean matches; an operator disables and enables a bot by CLI. Every
change is an event on the ladder's JSON API."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.integration.services import Arbiter, Workers, free_port, start_bot
from tests.integration.test_leagues import query

BOTS = "tests.integration.standing_bots"


@pytest.fixture
def gated(database_url: str, tmp_path: Path) -> Iterator[Arbiter]:
    server = Arbiter(
        database_url,
        free_port(),
        free_port(),
        settings={
            "PREMIERE_VALIDATION_MATCHES": "2",
            "PREMIERE_PROBATION_WINDOW": "4",
            "PREMIERE_PROBATION_THRESHOLD": "0.5",
            "PREMIERE_PROBATION_RECOVER": "3",
        },
    )
    server.start(tmp_path / "arbiter.log")
    try:
        yield server
    finally:
        server.stop()


def _api(workers: Workers, path: str) -> Any:
    with urllib.request.urlopen(workers.ladder_http + path, timeout=5) as reply:
        return json.loads(reply.read())


def _wait_state(
    arbiter: Arbiter, workers: Workers, bot: str, state: str, timeout: float = 90
) -> None:
    deadline = time.monotonic() + timeout
    rows: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        rows = query(arbiter, "SELECT state FROM bot_standing WHERE bot = %s", bot)
        if rows and rows[0]["state"] == state:
            return
        time.sleep(0.3)
    logs = "\n".join(p.read_text()[-3000:] for p in workers.folder.glob("*.log"))
    raise TimeoutError(f"{bot} never became {state}: {rows}\n{logs}")


def _kinds(workers: Workers, bot: str) -> list[str]:
    return [event["kind"] for event in _api(workers, f"/api/bots/{bot}/standing")["events"]]


def test_validation_passes_a_clean_bot_and_fails_a_broken_one(
    gated: Arbiter, tmp_path: Path
) -> None:
    clean = start_bot(gated, f"{BOTS}:CleanBot", gated.add_bot("clean"), tmp_path / "c.log")
    broken = start_bot(gated, f"{BOTS}:BrokenBot", gated.add_bot("broken"), tmp_path / "b.log")
    workers = Workers(gated, tmp_path)
    workers.start_worker()
    workers.start_beat()
    workers.start_ladder()
    try:
        _wait_state(gated, workers, "clean", "rated")
        _wait_state(gated, workers, "broken", "failed")
        assert _kinds(workers, "clean") == ["validating", "validated"]
        failed = _api(workers, "/api/bots/broken/standing")
        assert failed["state"] == "failed"
        assert [e["kind"] for e in failed["events"]] == ["validating", "validation-failed"]
        message = failed["events"][-1]["message"]
        assert "movie-tricks match" in message and "illegal" in message

        # Two unrated validation matches each, against built-ins, on arbiter-drawn seeds.
        played = query(
            gated,
            "SELECT v.bot, m.rated, m.seed, array_agg(coalesce(b.name, 'builtin:' || s.builtin))"
            " AS seats FROM validation_matches v JOIN matches m ON m.id = v.match_id"
            " JOIN match_seats s ON s.match_id = m.id LEFT JOIN bots b ON b.id = s.bot_id"
            " GROUP BY v.bot, m.id",
        )
        assert sorted(row["bot"] for row in played) == ["broken", "broken", "clean", "clean"]
        assert not any(row["rated"] for row in played)
        for row in played:
            assert row["bot"] in row["seats"]
            assert all(s.startswith("builtin:") for s in row["seats"] if s != row["bot"])

        # The operator disables the clean bot: its league table is not played; enabled, it
        # validates again and is rated.
        workers.cli("bots", "disable", "clean")
        workers.cli(
            "league",
            "create",
            "--name",
            "l",
            "--game",
            "movie-tricks",
            "--format",
            "round-robin",
            "--players",
            "2",
            "--bots",
            "clean,builtin:random",
            "--rounds",
            "1",
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            tables = query(gated, "SELECT status FROM league_tables")
            if tables and all(t["status"] == "void" for t in tables):
                break
            time.sleep(0.3)
        assert tables and all(t["status"] == "void" for t in tables)
        shown = workers.cli("bots", "enable", "clean")
        assert "validating again" in shown
        _wait_state(gated, workers, "clean", "rated")
        assert _kinds(workers, "clean")[-3:] == ["disabled", "enabled", "validated"]
        assert "clean: rated" in workers.cli("bots", "events", "clean")
    finally:
        workers.stop()
        for bot in (clean, broken):
            bot.terminate()
            bot.wait(10)


def test_probation_starts_on_faults_and_ends_on_clean_play(
    gated: Arbiter, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    flag = tmp_path / "faulty"
    monkeypatch.setenv("PREMIERE_TEST_FLAKY", str(flag))
    bot = start_bot(gated, f"{BOTS}:FlakyBot", gated.add_bot("flaky"), tmp_path / "f.log")
    workers = Workers(gated, tmp_path)
    workers.start_worker()
    workers.start_beat()
    workers.start_ladder()
    try:
        _wait_state(gated, workers, "flaky", "rated")
        workers.cli(
            "league",
            "create",
            "--name",
            "ladder",
            "--game",
            "movie-tricks",
            "--format",
            "ladder",
            "--players",
            "2",
            "--bots",
            "flaky,builtin:random,builtin:first,builtin:heuristic",
        )
        flag.touch()
        _wait_state(gated, workers, "flaky", "probation")
        (since,) = query(gated, "SELECT since FROM bot_standing WHERE bot = 'flaky'")
        flag.unlink()
        _wait_state(gated, workers, "flaky", "rated")
        assert _kinds(workers, "flaky") == [
            "validating",
            "validated",
            "probation",
            "probation-ended",
        ]
        # On probation its league matches were unrated, and it sat out every other round.
        during = query(
            gated,
            "SELECT t.round, m.rated, 'flaky' = ANY(t.seats) AS seated FROM league_tables t"
            " JOIN matches m ON m.id = t.match_id JOIN league_rounds r"
            " ON r.league_id = t.league_id AND r.number = t.round"
            " WHERE r.opened_at > %s AND m.created_at > %s"
            " AND m.created_at < (SELECT since FROM bot_standing WHERE bot = 'flaky')",
            since["since"],
            since["since"],
        )
        seated = [row for row in during if row["seated"]]
        assert seated and not any(row["rated"] for row in seated)
        assert all(row["round"] % 2 == 0 for row in seated)
        # Matches it plays once rated again are rated.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            rated = query(
                gated,
                "SELECT m.rated FROM league_tables t JOIN matches m ON m.id = t.match_id"
                " WHERE 'flaky' = ANY(t.seats) AND m.created_at >"
                " (SELECT since FROM bot_standing WHERE bot = 'flaky')",
            )
            if rated:
                break
            time.sleep(0.3)
        assert rated and all(row["rated"] for row in rated)
    finally:
        workers.stop()
        bot.terminate()
        bot.wait(10)
