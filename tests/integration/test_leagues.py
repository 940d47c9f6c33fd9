"""Leagues end to end: real Redis, a real Celery worker and beat, the arbiter and Postgres."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import psycopg
from psycopg.rows import dict_row

from tests.integration.services import Arbiter, Workers, free_port, start_bot
from workers.config import WorkerSettings

RANDOM = "premiere_bot.examples.random_bot:RandomBot"
BUILTINS = "builtin:random,builtin:heuristic,builtin:first,builtin:last"


def query(arbiter: Arbiter, sql: str, *params: Any) -> list[dict[str, Any]]:
    with psycopg.connect(arbiter.database_url, row_factory=dict_row) as conn:
        return conn.execute(sql, params).fetchall()


def wait_finished(arbiter: Arbiter, workers: Workers, name: str, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = query(arbiter, "SELECT status FROM leagues WHERE name = %s", name)
        if rows and rows[0]["status"] == "finished":
            return
        time.sleep(0.5)
    logs = "\n".join(p.read_text()[-3000:] for p in workers.folder.glob("*.log"))
    raise TimeoutError(f"league {name} did not finish:\n{logs}")


def wait_rated(arbiter: Arbiter, name: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        missing = query(
            arbiter,
            "SELECT count(*) AS n FROM league_tables t JOIN leagues l ON l.id = t.league_id"
            " WHERE l.name = %s AND t.status = 'finished' AND NOT EXISTS"
            " (SELECT 1 FROM rated_matches r WHERE r.match_id = t.match_id)",
            name,
        )[0]["n"]
        if missing == 0:
            return
        time.sleep(0.5)
    unrated = query(
        arbiter,
        "SELECT m.id, m.rated, m.unrated_reason, m.status FROM league_tables t"
        " JOIN leagues l ON l.id = t.league_id JOIN matches m ON m.id = t.match_id"
        " WHERE l.name = %s AND t.status = 'finished' AND NOT EXISTS"
        " (SELECT 1 FROM rated_matches r WHERE r.match_id = t.match_id)",
        name,
    )
    raise TimeoutError(f"league matches were not all rated: {unrated}")


def assert_finish_order(arbiter: Arbiter, game: str) -> None:
    """The ladder applied the game's matches in the order they finished."""
    rated = query(
        arbiter,
        "SELECT r.match_id FROM rated_matches r JOIN matches m ON m.id = r.match_id"
        " WHERE r.game = %s AND r.seq IS NOT NULL ORDER BY r.seq",
        game,
    )
    finished = query(
        arbiter,
        "SELECT r.match_id FROM rated_matches r JOIN matches m ON m.id = r.match_id"
        " WHERE r.game = %s AND r.seq IS NOT NULL ORDER BY m.finished_at, m.id",
        game,
    )
    assert len(rated) > 1
    assert rated == finished


def assert_exactly_once(arbiter: Arbiter, name: str) -> None:
    """One match per table, every table's match finished and rated once, nothing extra."""
    tables = query(
        arbiter,
        "SELECT t.match_id, t.status, t.seats FROM league_tables t"
        " JOIN leagues l ON l.id = t.league_id WHERE l.name = %s",
        name,
    )
    assert tables
    assert all(t["status"] == "finished" for t in tables), tables
    ids = [t["match_id"] for t in tables]
    assert len(set(ids)) == len(ids)
    league_id = query(arbiter, "SELECT id FROM leagues WHERE name = %s", name)[0]["id"]
    created = query(
        arbiter,
        "SELECT count(*) AS n FROM matches WHERE idempotency_key LIKE %s",
        f"league:{league_id}:%",
    )[0]["n"]
    assert created == len(tables)
    rated = query(arbiter, "SELECT count(*) AS n FROM rated_matches WHERE match_id = ANY(%s)", ids)[
        0
    ]["n"]
    assert rated == len(tables)
    for table in tables:
        rows = query(
            arbiter,
            "SELECT count(*) AS n FROM rating_history WHERE match_id = %s",
            table["match_id"],
        )[0]["n"]
        # A solo table is rated as two seats: the bot and the reference player it faced.
        solo = len(table["seats"]) == 1
        assert rows == (2 if solo else len(set(table["seats"])))


def test_round_robin_league_runs_to_completion(arbiter: Arbiter, tmp_path: Path) -> None:
    token = arbiter.add_bot("remote")
    bot = start_bot(arbiter, RANDOM, token, tmp_path / "remote.log")
    workers = Workers(arbiter, tmp_path)
    workers.start_worker()
    workers.start_beat()
    workers.start_ladder()
    try:
        workers.cli(
            "league",
            "create",
            "--name",
            "rr",
            "--game",
            "magic-trick",
            "--format",
            "round-robin",
            "--bots",
            f"{BUILTINS},remote",
            "--players",
            "3",
        )
        wait_finished(arbiter, workers, "rr")
        wait_rated(arbiter, "rr")
        assert_exactly_once(arbiter, "rr")
        assert_finish_order(arbiter, "magic-trick")
        rounds = query(
            arbiter,
            "SELECT r.status, r.standings FROM league_rounds r JOIN leagues l"
            " ON l.id = r.league_id WHERE l.name = 'rr' ORDER BY number",
        )
        league = query(arbiter, "SELECT rounds FROM leagues WHERE name = 'rr'")[0]
        assert len(rounds) == league["rounds"]
        assert all(r["status"] == "closed" for r in rounds)
        games = {row["bot"]: row["games"] for row in rounds[-1]["standings"]}
        assert set(games) == set(BUILTINS.split(",")) | {"remote"}
        assert max(games.values()) == min(games.values())
        shown = workers.cli("league", "show", "rr")
        assert "remote" in shown
        assert f"finished after {league['rounds']} rounds" in shown
        ladder = query(
            arbiter,
            "SELECT r.games FROM ratings r JOIN bots b ON b.id = r.bot_id"
            " WHERE b.name = 'remote' AND r.game = 'magic-trick'",
        )
        assert ladder and ladder[0]["games"] == games["remote"]
    finally:
        workers.stop()
        bot.terminate()
        bot.wait(10)


