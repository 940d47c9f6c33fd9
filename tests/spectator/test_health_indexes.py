"""Bot health (`ladder/profiles.py`: a player's matches, latency and faults over the last day
and week) reads the window's matches and a built-in player's seats through the indexes of
migration 0013, not by scanning every match and every seat: checked on the plans PostgreSQL
chooses for a ladder of two months of matches."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from spectator.profiles import health_queries
from tests.integration.services import scratch_database

MATCHES = 30_000
"""Over 60 days: about 500 a day."""

POPULATE = f"""
INSERT INTO bots (name, token_hash) SELECT 'bot' || g, 'hash' || g FROM generate_series(1, 50) g;
INSERT INTO matches (id, game, options, players, seed, move_time_ms, time_bank_ms, strike_limit,
                     status, created_at, started_at, finished_at)
SELECT md5('m' || g)::uuid, 'magic-trick', '{{}}', 3, 's' || g, 1000, 0, 0, 'finished',
       now() - g * interval '173 seconds', now() - g * interval '173 seconds',
       now() - g * interval '173 seconds' + interval '5 seconds'
FROM generate_series(1, {MATCHES}) g;
INSERT INTO match_seats (match_id, seat, bot_id, builtin)
SELECT md5('m' || g)::uuid, s,
       CASE WHEN s = 2 AND g % 20 = 0 THEN NULL ELSE 1 + (g * 7 + s * 13) % 50 END,
       CASE WHEN s = 2 AND g % 20 = 0 THEN (ARRAY['random', 'first', 'last'])[1 + g % 3] END
FROM generate_series(1, {MATCHES}) g, generate_series(0, 2) s;
INSERT INTO match_moves (match_id, ply, seat, move, elapsed_ms)
SELECT md5('m' || g)::uuid, p, p % 3, '{{}}', (g * p) % 97
FROM generate_series(1, {MATCHES}) g, generate_series(0, 2) p;
INSERT INTO match_faults (match_id, ply, seat, kind, blame)
SELECT md5('m' || g)::uuid, 1, 0, 'timeout', 'bot' FROM generate_series(1, {MATCHES}, 50) g;
ANALYZE;
"""


@pytest.fixture(scope="module")
def ladder_url() -> Iterator[str]:
    with scratch_database() as url:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(POPULATE)
        yield url


def _nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", ()):
        yield from _nodes(child)


def test_migration_0013_makes_the_health_indexes(ladder_url: str) -> None:
    with psycopg.connect(ladder_url) as conn:
        found = dict(
            conn.execute(
                "SELECT indexname, indexdef FROM pg_indexes WHERE indexname = ANY(%s)",
                (["matches_begun", "match_seats_builtin"],),
            ).fetchall()
        )
    assert "COALESCE(started_at, created_at)" in found["matches_begun"]
    assert "WHERE (builtin IS NOT NULL)" in found["match_seats_builtin"]


@pytest.mark.parametrize(
    ("seat_filter", "key"), [("s.bot_id = %s", 1), ("s.builtin = %s", "first")]
)
def test_health_queries_read_the_window_through_the_indexes(
    ladder_url: str, seat_filter: str, key: Any
) -> None:
    since = datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=1)
    with psycopg.connect(ladder_url) as conn:
        queries = health_queries(seat_filter)
        assert queries, "no health query to explain"
        for sql in queries:
            (plan,) = conn.execute(f"EXPLAIN (FORMAT JSON) {sql}", (key, since)).fetchone() or ()
            nodes = list(_nodes(plan[0]["Plan"]))
            scanned = {node["Relation Name"] for node in nodes if node["Node Type"] == "Seq Scan"}
            assert not scanned & {"matches", "match_seats"}, json.dumps(plan, indent=1)
            indexes = {node.get("Index Name") for node in nodes}
            assert "matches_begun" in indexes, json.dumps(plan, indent=1)
            if "builtin" in seat_filter and "match_faults" not in sql:
                assert "match_seats_builtin" in indexes, json.dumps(plan, indent=1)
