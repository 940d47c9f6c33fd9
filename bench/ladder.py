"""Ladder benchmarks on real PostgreSQL: the leaderboard and friends over 1M stored matches.

A scratch database gets one game's ladder of 1,000,000 rated four-player matches among 1,000
bots: the matches, their 4M seats, the rated_matches record and 4M rating-history rows, as the
ladder stores them. Finishing orders are drawn from a Plackett-Luce model (as in
bench/ratings.py) and loaded with COPY into a staging table that SQL then spreads over the real
tables, whose keys and indexes are built afterwards; the live Elo numbers in the history are
synthetic (they do not change any query's work). The stored matches have random ids (as the
arbiter made them before its ids followed the clock); the new matches rated later get the
arbiter's ids.
Each figure stands next to a reference measured in the same run on the same database.

The standings and rating rows follow the ladder's life on that database: the whole-log fit
(the reference, stored as the ladder's snapshot), 1,000 matches rated one transaction each
(the rating reference), a restart (fresh caches reading the snapshot and folding the 1,000
matches rated since), then rounds of 1,000 new matches rated in batches and folded into the
restarted fit, and last the whole-log refit over them (the warm refit's reference).

``PREMIERE_BENCH_LADDER_MATCHES`` shrinks the ladder for a quick look; the default is 1M.
"""

from __future__ import annotations

import io
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
_NUMPY_PRELOADED = "numpy" in sys.modules
for _variable in _THREAD_VARIABLES:
    # As `premiere ladder` runs the fit (and bench/ratings.py measures it): one BLAS thread.
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402
import psycopg  # noqa: E402

from bench.rows import print_rows, row  # noqa: E402
from ladder import snapshots  # noqa: E402
from ladder.queries import (  # noqa: E402
    StandingsCache,
    history_matches,
    leaderboard,
    list_matches,
    rating_history,
)
from ladder.standings import Standings, compile_log, fit  # noqa: E402
from ladder.store import rate_finished, rate_match  # noqa: E402
from server.match_ids import new_match_id  # noqa: E402
from tests.integration.services import scratch_database  # noqa: E402

MATCHES = int(os.environ.get("PREMIERE_BENCH_LADDER_MATCHES", "1000000"))
BOTS = 1000
SEATS = 4
NEW_MATCHES = 1000
REPEATS = 3
GAME = "movie-tricks"
SEED = 20240602

_T = TypeVar("_T")


def _blas_threads() -> str:
    if _NUMPY_PRELOADED:
        return "BLAS threads as numpy was loaded"
    return f"{os.environ['OPENBLAS_NUM_THREADS']} BLAS thread(s)"


def _log(message: str) -> None:
    print(f"  bench.ladder: {message}", file=sys.stderr, flush=True)


def _strengths() -> np.ndarray:
    """The bots' true strengths: the ladder's first draw, shared by the matches added later."""
    return np.random.default_rng(SEED).normal(0.0, 300 * np.log(10) / 400, size=BOTS)


