"""Movie Trailer through the arbiter: a league of built-ins and a remote Python bot plays the
speed game (simultaneous guesses) onto the ladder, and the SDK bots play it unchanged."""

from __future__ import annotations

from pathlib import Path

import games
from games.play import replay
from premiere_wire import match_pb2
from server.codec import move_from_wire
from tests.integration.services import Arbiter, Workers, start_bot, wait_ended
from tests.integration.test_leagues import assert_exactly_once, query, wait_finished, wait_rated
from tests.integration.test_node_bot import node_bot

RANDOM = "premiere_bot.examples.random_bot:RandomBot"
BOTS = "builtin:random,builtin:heuristic,builtin:first,remote"


def test_movie_trailer_speed_league_lands_on_the_ladder(arbiter: Arbiter, tmp_path: Path) -> None:
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


def test_node_and_python_bots_play_the_speed_game_unchanged(
    arbiter: Arbiter, tmp_path: Path
) -> None:
    tokens = {name: arbiter.add_bot(name) for name in ("python", "node")}
    bot = start_bot(arbiter, RANDOM, tokens["python"], tmp_path / "python.log")
    try:
        with node_bot(arbiter, tokens["node"], tmp_path / "node.log"):
            stub = arbiter.matches()
            request = match_pb2.CreateMatchRequest(game="movie-trailer", seed="sdk")
            request.options.update({"speed": "true", "rounds": "1"})
            request.seats.add(bot="node")
            request.seats.add(bot="python")
            request.seats.add(builtin="heuristic")
            match_id = stub.CreateMatch(request, timeout=10).match_id
            match = wait_ended(stub, match_id, timeout=180)
            assert match.status == match_pb2.MATCH_STATUS_FINISHED, arbiter.log()
            assert list(match.faults) == []
            full = stub.GetReplay(match_pb2.GetReplayRequest(match_id=match_id), timeout=10)
            game = games.get("movie-trailer")
            moves = [(step.seat, move_from_wire(game, step.move)) for step in full.steps]
            state = replay(game, 3, full.seed, moves, {"speed": True, "rounds": 1})
            outcome = state.outcome()
            assert outcome is not None and list(match.outcome.scores) == list(outcome.scores)
    finally:
        bot.terminate()
        bot.wait(10)
