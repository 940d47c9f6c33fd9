"""Standings at rest are exact: while matches arrive the ladder folds them into its last fit (an
approximation), and once none has been rated for PREMIERE_LADDER_EXACT_AFTER_S it refits the
whole log and publishes that, so two ladders with the same matches publish the same standings
however they folded, equal to an independent whole-log fit of the stored matches."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import psycopg

from ladder.queries import StandingsCache, history_matches
from ladder.standings import Standing, compile_log, fit
from ladder.store import rate_finished
from tests.ladder.synthetic import add_bots, insert_matches, random_matches
from tests.ladder.test_api import Ladder
from tests.ladder.test_store import NAMES, POOL
from tests.spectator.test_dashboard import eventually

Conn = psycopg.Connection[Any]
GAME = "movie-tricks"
EXACT = 0.01


def _gap(published: dict[Any, Standing[Any]], exact: dict[Any, Standing[Any]]) -> float:
    assert published.keys() == exact.keys()
    return max(
        abs(getattr(published[bot], part) - getattr(entry, part))
        for bot, entry in exact.items()
        for part in ("rating", "low", "high")
    )


def _whole_log(conn: Conn, upto: int) -> dict[Any, Standing[Any]]:
    return fit(compile_log(history_matches(conn, GAME, 0, upto))).by_bot()


def test_two_ladders_that_folded_differently_publish_the_whole_log_fit_at_rest(
    database_url: str, conn: Conn
) -> None:
    bots = add_bots(conn, NAMES)
    insert_matches(conn, random_matches(300, POOL, seed=31), bots)
    assert rate_finished(database_url) == 300
    often, once = StandingsCache(exact_after_s=0.5), StandingsCache(exact_after_s=0.5)
    often.standings(conn, GAME)
    once.standings(conn, GAME)
    for seed in (32, 33, 34):
        insert_matches(conn, random_matches(4, POOL, seed=seed), bots)
        assert rate_finished(database_url) == 4
        often.standings(conn, GAME)  # folded after every batch
    once.standings(conn, GAME)  # folded once, all twelve
    exact = _whole_log(conn, 312)
    folded = often.latest(conn, GAME).by_bot(), once.latest(conn, GAME).by_bot()
    assert max(_gap(f, exact) for f in folded) > EXACT  # what folding costs while it moves

    often.refresh(conn, GAME)
    assert _gap(often.latest(conn, GAME).by_bot(), folded[0]) == 0  # not at rest yet
    time.sleep(0.6)
    for cache in (often, once):
        cache.refresh(conn, GAME)
        assert _gap(cache.latest(conn, GAME).by_bot(), exact) < EXACT
    stored = conn.execute("SELECT last_seq, exact_seq FROM standings_snapshots").fetchall()
    assert stored == [(312, 312)]
    # At rest it stays: a refresh with nothing new refits nothing.
    kept = often.latest(conn, GAME)
    often.refresh(conn, GAME)
    assert often.latest(conn, GAME) is kept


def test_the_published_leaderboard_settles_on_the_whole_log_fit(
    database_url: str, conn: Conn, tmp_path: Path
) -> None:
    bots = add_bots(conn, NAMES)
    insert_matches(conn, random_matches(300, POOL, seed=41), bots)
    ladder = Ladder(database_url, tmp_path / "ladder.log", PREMIERE_LADDER_EXACT_AFTER_S="1")
    try:
        ladder.wait_serving()
        eventually(
            lambda: (
                ladder.get(f"/api/games/{GAME}/leaderboard")["standings_matches"] == 300 or None
            ),
            "300 matches fitted",
            timeout=60,
        )
        for seed in (42, 43):
            insert_matches(conn, random_matches(5, POOL, seed=seed), bots)
            eventually(
                lambda rated=300 + 5 * (seed - 41): (
                    conn.execute("SELECT last_seq FROM ladders").fetchone()[0] == rated or None
                ),
                "the batch rated",
                timeout=60,
            )
        exact = _whole_log(conn, 310)
        names = dict(
            conn.execute(
                "SELECT p.id, coalesce(b.name, 'builtin:' || p.builtin) FROM ladder_players p"
                " LEFT JOIN bots b ON b.id = p.bot_id"
            ).fetchall()
        )

        def settled() -> bool | None:
            board = ladder.get(f"/api/games/{GAME}/leaderboard")
            published = {e["player"]: e["standing"] for e in board["entries"] if e["standing"]}
            gaps = [
                abs(published[names[bot]][part] - getattr(entry, part))
                for bot, entry in exact.items()
                for part in ("rating", "low", "high")
            ]
            return (board["standings_matches"] == 310 and max(gaps) < EXACT) or None

        eventually(settled, "the published standings equal to the whole-log fit", timeout=60)
    finally:
        ladder.stop()