def _tables(
    rng: np.random.Generator, matches: int, theta: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Rounds in which every bot sits once at a random table; ranks from Plackett-Luce."""
    rounds = -(-matches * SEATS // BOTS)
    seating = np.concatenate([rng.permutation(BOTS) for _ in range(rounds)])
    tables = seating[: matches * SEATS].reshape(matches, SEATS) + 1  # bot ids start at 1
    noisy = theta[tables - 1] + rng.gumbel(size=tables.shape)
    ranks = np.argsort(np.argsort(-noisy, axis=1), axis=1) + 1
    return tables, ranks


def _copy_staging(conn: psycopg.Connection[Any], tables: np.ndarray, ranks: np.ndarray) -> None:
    conn.execute(
        "CREATE UNLOGGED TABLE bench_log (seq bigint PRIMARY KEY, p0 bigint, p1 bigint,"
        " p2 bigint, p3 bigint, r0 int, r1 int, r2 int, r3 int)"
    )
    seqs = np.arange(1, len(tables) + 1)
    block = np.column_stack([seqs, tables, ranks])
    with conn.cursor().copy("COPY bench_log FROM STDIN") as copy:
        for start in range(0, len(block), 100_000):
            text = io.StringIO()
            np.savetxt(text, block[start : start + 100_000], fmt="%d", delimiter="\t")
            copy.write(text.getvalue())


_SPREAD = [
    "INSERT INTO bots (id, name, token_hash, account_id)"
    " SELECT g, 'bench-' || g, md5('bench' || g), a.id FROM generate_series(1, %(bots)s) g,"
    " accounts a WHERE a.name = 'operator'",
    "SELECT setval('bots_id_seq', %(bots)s)",
    "INSERT INTO ladder_players (id, bot_id) SELECT id, id FROM bots",
    "SELECT setval('ladder_players_id_seq', %(bots)s)",
    "INSERT INTO matches (id, game, options, players, seed, move_time_ms, time_bank_ms,"
    " strike_limit, status, outcome, created_at, started_at, finished_at, rated)"
    " SELECT md5(seq::text)::uuid, %(game)s, '{}', 4, 'bench-' || seq, 1000, 10000, 3,"
    " 'finished', jsonb_build_object('scores', jsonb_build_array(40 - 10 * r0, 40 - 10 * r1,"
    " 40 - 10 * r2, 40 - 10 * r3), 'ranks', jsonb_build_array(r0, r1, r2, r3),"
    " 'tiebreaks', '[]'::jsonb, 'forfeited', '[]'::jsonb),"
    " t, t, t, true FROM (SELECT *, timestamptz '2024-01-01' + seq * interval '1 second' AS t"
    " FROM bench_log) l ORDER BY 1",  # in key order: the key a view needs stays (_populate)
    "INSERT INTO match_seats (match_id, seat, bot_id)"
    " SELECT md5(seq::text)::uuid, s.seat, s.bot FROM bench_log"
    " CROSS JOIN LATERAL (VALUES (0, p0), (1, p1), (2, p2), (3, p3)) s (seat, bot)",
    "INSERT INTO rated_matches (match_id, game, seq, seats, rated_at)"
    " SELECT md5(seq::text)::uuid, %(game)s, seq, 4,"
    " timestamptz '2024-01-01' + seq * interval '1 second' FROM bench_log",
    "INSERT INTO rating_history (match_id, seat, game, seq, player_id, rank, before, after,"
    " delta, games, applied_at)"
    " SELECT md5(seq::text)::uuid, s.seat, %(game)s, seq, s.bot, s.rank, 1500, 1500 + d, d,"
    " row_number() OVER (PARTITION BY s.bot ORDER BY seq),"
    " timestamptz '2024-01-01' + seq * interval '1 second'"
    " FROM bench_log CROSS JOIN LATERAL (VALUES (0, p0, r0, 15.0 - 10 * r0),"
    " (1, p1, r1, 15.0 - 10 * r1), (2, p2, r2, 15.0 - 10 * r2), (3, p3, r3, 15.0 - 10 * r3))"
    " s (seat, bot, rank, d)",
    "INSERT INTO ratings (game, player_id, bot_id, rating, games, updated_at, last_played)"
    " SELECT %(game)s, player_id, player_id, 1500 + sum(delta) / 100, count(*),"
    " max(applied_at), max(applied_at) FROM rating_history GROUP BY player_id",
    "INSERT INTO ladders (game, last_seq) VALUES (%(game)s, %(matches)s)",
    "DROP TABLE bench_log",
]


_LOADED = "{matches,match_seats,rated_matches,rating_history}"
"""The tables the ladder is loaded into, whose keys and indexes are built after the load."""

_RANDOM_FILL = 70
"""The fill factor (%) a key led by a uuid (a match id) is built at: inserted at random places
as the ladder grows, such a B-tree's pages stay about 70% full (ln 2 after random splits), so
the built index is as large as the one the ladder would have grown. Reset to the default after
the build, as the ladder would have it from then on."""


def _keys_and_indexes(conn: psycopg.Connection[Any]) -> tuple[list[str], list[str]]:
    """Statements that drop the loaded tables' keys and indexes (and the foreign keys that
    refer to those keys), and the statements that build them again as the migrations made them
    (the same names and definitions; validated foreign keys). A key a view depends on (a GROUP
    BY on it) stays, and is maintained row by row."""
    kept = (
        " EXISTS (SELECT 1 FROM pg_depend d WHERE d.refclassid = 'pg_constraint'::regclass"
        " AND d.refobjid = {0}.oid AND d.classid = 'pg_rewrite'::regclass)"
    )
    foreign = conn.execute(
        "SELECT format('ALTER TABLE %%s DROP CONSTRAINT %%I', f.conrelid::regclass, f.conname),"
        " format('ALTER TABLE %%s ADD CONSTRAINT %%I %%s', f.conrelid::regclass, f.conname,"
        " pg_get_constraintdef(f.oid))"
        " FROM pg_constraint f JOIN pg_constraint k ON k.conindid = f.conindid"
        " AND k.conrelid = f.confrelid AND k.contype IN ('p', 'u')"
        " WHERE f.contype = 'f' AND f.confrelid = ANY(%s::regclass[]) AND NOT"
        + kept.format("k")
        + " ORDER BY f.conrelid::regclass::text, f.conname",
        (_LOADED,),
    ).fetchall()
    indexes = conn.execute(
        "SELECT c.conname IS NOT NULL, i.indexrelid::regclass::text,"
        " CASE WHEN c.conname IS NULL THEN format('DROP INDEX %%s', i.indexrelid::regclass)"
        " ELSE format('ALTER TABLE %%s DROP CONSTRAINT %%I', i.indrelid::regclass, c.conname)"
        " END,"
        " CASE WHEN c.conname IS NULL THEN pg_get_indexdef(i.indexrelid)"
        " ELSE format('ALTER TABLE %%s ADD CONSTRAINT %%I %%s', i.indrelid::regclass, c.conname,"
        " pg_get_constraintdef(c.oid)) END,"
        " a.atttypid = 'uuid'::regtype"
        " FROM pg_index i LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid"
        " AND c.conrelid = i.indrelid AND c.contype IN ('p', 'u')"
        " LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]"
        " WHERE i.indrelid = ANY(%s::regclass[]) AND (c.oid IS NULL OR NOT"
        + kept.format("c")
        + ") ORDER BY 2",
        (_LOADED,),
    ).fetchall()
    drop = [dropping for dropping, _ in foreign]
    build = []
    for constraint, name, dropping, building, random in indexes:
        drop.append(dropping)
        if random:
            assert constraint and " WITH " not in building, building
            build += [
                f"{building} WITH (fillfactor = {_RANDOM_FILL})",
                f"ALTER INDEX {name} RESET (fillfactor)",
            ]
        else:
            build.append(building)
    build += [building for _, building in foreign]
    return drop, build


def _populate(url: str, matches: int) -> None:
    rng = np.random.default_rng(SEED)
    theta = rng.normal(0.0, 300 * np.log(10) / 400, size=BOTS)  # the draw _strengths repeats
    tables, ranks = _tables(rng, matches, theta)
    with psycopg.connect(url) as conn:
        # Triggers off while loading (the queue trigger and the foreign-key checks): the rows
        # are consistent by construction. Superuser only, as a scratch database allows.
        conn.execute("SET session_replication_role = replica")
        conn.execute("SET maintenance_work_mem = '1GB'")
        # Keys and indexes are built once the rows are in: maintained row by row, the random
        # match ids made loading 10M matches take an hour (most of it reading and writing index
        # pages), where sorting each index once takes minutes. The rows are the same; matches
        # go in in id order, as the one key kept (a view depends on it) is maintained row by
        # row, and no figure reads matches in their stored order.
        drop, build = _keys_and_indexes(conn)
        for statement in drop:
            conn.execute(statement)
        _copy_staging(conn, tables, ranks)
        params = {"bots": BOTS, "game": GAME, "matches": matches}
        for statement in _SPREAD:
            started = time.perf_counter()
            conn.execute(statement, params)
            _log(f"{time.perf_counter() - started:.0f} s: {statement[:60]}")
        started = time.perf_counter()
        for statement in build:
            conn.execute(statement)
        _log(f"{time.perf_counter() - started:.0f} s: keys, indexes and foreign keys built")
        conn.commit()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")


def _add_new_matches(url: str, count: int, first_seq: int, seed: int) -> None:
    tables, ranks = _tables(np.random.default_rng(seed), count, _strengths())
    with psycopg.connect(url) as conn, conn.cursor() as cursor:
        rows = []
        seat_rows = []
        for offset, (table, places) in enumerate(zip(tables.tolist(), ranks.tolist(), strict=True)):
            match_id = new_match_id()  # as the arbiter makes them
            outcome = (
                f'{{"scores": {[40 - 10 * r for r in places]}, "ranks": {places},'
                ' "tiebreaks": [], "forfeited": []}'
            )
            rows.append((match_id, f"bench-new-{first_seq + offset}", outcome))
            seat_rows += [(match_id, seat, bot) for seat, bot in enumerate(table)]
        cursor.executemany(
            "INSERT INTO matches (id, game, options, players, seed, move_time_ms, time_bank_ms,"
            " strike_limit, status, rated)"
            " VALUES (%s, %s, '{}', 4, %s, 1000, 10000, 3, 'running', true)",
            [(match_id, GAME, seed) for match_id, seed, _ in rows],
        )
        cursor.executemany(
            "INSERT INTO match_seats (match_id, seat, bot_id) VALUES (%s, %s, %s)", seat_rows
        )
        # Finish them as the arbiter does, so the queue trigger sees them.
        cursor.executemany(
            "UPDATE matches SET status = 'finished', outcome = %s, finished_at = now()"
            " WHERE id = %s",
            [(outcome, match_id) for match_id, _, outcome in rows],
        )
        conn.commit()


def _rate_one_at_a_time(conn: psycopg.Connection[Any]) -> int:
    """The queue rated as before batches: ``rate_match``, one transaction each, finish order."""
    queued = conn.execute(
        "SELECT match_id FROM rating_queue ORDER BY finished_at, match_id"
    ).fetchall()
    return sum(rate_match(conn, match_id) for (match_id,) in queued)


def _apart(one: Standings[int], other: Standings[int]) -> float:
    """The largest difference between two fits' ratings of one bot."""
    theirs = other.by_bot()
    return max(abs(entry.rating - theirs[entry.bot].rating) for entry in one.entries)


