"""`premiere ladder` as a real process on a scratch database: it rates finished matches on its
own, and serves the same ladder over gRPC and as JSON over HTTP, with Prometheus metrics."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import psycopg
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from ladder.seats import seat_advantage
from premiere.stack import PROMPT_RECONNECT
from premiere_wire import ladder_pb2, ladder_pb2_grpc
from tests.integration.services import BIN, free_port, scratch_database
from tests.ladder.synthetic import GAME, Synthetic, add_bots, insert_matches, random_matches

NAMES = ["ada", "grace", "edsger", "barbara", "donald"]


class Ladder:
    def __init__(
        self, database_url: str, log_path: Path, interval: float = 0.2, **env_vars: str
    ) -> None:
        self.grpc_address = f"127.0.0.1:{free_port()}"
        self.http = f"http://127.0.0.1:{free_port()}"
        self.log_path = log_path
        env = dict(os.environ, PREMIERE_DATABASE_URL=database_url, **env_vars)
        self.process = subprocess.Popen(
            [
                str(BIN / "premiere"),
                "ladder",
                "--grpc-address",
                self.grpc_address,
                "--http-address",
                self.http.removeprefix("http://"),
                "--interval",
                str(interval),
            ],
            env=env,
            stdout=log_path.open("ab"),
            stderr=subprocess.STDOUT,
        )
        self.channel = grpc.insecure_channel(self.grpc_address, PROMPT_RECONNECT)
        self.stub = ladder_pb2_grpc.LadderServiceStub(self.channel)

    def log(self) -> str:
        return self.log_path.read_text()[-4000:]

    def wait_serving(self, timeout: float = 90) -> None:
        health = health_pb2_grpc.HealthStub(self.channel)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"premiere ladder exited: {self.log()}")
            try:
                reply = health.Check(
                    health_pb2.HealthCheckRequest(service="premiere.v1.LadderService"), timeout=1
                )
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError:
                pass
            time.sleep(0.1)
        raise TimeoutError(f"premiere ladder not serving: {self.log()}")

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.http + path, timeout=10) as reply:
            return json.loads(reply.read())

    def status_of(self, path: str) -> int:
        try:
            with urllib.request.urlopen(self.http + path, timeout=10) as reply:
                return int(reply.status)
        except urllib.error.HTTPError as error:
            return error.code

    def wait_rated(self, count: int, timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            board: dict[str, Any] = self.get(f"/api/games/{GAME}/leaderboard")
            if board["rated_matches"] == count:
                return board
            time.sleep(0.1)
        raise TimeoutError(f"{count} matches not rated: {self.log()}")

    def stop(self) -> int:
        self.channel.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                return self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        return int(self.process.returncode)


@pytest.fixture
def database_url() -> Iterator[str]:
    with scratch_database() as url:
        yield url


def test_a_finished_match_is_rated_once_settled_not_at_the_next_interval(
    database_url: str, tmp_path: Path
) -> None:
    """The queue trigger's notice wakes the rating loop: with a 60 s interval and a 0.3 s
    settle delay, a match finished while the loop waits is rated within a few seconds."""
    with psycopg.connect(database_url) as conn:
        bots = add_bots(conn, NAMES)
        (match_id,) = insert_matches(
            conn, [Synthetic(("ada", "grace"), (1, 2), status="running")], bots
        )
    ladder = Ladder(
        database_url, tmp_path / "ladder.log", interval=60, PREMIERE_LADDER_RATE_SETTLE_S="0.3"
    )
    try:
        ladder.wait_serving()
        time.sleep(1.0)  # the loop's first pass is over: it waits for 60 s or a notice
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(
                "UPDATE matches SET status = 'finished', finished_at = now(), outcome = %s"
                " WHERE id = %s",
                (
                    json.dumps(
                        {"scores": [20, 10], "ranks": [1, 2], "tiebreaks": [], "forfeited": []}
                    ),
                    match_id,
                ),
            )
        started = time.monotonic()
        ladder.wait_rated(1, timeout=20)
        assert time.monotonic() - started < 10
    finally:
        assert ladder.stop() == 0


def test_a_finished_match_is_rated_within_a_second_not_a_settle_delay_later(
    database_url: str, tmp_path: Path
) -> None:
    """With a 10 s settle delay and a 60 s interval, a match finished while nothing else is
    being committed is rated well within a second of its finish, by PostgreSQL's clock (the
    settle delay is only the longest a pass waits for a commit in flight)."""
    with psycopg.connect(database_url) as conn:
        bots = add_bots(conn, NAMES)
        (match_id,) = insert_matches(
            conn, [Synthetic(("ada", "grace"), (1, 2), status="running")], bots
        )
    ladder = Ladder(
        database_url, tmp_path / "ladder.log", interval=60, PREMIERE_LADDER_RATE_SETTLE_S="10"
    )
    try:
        ladder.wait_serving()
        time.sleep(1.0)
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(
                "UPDATE matches SET status = 'finished', outcome = %s,"
                " finished_at = clock_timestamp() WHERE id = %s",
                (
                    json.dumps(
                        {"scores": [20, 10], "ranks": [1, 2], "tiebreaks": [], "forfeited": []}
                    ),
                    match_id,
                ),
            )
            ladder.wait_rated(1, timeout=20)
            row = conn.execute(
                "SELECT extract(epoch FROM max(h.applied_at) - m.finished_at)"
                " FROM rating_history h JOIN matches m ON m.id = h.match_id"
                " WHERE m.id = %s GROUP BY m.finished_at",
                (match_id,),
            ).fetchone()
        assert row is not None
        assert float(row[0]) < 1.0, f"rated {float(row[0]):.3f} s after it finished"
    finally:
        assert ladder.stop() == 0


def test_ladder_process_rates_and_serves_grpc_and_json(database_url: str, tmp_path: Path) -> None:
    with psycopg.connect(database_url) as conn:
        bots = add_bots(conn, NAMES)
        matches = random_matches(30, [*NAMES, "builtin:heuristic"], seed=4)
        ids = insert_matches(conn, matches, bots)
        (running,) = insert_matches(
            conn, [Synthetic(("ada", "grace"), (1, 2), status="running")], bots
        )
        conn.execute(
            "INSERT INTO match_moves (match_id, ply, seat, move) VALUES (%s, 0, 0, %s)",
            (ids[0], '{"kind": "pass"}'),
        )
        forced = '[{"seat": 1, "move": {"kind": "pass-guess"}}]'
        conn.execute(
            "INSERT INTO match_moves (match_id, ply, seat, move, forced) VALUES (%s, 1, 1, %s, %s)",
            (ids[0], '{"kind": "pass"}', forced),
        )
        conn.execute("UPDATE matches SET forced_at_start = %s WHERE id = %s", (forced, ids[0]))
        conn.commit()

    ladder = Ladder(database_url, tmp_path / "ladder.log")
    try:
        ladder.wait_serving()
        board = ladder.wait_rated(30)

        # The leaderboard, over gRPC and as JSON: the same players in the same order.
        reply = ladder.stub.GetLeaderboard(ladder_pb2.GetLeaderboardRequest(game=GAME), timeout=10)
        assert reply.game == GAME and reply.rated_matches == 30
        assert reply.standings_matches == board["standings_matches"] == 30
        assert [e.player for e in reply.entries] == [e["player"] for e in board["entries"]]
        assert len(reply.entries) == 6
        for entry, plain in zip(reply.entries, board["entries"], strict=True):
            assert entry.HasField("standing") and plain["standing"] is not None
            assert entry.standing.low < entry.standing.rating < entry.standing.high
            assert entry.standing.rating == pytest.approx(plain["standing"]["rating"])
            assert entry.elo == plain["elo"] and entry.games == plain["games"]
            assert entry.provisional == plain["provisional"] == (entry.games < 20)
        heuristic = next(e for e in reply.entries if e.player == "builtin:heuristic")
        assert heuristic.builtin

        # A bot's history: one point per rated match, ending at its live Elo.
        ada = next(e for e in reply.entries if e.player == "ada")
        history = ladder.stub.GetRatingHistory(
            ladder_pb2.GetRatingHistoryRequest(game=GAME, player="ada"), timeout=10
        )
        assert len(history.points) == ada.games
        assert history.points[-1].after == ada.elo
        plain_history = ladder.get(f"/api/bots/ada/history?game={GAME}")
        assert [p["after"] for p in plain_history["points"]] == [p.after for p in history.points]
        assert ladder.get(f"/api/bots/builtin:heuristic/history?game={GAME}")["builtin"] is True

        # Recent matches, page by page, each with a replay link that works.
        seen = []
        seat_rated: dict[str, list[bool]] = {}
        token = ""
        while True:
            page = ladder.stub.ListMatches(
                ladder_pb2.ListMatchesRequest(game=GAME, page_size=8, page_token=token),
                timeout=10,
            )
            seen += [m.match_id for m in page.matches]
            seat_rated.update({m.match_id: [s.rated for s in m.seats] for m in page.matches})
            token = page.next_page_token
            if not token:
                break
        assert seen == list(reversed(ids))
        first = ladder.get(f"/api/games/{GAME}/matches?page_size=30")["matches"][-1]
        assert first["match_id"] == ids[0] and first["rated"]
        assert [s["rank"] for s in first["seats"]] == list(matches[0].ranks)
        # The JSON list carries the same per-seat rated flag as gRPC (docs/ratings.md).
        assert [s["rated"] for s in first["seats"]] == seat_rated[first["match_id"]]
        assert any(seat_rated[first["match_id"]])
        assert first["outcome"]["ranks"] == list(matches[0].ranks)
        replayed = ladder.get(first["replay_url"])
        assert replayed["players"] == list(matches[0].seats)
        # Forced moves as logged, kinds named as the proto's (null: a log that kept none).
        passed = [{"seat": 1, "move": {"kind": "pass_guess"}}]
        assert replayed["moves"] == [
            {"ply": 0, "seat": 0, "move": {"kind": "pass"}, "defaulted": False, "forced": None},
            {"ply": 1, "seat": 1, "move": {"kind": "pass"}, "defaulted": False, "forced": passed},
        ]
        assert replayed["forced_at_start"] == passed

        games = {g["game"]: g["rated_matches"] for g in ladder.get("/api/games")["games"]}
        assert games[GAME] == 30

        # Seat advantage from the finished matches, by player count (the running one is out).
        seats = ladder.get(f"/api/games/{GAME}/seats")
        expected = seat_advantage([m.ranks for m in matches])
        assert [t["players"] for t in seats["by_players"]] == [t.players for t in expected]
        for table, want in zip(seats["by_players"], expected, strict=True):
            assert table["matches"] == want.matches
            assert [s["score"] for s in table["seats"]] == pytest.approx(
                [s.score for s in want.seats]
            )
            assert all(s["low"] <= s["score"] <= s["high"] for s in table["seats"])
        assert ladder.status_of("/api/games/chess/seats") == 404

        # Errors: unknown game or player, bad arguments, a running match's replay.
        with pytest.raises(grpc.RpcError) as refused:
            ladder.stub.GetLeaderboard(ladder_pb2.GetLeaderboardRequest(game="chess"), timeout=10)
        assert refused.value.code() == grpc.StatusCode.NOT_FOUND
        with pytest.raises(grpc.RpcError) as refused:
            ladder.stub.GetRatingHistory(
                ladder_pb2.GetRatingHistoryRequest(game=GAME, player="nobody"), timeout=10
            )
        assert refused.value.code() == grpc.StatusCode.NOT_FOUND
        with pytest.raises(grpc.RpcError) as refused:  # not a failed query (INTERNAL)
            ladder.stub.GetRatingHistory(
                ladder_pb2.GetRatingHistoryRequest(game=GAME, player="ada\x00"), timeout=10
            )
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert refused.value.details() == "player may not contain NUL characters"
        with pytest.raises(grpc.RpcError) as refused:
            ladder.stub.ListMatches(
                ladder_pb2.ListMatchesRequest(game=GAME, page_token="garbage"), timeout=10
            )
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert ladder.status_of("/api/games/chess/leaderboard") == 404
        assert ladder.status_of("/api/bots/ada/history") == 400
        assert ladder.status_of(f"/api/games/{GAME}/matches?page_size=zero") == 400
        assert ladder.status_of(f"/api/matches/{running}/replay") == 404

        # The running match finishes: the ladder's own loop rates it, no worker needed.
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(
                "UPDATE matches SET status = 'finished', finished_at = now(),"
                ' outcome = \'{"scores": [2, 1], "ranks": [1, 2]}\' WHERE id = %s',
                (running,),
            )
        ladder.wait_rated(31)
        deadline = time.monotonic() + 20
        while ladder.get(f"/api/games/{GAME}/leaderboard")["standings_matches"] != 31:
            assert time.monotonic() < deadline, "the standings were not refitted"
            time.sleep(0.1)

        with urllib.request.urlopen(ladder.http + "/metrics", timeout=10) as reply_metrics:
            metrics = reply_metrics.read().decode()
        assert f'premiere_ladder_matches_rated_total{{game="{GAME}"}} 31.0' in metrics
        assert "premiere_ladder_rating_seconds_count 31.0" in metrics
        # One match on 30 is within the share folded into the last fit (StandingsCache).
        assert f'premiere_ladder_standings_fit_seconds_count{{game="{GAME}",start="fold"}}' in (
            metrics
        )
        assert "premiere_ladder_rating_queue 0.0" in metrics
    finally:
        code = ladder.stop()
    assert code == 0, ladder.log()


def test_the_match_list_says_whether_a_match_was_created_rated_and_why_not(
    database_url: str,
) -> None:
    """A client tells a match created unrated (and why) from one waiting to be rated."""
    from ladder.queries import list_matches

    with psycopg.connect(database_url, autocommit=True) as conn:
        bots = add_bots(conn, ["u1", "u2", "u3"])
        ids = insert_matches(conn, random_matches(3, list(bots), seed=5, seats=3), bots)
        conn.execute(
            "UPDATE matches SET rated = false, unrated_reason = 'probation' WHERE id = %s",
            (ids[0],),
        )
        page = list_matches(conn, GAME)
    by_id = {m.match_id: m for m in page.matches}
    assert (by_id[str(ids[0])].created_rated, by_id[str(ids[0])].unrated_reason) == (
        False,
        "probation",
    )
    assert by_id[str(ids[1])].created_rated and by_id[str(ids[1])].unrated_reason is None