def test_killed_workers_lose_and_duplicate_nothing(arbiter: Arbiter, tmp_path: Path) -> None:
    workers = Workers(arbiter, tmp_path)
    workers.start_worker()
    workers.start_beat()
    workers.start_ladder()
    try:
        workers.cli(
            "league",
            "create",
            "--name",
            "chaos",
            "--game",
            "magic-trick",
            "--format",
            "round-robin",
            "--bots",
            BUILTINS,
            "--players",
            "3",
            "--rounds",
            "8",
        )
        deadline = time.monotonic() + 240
        kills = 0
        while kills < 6 and time.monotonic() < deadline:
            status = query(arbiter, "SELECT status FROM leagues WHERE name = 'chaos'")
            if status[0]["status"] == "finished":
                break
            time.sleep(2.5)
            workers.kill_worker()
            kills += 1
            time.sleep(0.5)
            workers.start_worker()
        assert kills >= 3
        wait_finished(arbiter, workers, "chaos")
        wait_rated(arbiter, "chaos")
        assert_exactly_once(arbiter, "chaos")
        assert_finish_order(arbiter, "magic-trick")
    finally:
        workers.stop()


def test_double_ticks_and_duplicate_deliveries_make_one_round(
    database_url: str, tmp_path: Path
) -> None:
    """Also run against an arbiter that only creates matches for the operator's token: the
    workers pass PREMIERE_OPERATOR_TOKEN on."""
    arbiter = Arbiter(
        database_url, free_port(), free_port(), settings={"PREMIERE_OPERATOR_TOKEN": "op"}
    )
    arbiter.start(tmp_path / "arbiter.log")
    workers = Workers(arbiter, tmp_path)
    workers.start_worker()
    workers.start_beat("beat-1.log")
    workers.start_ladder()
    second_beat = workers._spawn("beat", log="beat-2.log")
    try:
        workers.cli(
            "league",
            "create",
            "--name",
            "hourly",
            "--game",
            "magic-trick",
            "--format",
            "round-robin",
            "--bots",
            BUILTINS,
            "--players",
            "4",
            "--every",
            "1h",
        )
        league_id = query(arbiter, "SELECT id FROM leagues WHERE name = 'hourly'")[0]["id"]
        from workers.app import make_app

        settings = WorkerSettings(
            database_url=arbiter.database_url,
            redis_url=workers.env()["PREMIERE_REDIS_URL"],
            queue=workers.queue,
        )
        app = make_app(settings)
        deadline = time.monotonic() + 60
        while not query(arbiter, "SELECT 1 FROM league_rounds WHERE league_id = %s", league_id):
            assert time.monotonic() < deadline
            time.sleep(0.2)
        for _ in range(2):
            app.send_task("workers.tasks.open_round", args=[league_id, 1])
            app.send_task("workers.tasks.dispatch_table", args=[league_id, 1, 0])
            app.send_task("workers.tasks.tick")
        deadline = time.monotonic() + 90
        while query(
            arbiter,
            "SELECT 1 FROM league_rounds WHERE league_id = %s AND status = 'open'",
            league_id,
        ):
            assert time.monotonic() < deadline
            time.sleep(0.5)
        time.sleep(3)
        rounds = query(arbiter, "SELECT * FROM league_rounds WHERE league_id = %s", league_id)
        assert len(rounds) == 1
        assert rounds[0]["slot"].startswith("every:")
        wait_rated(arbiter, "hourly")
        assert_exactly_once(arbiter, "hourly")
    finally:
        second_beat.terminate()
        workers.stop()
        arbiter.stop()


def test_run_now_opens_the_next_round_without_waiting(arbiter: Arbiter, tmp_path: Path) -> None:
    workers = Workers(arbiter, tmp_path)
    workers.start_worker()
    workers.start_beat()
    try:
        workers.cli(
            "league",
            "create",
            "--name",
            "daily",
            "--game",
            "movie-tricks",
            "--format",
            "round-robin",
            "--bots",
            BUILTINS,
            "--players",
            "2",
            "--every",
            "1d",
        )

        def closed() -> int:
            return int(
                query(
                    arbiter,
                    "SELECT count(*) AS n FROM league_rounds r JOIN leagues l"
                    " ON l.id = r.league_id WHERE l.name = 'daily' AND r.status = 'closed'",
                )[0]["n"]
            )

        deadline = time.monotonic() + 90
        while closed() < 1:
            assert time.monotonic() < deadline
            time.sleep(0.5)
        assert "round 2 opened" in workers.cli("league", "run-now", "daily")
        while closed() < 2:
            assert time.monotonic() < deadline
            time.sleep(0.5)
        slots = [
            row["slot"]
            for row in query(
                arbiter,
                "SELECT slot FROM league_rounds r JOIN leagues l ON l.id = r.league_id"
                " WHERE l.name = 'daily' ORDER BY number",
            )
        ]
        assert slots[0].startswith("every:") and slots[1].startswith("now:")
        assert len(slots) == 2
        listed = workers.cli("league", "list")
        assert "daily" in listed and "rounds 2/" in listed
    finally:
        workers.stop()
