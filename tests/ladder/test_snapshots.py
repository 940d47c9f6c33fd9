"""Stored standings: a restarted ladder starts from the last fit and reads only the matches
rated since; a void makes the stored fit stale; folded fits are stored by the background
refresh when due, never by the refit itself, and a fit lost before it was stored costs nothing
but the fold of the matches since the stored one."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from ladder import snapshots
from ladder.queries import StandingsCache, history_matches
from ladder.standings import compile_log, fit, fold
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


def _stored(conn: Conn) -> list[tuple[int, int]]:
    return conn.execute("SELECT last_seq, exact_seq FROM standings_snapshots").fetchall()


def test_a_folded_refit_is_stored_by_refresh_not_by_the_refit(
    database_url: str, conn: Conn
) -> None:
    bots = add_bots(conn, NAMES)
    insert_matches(conn, random_matches(600, POOL, seed=24), bots)
    assert rate_finished(database_url) == 600
    cache = StandingsCache(save_interval_s=0.0)
    assert cache.standings(conn, GAME).matches == 600
    assert _stored(conn) == [(600, 600)]  # a whole-log fit is stored at once

    insert_matches(conn, random_matches(6, POOL, seed=25), bots)
    assert rate_finished(database_url) == 6
    assert cache.standings(conn, GAME).matches == 606  # folded
    assert _stored(conn) == [(600, 600)]  # the refit a caller waits for writes nothing

    cache.refresh(conn, GAME)  # the background loop: stores the folded fit, now due
    assert _stored(conn) == [(606, 600)]
    saved_at = conn.execute("SELECT saved_at FROM standings_snapshots").fetchone()
    cache.refresh(conn, GAME)
    assert cache.save(conn, GAME, force=True) is False  # the stored copy is as far on
    assert conn.execute("SELECT saved_at FROM standings_snapshots").fetchone() == saved_at


def test_a_folded_fit_is_stored_at_most_every_save_interval(database_url: str, conn: Conn) -> None:
    bots = add_bots(conn, NAMES)
    insert_matches(conn, random_matches(400, POOL, seed=26), bots)
    assert rate_finished(database_url) == 400
    cache = StandingsCache(save_interval_s=3600.0)
    cache.refresh(conn, GAME)
    assert _stored(conn) == [(400, 400)]
    insert_matches(conn, random_matches(5, POOL, seed=27), bots)
    assert rate_finished(database_url) == 5
    cache.refresh(conn, GAME)
    assert cache.standings(conn, GAME).matches == 405
    assert _stored(conn) == [(400, 400)]  # stored a moment ago: not yet
    assert cache.save_all(conn) == 1  # a ladder stopping stores it whatever the interval
    assert _stored(conn) == [(405, 400)]
    assert cache.save_all(conn) == 0


def test_a_crash_before_the_folded_fit_was_stored_loses_nothing(
    database_url: str, conn: Conn
) -> None:
    bots = add_bots(conn, NAMES)
    insert_matches(conn, random_matches(600, POOL, seed=28), bots)
    assert rate_finished(database_url) == 600
    assert StandingsCache().standings(conn, GAME).matches == 600  # stored
    insert_matches(conn, random_matches(20, POOL, seed=29), bots)
    assert rate_finished(database_url) == 20
    crashed = StandingsCache(save_interval_s=0.0)
    assert crashed.standings(conn, GAME).matches == 620  # folded, then the process dies
    del crashed
    insert_matches(conn, random_matches(6, POOL, seed=30), bots)
    assert rate_finished(database_url) == 6
    assert _stored(conn) == [(600, 600)]

    exact = fit(compile_log(history_matches(conn, GAME, 0, 626))).by_bot()
    with conn.transaction():
        stored = snapshots.load(conn, GAME)
    assert stored is not None
    folded = fold(stored.posterior, history_matches(conn, GAME, 600, 626))
    conn.execute("DELETE FROM rating_history WHERE seq <= 600")  # a restart must not need them
    restarted = StandingsCache().standings(conn, GAME)
    assert restarted.matches == 626
    # The stored fit and every match rated after it, folded once: exactly that fold.
    assert restarted.log_strengths == folded.log_strengths
    by_bot = restarted.by_bot()
    for bot, entry in exact.items():
        assert by_bot[bot].rating == pytest.approx(entry.rating, abs=0.5)
        assert by_bot[bot].games == entry.games
