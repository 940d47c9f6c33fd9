"""Chaos: two arbiters, a worker, beat and the ladder run a duplicate league while one arbiter
is killed with kill -9 three times (and restarted) and PostgreSQL is restarted once.

The league completes; every match was hosted by one owner at a time (its moves' fencing numbers
never go back); every finished match re-executes from its seed and logged moves to its stored
outcome (nothing lost or doubled); each table has one match, rated once."""

from __future__ import annotations

import shutil
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import psycopg
from psycopg.rows import dict_row

import games
from games.values import to_plain
from premiere.db import create_database, upgrade
from premiere.services import PrivatePostgres
from tests.integration.services import Arbiter, Workers, free_port, redis_url, start_bot
from tests.integration.test_leagues import assert_exactly_once, wait_finished, wait_rated

STEADY = "tests.integration.bad_bots:SteadyBot"


def rows(url: str, sql: str, *params: Any) -> list[dict[str, Any]]:
    with psycopg.connect(url, row_factory=dict_row) as conn:
        return conn.execute(sql, params).fetchall()


def assert_one_owner_at_a_time(url: str) -> int:
    """Per match, the fencing numbers of its moves never decrease with the ply, and none is
    above the lease's; returns the highest fencing number seen (above 1: a takeover)."""
    highest = 0
    for match in rows(
        url, "SELECT m.id, l.fence FROM matches m JOIN match_leases l ON l.match_id = m.id"
    ):
        fences = [
            r["fence"]
            for r in rows(
                url, "SELECT fence FROM match_moves WHERE match_id = %s ORDER BY ply", match["id"]
            )
        ]
        assert fences == sorted(fences), (match["id"], fences)
        assert all(f <= match["fence"] for f in fences)
        highest = max(highest, match["fence"])
    return highest


def wait_hosting(url: str, owner: str, timeout: float = 30) -> None:
    """Until the arbiter named ``owner`` holds the lease of a running match (or the timeout:
    the league may be between rounds, or over)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        held = rows(
            url,
            "SELECT count(*) AS n FROM match_leases l JOIN matches m ON m.id = l.match_id"
            " WHERE m.status = 'running' AND l.owner LIKE %s",
            f"{owner}%",
        )
        if held[0]["n"]:
            return
        time.sleep(0.1)


def assert_replays_reach_their_outcomes(url: str) -> int:
    finished = rows(url, "SELECT * FROM matches WHERE status = 'finished'")
    for match in finished:
        game = games.get(match["game"])
        state = game.new(match["players"], match["seed"], match["options"])
        moves = rows(
            url,
            "SELECT ply, seat, move FROM match_moves WHERE match_id = %s ORDER BY ply",
            match["id"],
        )
        assert [m["ply"] for m in moves] == list(range(len(moves)))
        for move in moves:
            state.apply(move["seat"], game.decode_move(move["move"], move["seat"]))
        assert state.is_over(), match["id"]
        gone = [
            s["seat"]
            for s in rows(
                url, "SELECT seat FROM match_seats WHERE match_id = %s AND forfeited", match["id"]
            )
        ]
        outcome = state.outcome()
        assert outcome is not None
        assert to_plain(outcome.with_forfeits(gone)) == match["outcome"], match["id"]
    return len(finished)


def test_a_league_survives_arbiter_kills_and_a_database_restart(tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="premiere-chaos-"))
    folder.chmod(0o755)
    postgres = PrivatePostgres(folder / "pg")
    postgres.start()
    name = f"chaos_{uuid.uuid4().hex[:8]}"
    create_database(postgres.admin_url, name)
    url = postgres.url(name)
    upgrade(url)
    settings = {
        "PREMIERE_RELAY": "true",
        "PREMIERE_REDIS_URL": redis_url(),
        "PREMIERE_LEASE_S": "2",
        "PREMIERE_LEASE_RENEW_S": "0.5",
        "PREMIERE_MOVE_TIME_MS": "300",
        "PREMIERE_TIME_BANK_MS": "1000",
    }
    victim = Arbiter(
        url, free_port(), free_port(), settings={**settings, "PREMIERE_ARBITER_NAME": "victim"}
    )
    steady = Arbiter(
        url, free_port(), free_port(), settings={**settings, "PREMIERE_ARBITER_NAME": "steady"}
    )
    victim.start(tmp_path / "victim-0.log")
    steady.start(tmp_path / "steady.log")
    tokens = {n: victim.add_bot(n) for n in ("alpha", "beta")}
    bots = [
        start_bot(steady, STEADY, tokens["alpha"], tmp_path / "alpha.log"),
        start_bot(victim, STEADY, tokens["beta"], tmp_path / "beta.log"),
    ]
    workers = Workers(victim, tmp_path)  # the workers create every match on the victim
    workers.start_worker()
    workers.start_beat()
    workers.start_ladder()
    try:
        workers.cli(
            "league", "create", "--name", "chaos", "--game", "magic-trick",
            "--format", "duplicate", "--players", "3", "--rounds", "2",
            "--bots", "alpha,beta,builtin:random,builtin:heuristic",
        )  # fmt: skip
        kills = 0
        while kills < 3:
            time.sleep(1.0)
            wait_hosting(url, "victim/")  # a kill that hosts nothing would test nothing
            victim.kill()
            kills += 1
            if kills == 2:
                postgres.stop()
                time.sleep(1.5)
                postgres.start()
            victim.start(tmp_path / f"victim-{kills}.log")
        wait_finished(victim, workers, "chaos", timeout=120)
        wait_rated(victim, "chaos")
        assert_exactly_once(victim, "chaos")
        assert assert_one_owner_at_a_time(url) > 1, "no match was ever taken over"
        assert assert_replays_reach_their_outcomes(url) >= 6
        restarts = rows(url, "SELECT count(*) AS n FROM match_faults WHERE kind = 'restart'")
        assert restarts[0]["n"] >= 1
    finally:
        workers.stop()
        for bot in bots:
            bot.terminate()
            bot.wait(10)
        victim.stop()
        steady.stop()
        postgres.stop()
        shutil.rmtree(folder, ignore_errors=True)