def _gap(one: Standings[int], other: Standings[int]) -> float:
    """The largest difference between two fits' ratings or interval ends of one bot."""
    theirs = other.by_bot()
    assert theirs.keys() == one.by_bot().keys()
    return max(
        abs(float(getattr(entry, part)) - float(getattr(theirs[entry.bot], part)))
        for entry in one.entries
        for part in ("rating", "low", "high")
    )


def _median_of(repeats: int, work: Callable[[], _T]) -> tuple[float, _T]:
    timings = []
    result: _T | None = None
    for _ in range(repeats):
        started = time.perf_counter()
        result = work()
        timings.append(time.perf_counter() - started)
    assert result is not None
    return statistics.median(timings), result


def run() -> list[dict[str, Any]]:
    """Measure, and return one row per figure."""
    rows = []
    size = f"{MATCHES:,} stored matches"
    with scratch_database() as url:
        started = time.perf_counter()
        _populate(url, MATCHES)
        _log(f"loaded {size} in {time.perf_counter() - started:.0f} s")
        with psycopg.connect(url, autocommit=True) as conn:
            count_s, _ = _median_of(
                5, lambda: conn.execute("SELECT count(*) FROM matches").fetchone()
            )
            read_s, read = _median_of(
                1, lambda: sum(1 for _ in history_matches(conn, GAME, 0, MATCHES))
            )
            assert read == MATCHES
            # Before stored fits: every start fitted the whole log, and every refit extended
            # the compiled log and refitted it whole (exact_share=0 keeps this cache at that).
            # Its fit is stored: the ladder's snapshot, as of MATCHES.
            whole = StandingsCache(exact_share=0.0)
            cold_s, standings = _median_of(1, lambda: whole.standings(conn, GAME))
            assert standings.matches == MATCHES and len(standings.entries) == BOTS
            _log(f"whole-log fit of {size}: {cold_s:.1f} s")
            board_s, board = _median_of(30, lambda: leaderboard(conn, GAME, whole))
            assert len(board.entries) == BOTS and board.rated_matches == MATCHES
            page_s, page = _median_of(30, lambda: list_matches(conn, GAME, page_size=20))
            assert len(page.matches) == 20
            deep_s, _ = _median_of(
                30, lambda: list_matches(conn, GAME, page_size=20, page_token=page.next_page_token)
            )
            history_s, history = _median_of(
                30, lambda: rating_history(conn, GAME, "bench-1", limit=1000)
            )
            assert len(history.points) == min(1000, MATCHES * SEATS // BOTS)

            conn.execute("CREATE TABLE bench_commit (x integer)")
            insert_s, _ = _median_of(
                1,
                lambda: [
                    conn.execute("INSERT INTO bench_commit VALUES (%s)", (i,))
                    for i in range(NEW_MATCHES)
                ],
            )
            # 1,000 matches rated after the stored fit, the way the ladder rated before batches.
            _add_new_matches(url, NEW_MATCHES, MATCHES + 1, SEED + 1)
            one_s, one = _median_of(1, lambda: _rate_one_at_a_time(conn))
            assert one == NEW_MATCHES
            rated_matches = MATCHES + NEW_MATCHES

            # A restart: a cache with no fit reads the stored one (as of MATCHES) and folds in
            # the 1,000 rated since; each repeat is a fresh cache, and none stores anything.
            # (A quick look's short ladder would pass the default 5% share folded between
            # whole-log fits; it folds anyway. On the 1M ladder this is the default.)
            share = max(0.05, 2 * (REPEATS + 1) * NEW_MATCHES / MATCHES)
            restarts = [StandingsCache(exact_share=share) for _ in range(REPEATS)]
            pending = iter(restarts)
            restart_s, restarted = _median_of(REPEATS, lambda: next(pending).standings(conn, GAME))
            assert restarted.matches == rated_matches and len(restarted.entries) == BOTS
            restart = restarts[0]

            # Rounds of new matches: rated by the queue in batches, then folded into the
            # restarted fit (a refit the ladder's loop makes; nothing is stored on the way).
            rate_times, warm_times = [], []
            for round_ in range(REPEATS):
                _add_new_matches(url, NEW_MATCHES, rated_matches + 1, SEED + 2 + round_)
                rate_part, rated = _median_of(1, lambda: rate_finished(url))
                assert rated == NEW_MATCHES
                rated_matches += NEW_MATCHES
                warm_part, warm = _median_of(1, lambda: restart.standings(conn, GAME))
                assert warm.matches == rated_matches
                rate_times.append(rate_part)
                warm_times.append(warm_part)
            rate_s, warm_s = statistics.median(rate_times), statistics.median(warm_times)
            # Storing the folded fit, as the loop's ``refresh`` does when it is due.
            save_s, saved = _median_of(1, lambda: restart.save(conn, GAME, force=True))
            assert saved
            load_s, _ = _median_of(5, lambda: _load_snapshot(conn))
            exact_s, exact = _median_of(1, lambda: whole.standings(conn, GAME))
            assert exact.matches == rated_matches
            _log(
                f"folded vs whole-log refit after {rated_matches - MATCHES:,} matches: ratings"
                f" within {_apart(warm, exact):.2g} Elo"
            )
            # At rest, the restarted ladder replaces its folded fit by a whole-log one (what
            # ``refresh`` does once no match was rated for ``exact_after_s``); it must equal an
            # independent whole-log fit of the stored matches, made from nothing.
            rest_s, rest = _median_of(1, lambda: restart.standings(conn, GAME, exact=True))
            assert rest.matches == rated_matches
            alone_s, alone = _median_of(
                1, lambda: fit(compile_log(history_matches(conn, GAME, 0, rated_matches)))
            )
            rest_gap, folded_gap = _gap(rest, alone), _gap(warm, alone)
            _log(f"at rest vs an independent whole-log fit: {rest_gap:.2g} points")

        ladder = f"the {MATCHES:,}-match ladder"
        rows += [
            row(
                f"ladder: leaderboard query ({BOTS:,} bots, live Elo + current standings), {size}",
                board_s * 1000,
                "ms",
                f"SELECT count(*) FROM matches ({size})",
                count_s * 1000,
            ),
            row(
                f"ladder: recent matches, first page of 20, {size}",
                page_s * 1000,
                "ms",
                f"SELECT count(*) FROM matches ({size})",
                count_s * 1000,
            ),
            row(
                f"ladder: recent matches, second page (page token), {size}",
                deep_s * 1000,
                "ms",
                f"SELECT count(*) FROM matches ({size})",
                count_s * 1000,
            ),
            row(
                f"ladder: one bot's rating history, last 1,000 points, {size}",
                history_s * 1000,
                "ms",
                f"SELECT count(*) FROM matches ({size})",
                count_s * 1000,
            ),
            row(
                f"ladder: standings cold start (read the stored fit + fold the {NEW_MATCHES:,}"
                f" matches rated since), {BOTS:,} bots, {size}, {_blas_threads()},"
                f" median of {REPEATS} (goal ≤ 2 s)",
                restart_s,
                "s",
                f"the whole-log fit every start made before (load {MATCHES * SEATS:,} history"
                " rows + compile + fit), same run",
                cold_s,
                goal="ladder-cold",
            ),
            row(
                f"ladder: standings whole-log fit (load {MATCHES * SEATS:,} history rows +"
                f" compile + fit, store), {BOTS:,} bots, {_blas_threads()}",
                cold_s,
                "s",
                "reading the same history rows alone (COPY, grouped into matches)",
                read_s,
            ),
            row(
                f"ladder: standings warm refit after {NEW_MATCHES:,} new matches on {ladder},"
                f" folded into the last fit, median of {REPEATS} rounds (goal ≤ 0.5 s)",
                warm_s,
                "s",
                f"the same refit over the whole compiled log, warm-started (before), after"
                f" {(REPEATS + 1) * NEW_MATCHES:,} new matches",
                exact_s,
                goal="ladder-warm",
            ),
            row(
                f"ladder: standings at rest, largest difference from an independent whole-log"
                f" fit of the stored matches (rating, interval ends), {BOTS:,} bots, {size}"
                f" (goal ≤ 0.01 points)",
                rest_gap,
                "points",
                f"the folded fit it replaced (the at-rest refit took {rest_s:.1f} s, the"
                f" independent fit {alone_s:.1f} s)",
                folded_gap,
                goal="ladder-rest",
            ),
            row(
                f"ladder: storing the folded fit ({BOTS:,} bots, {_snapshot_mb():.0f} MB),"
                " off the refit: the loop's refresh when due",
                save_s * 1000,
                "ms",
                "reading it back (snapshots.load), median of 5",
                load_s * 1000,
            ),
            row(
                f"ladder: rating the queue in batches, per match, mean of {NEW_MATCHES:,}"
                f" on {ladder}, median of {REPEATS} rounds (goal ≤ 1 ms)",
                rate_s / NEW_MATCHES * 1000,
                "ms",
                "one INSERT and its commit (autocommit), mean of 1,000",
                insert_s / NEW_MATCHES * 1000,
                goal="ladder-rate",
            ),
            row(
                f"ladder: rating the queue in batches, per match, on {ladder}",
                rate_s / NEW_MATCHES * 1000,
                "ms",
                "rate_match, one match per transaction (before), mean of 1,000 on the same ladder",
                one_s / NEW_MATCHES * 1000,
            ),
        ]
    return rows


def _load_snapshot(conn: psycopg.Connection[Any]) -> snapshots.Snapshot:
    with conn.transaction():
        loaded = snapshots.load(conn, GAME)
    assert loaded is not None
    return loaded


def _snapshot_mb() -> float:
    return BOTS * BOTS * 8 / 1e6


def main() -> None:
    print_rows(run())


if __name__ == "__main__":
    main()
