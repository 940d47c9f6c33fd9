"""Stored standings: a restarted ladder starts from the last fit and reads only the matches
rated since; a void makes the stored fit stale."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from ladder.queries import StandingsCache, history_matches
from ladder.standings import compile_log, fit
from ladder.store import rate_finished, void_match
from tests.ladder.synthetic import add_bots, insert_matches, random_matches
from tests.ladder.test_store import NAMES, POOL, recorded_order

Conn = psycopg.Connection[Any]
GAME = "movie-tricks"


def test_a_restart_reads_the_stored_fit_and_only_the_matches_rated_since(
    database_url: str, conn: Conn
) -> None:
    bots = add_bots(conn, NAMES)
    insert_matches(conn, random_matches(600, POOL, seed=21), bots)
    assert rate_finished(database_url) == 600
    assert StandingsCache().standings(conn, GAME).matches == 600  # a whole-log fit, stored
    stored = conn.execute("SELECT last_seq, exact_seq FROM standings_snapshots").fetchall()
    assert stored == [(600, 600)]

    insert_matches(conn, random_matches(6, POOL, seed=22), bots)
    assert rate_finished(database_url) == 6
    exact = fit(compile_log(history_matches(conn, GAME, 0, 606))).by_bot()
    # The history the stored fit covers is gone: a restart that read the whole log would see
    # only the 6 matches rated since.
    conn.execute("DELETE FROM rating_history WHERE seq <= 600")

    restarted = StandingsCache().standings(conn, GAME)
    assert restarted.matches == 606
    by_bot = restarted.by_bot()
    assert by_bot.keys() == exact.keys()
    for bot, entry in exact.items():
        assert by_bot[bot].rating == pytest.approx(entry.rating, abs=0.5)
        assert by_bot[bot].games == entry.games


def test_a_void_makes_the_stored_fit_stale(database_url: str, conn: Conn) -> None:
    bots = add_bots(conn, NAMES)
    insert_matches(conn, random_matches(100, POOL, seed=23), bots)
    assert rate_finished(database_url) == 100
    assert StandingsCache().standings(conn, GAME).matches == 100
    assert void_match(conn, recorded_order(conn)[10], "operator") is True
    restarted = StandingsCache().standings(conn, GAME)
    assert restarted.matches == 99
    exact = fit(compile_log(history_matches(conn, GAME, 0, 100)))
    assert restarted.log_strengths == exact.log_strengths
    stored = conn.execute("SELECT generation, last_seq FROM standings_snapshots").fetchall()
    assert stored == [(1, 100)]
