"""The queue rated in batches: many matches per transaction, still exactly once, in finish
order, and nothing of a batch kept when its transaction dies half way."""

from __future__ import annotations

import multiprocessing
import time
from typing import Any

import psycopg

from ladder.store import rate_finished, rate_match
from server.bots import announce_version
from tests.integration.services import scratch_database
from tests.ladder.synthetic import Synthetic, add_bots, insert_matches, random_matches
from tests.ladder.test_store import NAMES, POOL, check_against_sequential, recorded_order

Conn = psycopg.Connection[Any]


def queued(conn: Conn) -> int:
    row = conn.execute("SELECT count(*) FROM rating_queue").fetchone()
    assert row is not None
    return int(row[0])


def test_a_queue_is_rated_in_few_transactions_in_finish_order(
    database_url: str, conn: Conn
) -> None:
    bots = add_bots(conn, NAMES)
    matches = random_matches(300, POOL, seed=11)
    ids = insert_matches(conn, matches, bots)
    assert rate_finished(database_url) == 300
    assert recorded_order(conn) == ids, "finish order"
    check_against_sequential(conn, dict(zip(ids, matches, strict=True)))
    transactions = conn.execute(
        "SELECT count(DISTINCT xmin::text) FROM rated_matches WHERE seq IS NOT NULL"
    ).fetchone()
    assert transactions == (1,), "300 matches, one batch, one transaction"
    assert queued(conn) == 0
    assert rate_finished(database_url) == 0, "exactly once"


def _hold_history(conn: Conn, match_id: str, action: str) -> None:
    """A trigger that runs ``action`` when the rating history of ``match_id`` is written."""
    conn.execute(
        "CREATE FUNCTION bench_hold() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
        f" IF NEW.match_id = '{match_id}' THEN {action}; END IF; RETURN NEW; END; $$"
    )
    conn.execute(
        "CREATE TRIGGER bench_hold BEFORE INSERT ON rating_history"
        " FOR EACH ROW EXECUTE FUNCTION bench_hold()"
    )


def _drop_hold(conn: Conn) -> None:
    conn.execute("DROP TRIGGER bench_hold ON rating_history")
    conn.execute("DROP FUNCTION bench_hold()")


def _rate_all(database_url: str) -> None:
    rate_finished(database_url)


def test_a_rater_killed_in_the_middle_of_a_batch_leaves_nothing_of_it(
    database_url: str, conn: Conn
) -> None:
    bots = add_bots(conn, NAMES)
    matches = random_matches(120, POOL, seed=12)
    ids = insert_matches(conn, matches, bots)
    _hold_history(conn, ids[70], "PERFORM pg_sleep(60)")
    rater = multiprocessing.get_context("spawn").Process(target=_rate_all, args=(database_url,))
    rater.start()
    deadline = time.monotonic() + 60
    while not conn.execute(
        "SELECT 1 FROM pg_stat_activity"
        " WHERE wait_event = 'PgSleep' AND datname = current_database()"
    ).fetchone():
        assert time.monotonic() < deadline and rater.is_alive(), "the batch never got there"
        time.sleep(0.05)
    rater.kill()  # kill -9 while the batch's history is half written
    rater.join(10)
    conn.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE datname = current_database() AND pid <> pg_backend_pid()"
    )
    _drop_hold(conn)

    assert conn.execute("SELECT count(*) FROM rated_matches").fetchone() == (0,)
    assert conn.execute("SELECT count(*) FROM rating_history").fetchone() == (0,)
    assert conn.execute("SELECT last_seq FROM ladders").fetchone() in (None, (0,))
    assert queued(conn) == 120
    assert rate_finished(database_url) == 120
    assert recorded_order(conn) == ids
    check_against_sequential(conn, dict(zip(ids, matches, strict=True)))


