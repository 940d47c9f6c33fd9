"""An event seeds its entrants by the ladder's official standings (the published fit), not by
live Elo: on a ladder where the two orders differ, the seeds follow the fit.

The ladder here is real: matches written as the arbiter writes them, rated by the ladder's
rater (live Elo), fitted and published by the ladder's standings cache."""

from __future__ import annotations

from typing import Any

import psycopg

from ladder.queries import StandingsCache
from ladder.store import rate_finished
from tests.integration.services import scratch_database
from tests.ladder.synthetic import GAME, Synthetic, add_bots, insert_matches
from workers import events, leagues


def _against_random(bot: str, results: str) -> list[Synthetic]:
    """``bot`` against the random built-in, one match per letter: W a win, L a loss."""
    return [
        Synthetic((bot, "builtin:random"), (1, 2) if result == "W" else (2, 1))
        for result in results
    ]


def test_seeds_follow_the_official_standings_where_live_elo_disagrees() -> None:
    # ada won 30 and then lost 10: 75%. grace lost 10 and then won 20: 67%. The fit, which
    # does not care about order, puts ada first; live Elo, which weighs the recent games,
    # puts grace first. edsger lost most of his games and is last either way.
    matches = [
        *_against_random("ada", "W" * 30 + "L" * 10),
        *_against_random("grace", "L" * 10 + "W" * 20),
        *_against_random("edsger", "WL" * 3 + "L" * 18),
    ]
    with scratch_database() as url:
        with psycopg.connect(url) as plain:
            bots = add_bots(plain, ["ada", "grace", "edsger"])
            insert_matches(plain, matches, bots)
        assert rate_finished(url) == len(matches)
        with psycopg.connect(url, autocommit=True) as plain:
            fitted = StandingsCache().standings(plain, GAME)  # a whole-log fit: published
            assert fitted.matches == len(matches)
        with leagues.connect(url) as conn:
            live = _order(conn, "SELECT player, rating FROM ladder_ratings WHERE game = %s")
            official = _order(conn, "SELECT player, rating FROM official_standings WHERE game = %s")
            assert live == ["grace", "ada", "edsger"], "the ladder does not set the test up"
            assert official == ["ada", "grace", "edsger"]
            entered = ["edsger", "grace", "ada"]
            assert events.seeded(conn, GAME, entered) == official
            intervals = conn.execute(
                "SELECT low < rating AND rating < high AS ok FROM official_standings"
            ).fetchall()
            assert intervals and all(row["ok"] for row in intervals)


def _order(conn: psycopg.Connection[Any], query: str) -> list[str]:
    rows = conn.execute(query, (GAME,)).fetchall()
    named = [row for row in rows if not row["player"].startswith("builtin:")]
    return [row["player"] for row in sorted(named, key=lambda row: -row["rating"])]
