"""Movie Trailer on the ladder: a league of built-ins and a remote Python bot plays the speed
game through the arbiter (simultaneous guesses), and every seat lands on the ladder."""

from __future__ import annotations

from pathlib import Path

from tests.integration.services import Arbiter, Workers, start_bot
from tests.integration.test_leagues import assert_exactly_once, query, wait_finished, wait_rated

RANDOM = "premiere_bot.examples.random_bot:RandomBot"
BOTS = "builtin:random,builtin:heuristic,builtin:first,remote"


def test_movie_trailer_speed_league_lands_on_the_ladder(arbiter: Arbiter, tmp_path: Path) -> None:
    token = arbiter.add_bot("remote")
    bot = start_bot(arbiter, RANDOM, token, tmp_path / "remote.log")
    workers = Workers(arbiter, tmp_path)
    workers.start_worker()
    workers.start_beat()
    try:
        workers.cli(
            "league",
            "create",
            "--name",
            "trailer",
            "--game",
            "movie-trailer",
            "--format",
            "round-robin",
            "--bots",
            BOTS,
            "--players",
            "3",
            "--option",
            "speed=true",
            "--option",
            "rounds=1",
        )
        wait_finished(arbiter, workers, "trailer")
        wait_rated(arbiter, "trailer")
        assert_exactly_once(arbiter, "trailer")
        matches = query(
            arbiter,
            "SELECT m.options FROM matches m JOIN league_tables t ON t.match_id = m.id"
            " JOIN leagues l ON l.id = t.league_id WHERE l.name = 'trailer'",
        )
        assert matches and all(m["options"]["speed"] is True for m in matches)
        ladder = query(
            arbiter,
            "SELECT b.name, r.games FROM ratings r JOIN bots b ON b.id = r.bot_id"
            " WHERE r.game = 'movie-trailer'",
        )
        assert "remote" in {row["name"] for row in ladder}
        assert all(row["games"] > 0 for row in ladder)
    finally:
        workers.stop()
        bot.terminate()
        bot.wait(10)
