"""Bot versions through the real stack: a bot announces version 1 in its Hello and is rated in a
league; it comes back as version 2, which is a ladder entry of its own, linked to version 1,
starting from version 1's live rating; the owner rolls back to version 1 by CLI and the next
match seats it. The ladder's JSON API shows the lineage."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.integration.services import Arbiter, Workers, create_match, start_bot
from tests.integration.test_leagues import RANDOM, query, wait_finished, wait_rated


def _api(workers: Workers, path: str, timeout: float = 30) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(workers.ladder_http + path, timeout=5) as reply:
                return json.loads(reply.read())
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def _wait_connected(arbiter: Arbiter, name: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = query(arbiter, "SELECT 1 FROM bots WHERE name = %s AND games IS NOT NULL", name)
        if rows:
            return
        time.sleep(0.2)
    raise TimeoutError(f"{name} never connected")


def _league(workers: Workers, name: str) -> None:
    workers.cli(
        "league",
        "create",
        "--name",
        name,
        "--game",
        "movie-tricks",
        "--format",
        "round-robin",
        "--players",
        "2",
        "--bots",
        "alpha,builtin:random,builtin:first",
    )


def test_a_version_upgrade_and_a_roll_back(arbiter: Arbiter, tmp_path: Path) -> None:
    token = arbiter.add_bot("alpha")
    v1 = start_bot(arbiter, RANDOM, token, tmp_path / "v1.log", ["--bot-version", "1"])
    workers = Workers(arbiter, tmp_path)
    workers.start_worker()
    workers.start_beat()
    workers.start_ladder()
    v2 = None
    try:
        _wait_connected(arbiter, "alpha")
        _league(workers, "first")
        wait_finished(arbiter, workers, "first")
        wait_rated(arbiter, "first")
        v1.terminate()
        v1.wait(10)
        (before,) = query(
            arbiter,
            "SELECT rating, games FROM ladder_ratings WHERE player = 'alpha'"
            " AND game = 'movie-tricks'",
        )
        assert before["games"] > 0

        v2 = start_bot(arbiter, RANDOM, token, tmp_path / "v2.log", ["--bot-version", "2"])
        _wait_connected(arbiter, "alpha@2")
        _league(workers, "second")
        wait_finished(arbiter, workers, "second")
        wait_rated(arbiter, "second")

        # Version 2 played the second league on a ladder entry of its own; version 1's rating
        # did not move, and version 2's live Elo started from it.
        seated = query(
            arbiter,
            "SELECT DISTINCT b.name FROM league_tables t JOIN leagues l ON l.id = t.league_id"
            " JOIN match_seats s ON s.match_id = t.match_id JOIN bots b ON b.id = s.bot_id"
            " WHERE l.name = 'second'",
        )
        assert [row["name"] for row in seated] == ["alpha@2"]
        (after,) = query(
            arbiter,
            "SELECT rating, games FROM ladder_ratings WHERE player = 'alpha'"
            " AND game = 'movie-tricks'",
        )
        assert after == before
        (start,) = query(
            arbiter,
            "SELECT r.start, r.games FROM ratings r JOIN bots b ON b.id = r.bot_id"
            " WHERE b.name = 'alpha@2' AND r.game = 'movie-tricks'",
        )
        assert start["start"] == before["rating"] and start["games"] > 0
        (first_point,) = query(
            arbiter,
            "SELECT before FROM public_rating_history WHERE player = 'alpha@2'"
            " AND game = 'movie-tricks' ORDER BY seq LIMIT 1",
        )
        assert first_point["before"] == before["rating"]

        lineage = _api(workers, "/api/bots/alpha@2/versions")
        assert lineage["family"] == "alpha"
        assert [
            (v["name"], v["version"], v["predecessor"], v["active"]) for v in lineage["versions"]
        ] == [
            ("alpha", "1", None, False),
            ("alpha@2", "2", "alpha", True),
        ]
        assert lineage["versions"][1]["ratings"]["movie-tricks"]["provisional"] is True

        # The owner rolls back: the family's name seats version 1 again.
        assert "alpha plays as alpha from now on" in workers.cli("bots", "activate", "alpha", "1")
        shown = workers.cli("bots", "versions", "alpha")
        assert shown.splitlines()[0].startswith("* alpha ")
        match_id = create_match(arbiter.matches(), ["alpha", "builtin:random"], "", "movie-tricks")
        (seat,) = query(
            arbiter,
            "SELECT b.name FROM match_seats s JOIN bots b ON b.id = s.bot_id WHERE s.match_id = %s",
            match_id,
        )
        assert seat["name"] == "alpha"
        assert _api(workers, "/api/bots/alpha/versions")["versions"][0]["active"] is True
        # Each change is an event its owner can read.
        events = _api(workers, "/api/bots/alpha@2/standing")["events"]
        assert events[0]["message"].startswith("new version after alpha;")
        events = _api(workers, "/api/bots/alpha/standing")["events"]
        assert events[-1]["kind"] == "activated"

        # An SPRT between the two versions names each exactly (the first as alpha@1).
        workers.cli(
            "league",
            "create",
            "--name",
            "h2h",
            "--game",
            "movie-tricks",
            "--format",
            "sprt",
            "--players",
            "2",
            "--bots",
            "alpha@2,alpha@1",
        )
        deadline = time.monotonic() + 30
        seated: list[dict[str, Any]] = []
        while time.monotonic() < deadline and len(seated) < 2:
            seated = query(
                arbiter,
                "SELECT DISTINCT b.name FROM league_tables t JOIN leagues l ON l.id = t.league_id"
                " JOIN match_seats s ON s.match_id = t.match_id JOIN bots b ON b.id = s.bot_id"
                " WHERE l.name = 'h2h' ORDER BY b.name",
            )
            time.sleep(0.3)
        assert [row["name"] for row in seated] == ["alpha", "alpha@2"]
        workers.cli("league", "cancel", "h2h")
    finally:
        workers.stop()
        for bot in (v1, v2):
            if bot is not None and bot.poll() is None:
                bot.terminate()
                bot.wait(10)
