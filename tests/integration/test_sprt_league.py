"""SPRT head-to-head leagues through the real stack (arbiter, Celery worker and beat, ladder,
Postgres, a remote bot over gRPC): heuristic against random accepts H1, two random bots accept
H0; both stop on their own, unrated, with the LLR served by the ladder's JSON API."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.integration.services import Arbiter, Workers, start_bot
from tests.integration.test_leagues import RANDOM, query, wait_finished


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


def test_sprt_accepts_h1_for_heuristic_and_h0_for_two_random_bots(
    arbiter: Arbiter, tmp_path: Path
) -> None:
    token = arbiter.add_bot("rand")
    bot = start_bot(arbiter, RANDOM, token, tmp_path / "rand.log")
    workers = Workers(arbiter, tmp_path)
    workers.start_worker()
    workers.start_beat()
    workers.start_ladder()
    common = ["--game", "movie-tricks", "--format", "sprt", "--players", "2"]
    bounds = ["--setting", "elo1=300", "--setting", "alpha=0.01", "--setting", "beta=0.05"]
    try:
        for name, bots in (
            ("h1", "builtin:heuristic,builtin:random"),
            ("h0", "builtin:random,rand"),
        ):
            # A fixed league seed: the same deals every run, so the test's length is too.
            seed = (name * 32)[:64].encode().hex()[:64]
            workers.cli(
                "league", "create", "--name", name, *common, "--bots", bots, *bounds, "--seed", seed
            )
        wait_finished(arbiter, workers, "h1")
        wait_finished(arbiter, workers, "h0")

        h1 = _api(workers, "/api/leagues/h1/progress")
        h0 = _api(workers, "/api/leagues/h0/progress")
        assert h1["format"] == "sprt" and h1["rated"] is False and h1["status"] == "finished"
        assert h1["progress"]["verdict"] == "H1", h1
        assert h1["progress"]["llr"] >= h1["progress"]["upper"]
        assert h0["progress"]["verdict"] == "H0", h0
        assert h0["progress"]["llr"] <= h0["progress"]["lower"]
        for league in (h1, h0):
            assert league["settings"]["elo1"] == 300.0 and league["settings"]["alpha"] == 0.01
            assert league["progress"]["games"] == 2 * sum(league["progress"]["pairs"])

        # Stopped as soon as a hypothesis was accepted: no round after the deciding one.
        for name in ("h1", "h0"):
            rounds = query(
                arbiter,
                "SELECT r.number, r.status FROM league_rounds r JOIN leagues l"
                " ON l.id = r.league_id WHERE l.name = %s ORDER BY r.number",
                name,
            )
            assert all(r["status"] == "closed" for r in rounds)
            # Every round's test is kept, the last one the league's progress.
            kept = query(
                arbiter,
                "SELECT h.round, h.progress FROM league_progress_history h JOIN leagues l"
                " ON l.id = h.league_id WHERE l.name = %s ORDER BY h.round",
                name,
            )
            assert [k["round"] for k in kept] == [r["number"] for r in rounds]
            final = (h1 if name == "h1" else h0)["progress"]
            assert kept[-1]["progress"] == final
            assert [sum(k["progress"]["pairs"]) for k in kept] == [
                4 * (n + 1) for n in range(len(kept))
            ]
            assert all(k["progress"]["verdict"] is None for k in kept[:-1])
            tables = query(
                arbiter,
                "SELECT t.match_id, t.seats, t.seed, t.grp FROM league_tables t"
                " JOIN leagues l ON l.id = t.league_id WHERE l.name = %s",
                name,
            )
            progress = h1 if name == "h1" else h0
            assert len(tables) == progress["progress"]["games"]
            # One deal per pair, the two bots' seats swapped.
            by_group: dict[str, list[dict[str, Any]]] = {}
            for table in tables:
                by_group.setdefault(table["grp"], []).append(table)
            for pair in by_group.values():
                one, two = pair
                assert one["seed"] == two["seed"] and one["seats"] == two["seats"][::-1]
            # Unrated: the arbiter stored the matches unrated and the ladder rated none.
            ids = [t["match_id"] for t in tables]
            assert not query(arbiter, "SELECT 1 FROM matches WHERE id = ANY(%s) AND rated", ids)
            assert not query(arbiter, "SELECT 1 FROM rated_matches WHERE match_id = ANY(%s)", ids)

        shown = workers.cli("league", "show", "h1")
        assert "sprt builtin:heuristic vs builtin:random" in shown and "verdict H1" in shown
    finally:
        workers.stop()
        bot.terminate()
        bot.wait(10)
