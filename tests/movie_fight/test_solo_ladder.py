"""Solo Movie Fight on the ladder: a two-sided result against a fixed-rating automa level."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from games.movie_fight import MovieFight
from games.reference import reference_result, solo_ranks
from ladder import elo
from ladder.queries import StandingsCache, leaderboard
from ladder.store import rate_finished, void_match
from tests.integration.services import scratch_database
from tests.ladder.synthetic import add_bots
from tests.movie_fight.helpers import GAME, insert_solo

REFERENCE_RATINGS = MovieFight.reference_players

Conn = psycopg.Connection[Any]


def test_reference_update_moves_only_the_bot() -> None:
    win = elo.reference_update(1500.0, 30, (1, 2), 1400.0)
    two_player = elo.update([1500.0, 1400.0], [30, 30], [1, 2])
    assert win.ratings[0] == two_player.ratings[0]
    assert win.ratings[1] == 1400.0 and win.deltas[1] == 0.0
    loss = elo.reference_update(1500.0, 30, (2, 1), 1400.0)
    assert loss.deltas[0] < 0 < win.deltas[0]
    draw = elo.reference_update(1400.0, 30, (1, 1), 1400.0)
    assert draw.deltas == (0.0, 0.0)
    provisional = elo.reference_update(1500.0, 0, (1, 2), 1400.0)
    assert provisional.deltas[0] == pytest.approx(2 * win.deltas[0], abs=2 * elo.GRAIN)


def test_solo_ranks() -> None:
    assert solo_ranks(70, 60) == (1, 2)
    assert solo_ranks(50, 60) == (2, 1)
    assert solo_ranks(60, 60) == (1, 1)
    assert solo_ranks(90, 60, forfeited=True) == (2, 1)


def test_reference_ratings_rise_with_the_level() -> None:
    ratings = [REFERENCE_RATINGS[f"automa:{level}"] for level in (1, 2, 3, 4)]
    assert ratings == sorted(ratings) and len(set(ratings)) == 4


@pytest.fixture
def conn() -> Iterator[Conn]:
    with scratch_database() as url, psycopg.connect(url, autocommit=True) as connection:
        yield connection


def test_solo_matches_are_rated_against_the_automa_level(conn: Conn) -> None:
    bots = add_bots(conn, ["soloist"])
    played = [
        insert_solo(conn, bots["soloist"], level, f"solo-{level}", "heuristic") for level in (1, 4)
    ]
    played.append(insert_solo(conn, bots["soloist"], 2, "solo-random", "random"))
    assert rate_finished(conn.info.dsn) == 3
    rating, games = 1500.0, 0
    for _, outcome in played:
        reference = outcome["detail"]["reference"]
        ranks = solo_ranks(outcome["scores"][0], reference["score"])
        update = elo.reference_update(rating, games, ranks, REFERENCE_RATINGS[reference["player"]])
        rating, games = update.ratings[0], games + 1
    rows = dict(
        conn.execute(
            "SELECT coalesce(b.name, p.builtin), r.rating FROM ratings r"
            " JOIN ladder_players p ON p.id = r.player_id LEFT JOIN bots b ON b.id = p.bot_id"
            " WHERE r.game = %s",
            (GAME.id,),
        ).fetchall()
    )
    assert rows["soloist"] == rating
    assert rows["automa:1"] == REFERENCE_RATINGS["automa:1"]
    assert rows["automa:2"] == REFERENCE_RATINGS["automa:2"]
    assert rows["automa:4"] == REFERENCE_RATINGS["automa:4"]
    board = leaderboard(conn, GAME.id, StandingsCache())
    names = {entry.player for entry in board.entries}
    assert {"soloist", "builtin:automa:1", "builtin:automa:4"} <= names
    references = {entry.player for entry in board.entries if entry.reference}
    assert references == names - {"soloist"}

    # Voiding the first solo match replays the rest: the automa stays where it was.
    assert void_match(conn, played[0][0], "test")
    rating, games = 1500.0, 0
    for _, outcome in played[1:]:
        reference = outcome["detail"]["reference"]
        ranks = solo_ranks(outcome["scores"][0], reference["score"])
        update = elo.reference_update(rating, games, ranks, REFERENCE_RATINGS[reference["player"]])
        rating, games = update.ratings[0], games + 1
    after = dict(
        conn.execute(
            "SELECT coalesce(b.name, p.builtin), r.rating FROM ratings r"
            " JOIN ladder_players p ON p.id = r.player_id LEFT JOIN bots b ON b.id = p.bot_id"
            " WHERE r.game = %s",
            (GAME.id,),
        ).fetchall()
    )
    assert after["soloist"] == rating
    assert after["automa:1"] == REFERENCE_RATINGS["automa:1"]


def test_reference_result_reads_only_declared_one_seat_outcomes() -> None:
    reference = {"player": "automa:2", "score": 60}
    solo = {"scores": [70], "ranks": [1], "detail": {"reference": reference}}
    won = reference_result(solo, REFERENCE_RATINGS)
    assert won is not None and (won.player, won.score, won.ranks) == ("automa:2", 60, (1, 2))
    forfeit = reference_result({**solo, "forfeited": [0]}, REFERENCE_RATINGS)
    assert forfeit is not None and forfeit.ranks == (2, 1)
    assert reference_result(solo, {}) is None
    unknown = {**solo, "detail": {"reference": {**reference, "player": "automa:9"}}}
    assert reference_result(unknown, REFERENCE_RATINGS) is None
    assert reference_result({**solo, "scores": [70, 50]}, REFERENCE_RATINGS) is None
    assert reference_result({"scores": [70], "ranks": [1]}, REFERENCE_RATINGS) is None