def test_a_batch_that_fails_is_rolled_back_and_rated_one_match_at_a_time(
    database_url: str, conn: Conn
) -> None:
    """A database error on one match of a batch (here a trigger) rolls the whole batch back;
    its matches are then rated one by one: all but that one, in finish order, exactly once."""
    bots = add_bots(conn, NAMES)
    matches = random_matches(60, POOL, seed=13)
    ids = insert_matches(conn, matches, bots)
    bad = ids[30]
    _hold_history(conn, bad, "RAISE EXCEPTION 'history refused'")
    assert rate_finished(database_url) == 59
    good = [match_id for match_id in ids if match_id != bad]
    assert recorded_order(conn) == good
    by_id = dict(zip(ids, matches, strict=True))
    check_against_sequential(conn, {match_id: by_id[match_id] for match_id in good})
    assert [str(m) for (m,) in conn.execute("SELECT match_id FROM rating_queue")] == [bad]

    _drop_hold(conn)
    assert rate_finished(database_url) == 1
    assert recorded_order(conn) == [*good, bad]
    assert rate_finished(database_url) == 0


def test_a_batch_skips_what_is_not_to_be_rated(database_url: str, conn: Conn) -> None:
    """Unrated, voided and one-player matches in the middle of a batch rate nothing; the
    others around them are rated in order."""
    bots = add_bots(conn, NAMES[:4])
    matches = [
        Synthetic(("bot00", "bot01"), (1, 2)),
        Synthetic(("bot00", "bot00"), (1, 2)),
        Synthetic(("bot02", "bot03"), (2, 1)),
        Synthetic(("bot01", "bot02"), (1, 1)),
    ]
    ids = insert_matches(conn, matches, bots)
    conn.execute("UPDATE matches SET rated = false WHERE id = %s", (ids[2],))
    assert rate_finished(database_url) == 2
    assert recorded_order(conn) == [ids[0], ids[3]]
    solo = conn.execute("SELECT seq, seats FROM rated_matches WHERE match_id = %s", (ids[1],))
    assert solo.fetchone() == (None, 0)
    assert queued(conn) == 0


def _version_ladder(database_url: str) -> list[str]:
    """alpha and beta play; alpha's next version joins in the middle of the queue."""
    with psycopg.connect(database_url) as conn:
        bots = add_bots(conn, ["alpha", "beta", "gamma"])
    announce_version(database_url, "alpha", "1")
    version_id, _, _ = announce_version(database_url, "alpha", "2")
    seats = {**bots, "alpha@2": version_id}
    matches = [Synthetic(("alpha", "beta"), (1, 2) if i % 3 else (2, 1)) for i in range(8)]
    matches[5] = Synthetic(("alpha@2", "gamma"), (2, 1))
    matches[6] = Synthetic(("alpha", "gamma"), (1, 2))
    matches[7] = Synthetic(("alpha@2", "beta"), (1, 2))
    with psycopg.connect(database_url) as conn:
        return insert_matches(conn, matches, seats)


def _ladder_state(conn: Conn) -> list[tuple[Any, ...]]:
    return (
        conn.execute(
            "SELECT b.name, r.rating, r.games, r.start FROM ratings r"
            " JOIN bots b ON b.id = r.bot_id"
            " ORDER BY b.name"
        ).fetchall()
        + conn.execute(
            "SELECT h.seq, b.name, h.before, h.after FROM rating_history h"
            " JOIN ladder_players p ON p.id = h.player_id JOIN bots b ON b.id = p.bot_id"
            " ORDER BY h.seq, h.seat"
        ).fetchall()
    )


def test_a_batch_ends_before_a_new_version_so_it_starts_where_its_lineage_stands(
    database_url: str,
) -> None:
    """A version's start is its lineage's live rating when its first match is prepared: the
    batched queue ends the same, bit for bit, as rate_match one match at a time."""
    ids = _version_ladder(database_url)
    assert rate_finished(database_url) == 8
    with scratch_database() as other:
        assert _version_ladder(other) is not None
        with psycopg.connect(other, autocommit=True) as conn:
            for match_id in ids_in_order(conn):
                assert rate_match(conn, match_id)
            expected = _ladder_state(conn)
    with psycopg.connect(database_url, autocommit=True) as conn:
        assert recorded_order(conn) == ids
        assert _ladder_state(conn) == expected
        start = conn.execute(
            "SELECT r.start FROM ratings r JOIN bots b ON b.id = r.bot_id WHERE b.name = 'alpha@2'"
        ).fetchone()
        assert start is not None and start[0] is not None and start[0] != 1500.0


def ids_in_order(conn: Conn) -> list[str]:
    return [
        str(match_id)
        for (match_id,) in conn.execute(
            "SELECT match_id FROM rating_queue ORDER BY finished_at, match_id"
        )
    ]
