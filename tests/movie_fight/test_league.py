"""Movie Fight through the arbiter: a league of built-ins and a remote Python bot, and solo
matches of the same remote bot and built-ins against the automa, all rated on the ladder."""

from __future__ import annotations

from pathlib import Path

from games.movie_fight import MovieFight
from games.reference import reference_result
from ladder.store import rate_finished
from premiere_wire import match_pb2
from tests.integration.services import Arbiter, Workers, start_bot, wait_ended
from tests.integration.test_leagues import assert_exactly_once, query, wait_finished, wait_rated

REFERENCE_RATINGS = MovieFight.reference_players

RANDOM = "premiere_bot.examples.random_bot:RandomBot"


def create_solo(arbiter: Arbiter, seat: str, level: int) -> str:
    """A rated solo match made by the operator, on a seed the arbiter draws."""
    request = match_pb2.CreateMatchRequest(game="movie-fight", rated=True)
    request.options["level"] = str(level)
    if seat.startswith("builtin:"):
        request.seats.add(builtin=seat.removeprefix("builtin:"))
    else:
        request.seats.add(bot=seat)
    return str(arbiter.matches().CreateMatch(request, timeout=10).match_id)


def test_movie_fight_league_and_solo_matches(arbiter: Arbiter, tmp_path: Path) -> None:
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
            "trio",
            "--game",
            "movie-fight",
            "--format",
            "round-robin",
            "--bots",
            "builtin:heuristic,builtin:random,builtin:first,remote",
            "--players",
            "3",
            "--option",
            "side=B",
            "--rounds",
            "1",
        )
        workers.cli(
            "league",
            "create",
            "--name",
            "solo",
            "--game",
            "movie-fight",
            "--format",
            "round-robin",
            "--bots",
            "builtin:heuristic,builtin:random,remote",
            "--players",
            "1",
            "--option",
            "level=2",
            "--rounds",
            "2",
        )
        solos = [
            create_solo(arbiter, seat, level)
            for seat, level in (("remote", 1), ("builtin:heuristic", 2), ("remote", 3))
        ]
        for match_id in solos:
            match = wait_ended(arbiter.matches(), match_id)
            assert match.status == match_pb2.MATCH_STATUS_FINISHED, arbiter.log()
        wait_finished(arbiter, workers, "trio")
        wait_rated(arbiter, "trio")
        assert_exactly_once(arbiter, "trio")
        rate_finished(arbiter.database_url)
        history = query(
            arbiter,
            "SELECT h.match_id::text AS match_id, coalesce(b.name, p.builtin) AS player,"
            " h.after FROM rating_history h JOIN ladder_players p ON p.id = h.player_id"
            " LEFT JOIN bots b ON b.id = p.bot_id WHERE h.match_id::text = ANY(%s)",
            solos,
        )
        by_match: dict[str, list[str]] = {}
        for row in history:
            by_match.setdefault(row["match_id"], []).append(row["player"])
        assert sorted(by_match[solos[0]]) == ["automa:1", "remote"]
        assert sorted(by_match[solos[1]]) == ["automa:2", "heuristic"]
        assert sorted(by_match[solos[2]]) == ["automa:3", "remote"]
        for row in history:
            if str(row["player"]).startswith("automa:"):
                assert row["after"] == REFERENCE_RATINGS[row["player"]]

        # The solo league: every bot alone at its own table each round, rated against the
        # level-2 automa, and its standings score those results but list only the bots.
        wait_finished(arbiter, workers, "solo")
        wait_rated(arbiter, "solo")
        assert_exactly_once(arbiter, "solo")
        tables = query(
            arbiter,
            "SELECT t.round, t.seats, m.outcome FROM league_tables t"
            " JOIN leagues l ON l.id = t.league_id JOIN matches m ON m.id = t.match_id"
            " WHERE l.name = 'solo' ORDER BY t.round, t.table_no",
        )
        assert [(t["round"], t["seats"]) for t in tables] == [
            (number, [bot])
            for number in (1, 2)
            for bot in ("builtin:heuristic", "builtin:random", "remote")
        ]
        expected: dict[str, float] = {}
        for table in tables:
            result = reference_result(table["outcome"], REFERENCE_RATINGS)
            assert result is not None and result.player == "automa:2"
            win = {(1, 2): 1.0, (1, 1): 0.5, (2, 1): 0.0}[result.ranks]
            expected[table["seats"][0]] = expected.get(table["seats"][0], 0.0) + win
        final = query(
            arbiter,
            "SELECT r.standings FROM league_rounds r JOIN leagues l ON l.id = r.league_id"
            " WHERE l.name = 'solo' ORDER BY r.number DESC LIMIT 1",
        )[0]["standings"]
        assert {row["bot"]: row["points"] for row in final} == expected
        assert all(row["games"] == 2 for row in final)
        rated = query(
            arbiter,
            "SELECT DISTINCT p.builtin FROM rating_history h"
            " JOIN ladder_players p ON p.id = h.player_id"
            " JOIN league_tables t ON t.match_id = h.match_id JOIN leagues l ON l.id = t.league_id"
            " WHERE l.name = 'solo' AND p.builtin LIKE %s",
            "automa:%",
        )
        assert [row["builtin"] for row in rated] == ["automa:2"]
    finally:
        workers.stop()
        bot.terminate()
        bot.wait(10)
