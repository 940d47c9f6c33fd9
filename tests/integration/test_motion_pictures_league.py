"""Motion Pictures through the whole stack: a league of built-ins and a remote Python bot,
played by the arbiter over gRPC, rated onto the ladder."""

from __future__ import annotations

from pathlib import Path

from tests.integration.services import Arbiter, Workers, start_bot
from tests.integration.test_leagues import (
    RANDOM,
    assert_exactly_once,
    query,
    wait_finished,
    wait_rated,
)

BOTS = "builtin:random,builtin:heuristic,remote"


def test_motion_pictures_league_lands_on_the_ladder(arbiter: Arbiter, tmp_path: Path) -> None:
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
            "mp",
            "--game",
            "motion-pictures",
            "--format",
            "round-robin",
            "--bots",
            BOTS,
            "--players",
            "2",
        )
        wait_finished(arbiter, workers, "mp")
        wait_rated(arbiter, "mp")
        assert_exactly_once(arbiter, "mp")
        rounds = query(
            arbiter,
            "SELECT r.standings FROM league_rounds r JOIN leagues l"
            " ON l.id = r.league_id WHERE l.name = 'mp' ORDER BY number",
        )
        games = {row["bot"]: row["games"] for row in rounds[-1]["standings"]}
        assert set(games) == set(BOTS.split(","))
        played = query(
            arbiter,
            "SELECT count(*) AS n FROM matches m JOIN league_tables t ON t.match_id = m.id"
            " JOIN leagues l ON l.id = t.league_id"
            " WHERE l.name = 'mp' AND m.game = 'motion-pictures'",
        )[0]["n"]
        assert played == len(query(arbiter, "SELECT 1 FROM league_tables"))
        ladder = query(
            arbiter,
            "SELECT r.games FROM ratings r JOIN bots b ON b.id = r.bot_id"
            " WHERE b.name = 'remote' AND r.game = 'motion-pictures'",
        )
        assert ladder and ladder[0]["games"] == games["remote"] > 0
    finally:
        workers.stop()
        bot.terminate()
        bot.wait(10)
