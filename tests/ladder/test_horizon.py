"""Rating follows finishes closely and still in finish order (``ladder.horizon``): a pass rates
a match at once unless a match finished before it is still being committed, and then waits for
that commit only, not for a fixed delay."""

from __future__ import annotations

import json
import threading
import time
import uuid
from typing import Any

import psycopg
from psycopg import conninfo

from ladder import elo
from ladder.store import rate_queued
from tests.ladder.synthetic import Synthetic, add_bots, insert_matches
from tests.ladder.test_store import NAMES, recorded_order

Conn = psycopg.Connection[Any]
SETTLE_S = 20.0
"""Far longer than any wait here: a pass that waited for it would fail every timing below."""
FINISH = (
    "UPDATE matches SET status = 'finished', outcome = %s, finished_at = clock_timestamp()"
    " WHERE id = %s"
)
OUTCOME = json.dumps({"scores": [20, 10], "ranks": [1, 2], "tiebreaks": [], "forfeited": []})


def running(conn: Conn, count: int) -> list[str]:
    bots = add_bots(conn, NAMES[:2])
    return insert_matches(
        conn, [Synthetic(tuple(NAMES[:2]), (1, 2), status="running")] * count, bots
    )


class Pass(threading.Thread):
    """``rate_queued`` in a thread of its own, timed."""

    def __init__(self, database_url: str) -> None:
        super().__init__(daemon=True)
        self.database_url = database_url
        self.rated = -1
        self.seconds = -1.0

    def run(self) -> None:
        with psycopg.connect(self.database_url, autocommit=True) as conn:
            started = time.monotonic()
            self.rated = rate_queued(conn, elo.DEFAULT_PARAMS, SETTLE_S)
            self.seconds = time.monotonic() - started


def test_a_match_is_rated_at_once_when_nothing_before_it_is_being_committed(
    database_url: str, conn: Conn
) -> None:
    (match_id,) = running(conn, 1)
    conn.execute(FINISH, (OUTCOME, match_id))
    rater = Pass(database_url)
    rater.start()
    rater.join(SETTLE_S)
    assert rater.rated == 1
    assert rater.seconds < 2.0, f"rated {rater.seconds:.2f} s after finishing"


def test_a_match_still_being_committed_keeps_its_place_and_holds_up_only_until_its_commit(
    database_url: str, conn: Conn
) -> None:
    """Match A finishes first, but its transaction is slow to commit; match B finishes after
    and commits at once. The pass must not rate B before A, and must rate both as soon as A's
    commit lands (not a settling delay later)."""
    first, second = running(conn, 2)
    with psycopg.connect(database_url) as slow:
        slow.execute(FINISH, (OUTCOME, first))
        conn.execute(FINISH, (OUTCOME, second))
        rater = Pass(database_url)
        rater.start()
        time.sleep(1.0)
        assert rater.is_alive(), "the pass rated while a match finished before was uncommitted"
        assert recorded_order(conn) == []
        slow.commit()
        committed = time.monotonic()
        rater.join(SETTLE_S)
        waited_after_commit = time.monotonic() - committed
    assert rater.rated == 2
    assert recorded_order(conn) == [first, second], "finish order"
    assert waited_after_commit < 2.0


def test_a_rolled_back_finish_holds_up_nothing_after_it_ends(database_url: str, conn: Conn) -> None:
    first, second = running(conn, 2)
    with psycopg.connect(database_url) as slow:
        slow.execute(FINISH, (OUTCOME, first))
        conn.execute(FINISH, (OUTCOME, second))
        rater = Pass(database_url)
        rater.start()
        time.sleep(0.5)
        slow.rollback()
        rater.join(SETTLE_S)
    assert rater.rated == 1
    assert rater.seconds < 3.0
    assert recorded_order(conn) == [second]


def test_a_rater_of_another_role_still_sees_the_commit_in_flight(
    database_url: str, conn: Conn
) -> None:
    """The ladder may run as a role that sees little of the arbiter's sessions (not their
    ``backend_type``): a slow commit by another role still holds its later match back."""
    role = f"rater_{uuid.uuid4().hex[:8]}"
    conn.execute(f"CREATE ROLE {role} LOGIN")
    try:
        conn.execute(f"GRANT ALL ON ALL TABLES IN SCHEMA public TO {role}")
        conn.execute(f"GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {role}")
        first, second = running(conn, 2)
        with psycopg.connect(database_url) as slow:
            slow.execute(FINISH, (OUTCOME, first))
            conn.execute(FINISH, (OUTCOME, second))
            rater = Pass(conninfo.make_conninfo(database_url, user=role))
            rater.start()
            time.sleep(1.0)
            assert rater.is_alive(), "rated past a commit in flight it could not see"
            slow.commit()
            rater.join(SETTLE_S)
        assert rater.rated == 2
        assert recorded_order(conn) == [first, second]
    finally:
        conn.execute(f"DROP OWNED BY {role}")
        conn.execute(f"DROP ROLE {role}")
