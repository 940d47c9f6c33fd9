"""Live Elo in PostgreSQL: every finished match rated exactly once, in one transaction.

The maths is ``ladder.elo.update``; this module is the thin edge that reads a match, applies the
update and records it. The guarantees, and how they are kept:

- **Once per match id.** Rating a match starts by inserting its id into ``rated_matches`` with
  ``ON CONFLICT DO NOTHING``. A second application (a retried task, a second worker, a replayed
  queue entry) either finds the row or waits on the first one's uncommitted insert and then
  finds it; it changes nothing and returns False. The insert, the new ratings and the history
  rows commit together or not at all.
- **Concurrent applications serialise.** The ratings rows of the match's players are locked
  with ``SELECT ... FOR UPDATE`` in player-id order, so two matches that share a player apply
  one after the other, each reading the other's result, and two applications can never wait on
  each other in a cycle. Matches with disjoint players apply in parallel.
- **A recorded order that reproduces the ratings.** The match's place in the ladder (``seq``)
  is taken from the game's ``ladders`` row as the very last step, while the players' locks are
  held; that row lock is released at commit, so sequence numbers follow commit order, without
  gaps. Any two matches sharing a player are numbered in the order they were applied, so
  applying the whole log one match at a time in ``seq`` order gives the very same ratings, bit
  for bit. The official standings read the log incrementally by ``seq`` for the same reason.
- **Only finished matches.** Pending, running and void matches are never rated. The arbiter
  voids only unfinished matches; an operator can void a finished one with ``void_match``, which
  replays the game's live Elo from that match on, in recorded order, without it (nothing is
  refunded by hand). Voids and ratings of the same game exclude each other with a transaction
  advisory lock on the game (ratings share it, a void takes it alone).

Who is rated. Every seat's player: a registered bot, or a built-in bot, which is one player per
game whatever seat or match it plays in (docs/ratings.md says why). When one player holds
several seats of a match, only its first seat (lowest seat number) is rated and the others are
left out of the rating as if absent: seats are assigned before play, so this discards
information without biasing it (under Plackett-Luce the order of any subset of a match's seats
is itself a Plackett-Luce draw). A match with fewer than two distinct players rates nothing; it
is recorded in ``rated_matches`` with no sequence number so it is not looked at again.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from functools import partial
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus

from ladder import elo
from ladder.apply import (
    GAME_LOCK_KEY,
    Connection,
    PlayerKey,
    RatedSeat,
    _apply,
    _prepare,
    _replay_from,
    log,
    pins_of,
    rated_seats,
    reference_ratings,
    tuples,
)
from ladder.batches import (
    _apply_batch,
)
from ladder.horizon import complete_before
from ladder.metrics import MATCHES_RATED, RATING_FAILURES, RATING_QUEUE, RATING_SECONDS

__all__ = [
    "BUILTIN_PREFIX",
    "PlayerKey",
    "RatedSeat",
    "pins_of",
    "rate_finished",
    "rate_match",
    "rate_queued",
    "rated_seats",
    "reference_ratings",
    "tuples",
    "void_match",
]

BUILTIN_PREFIX = "builtin:"
"""How the ladder names a built-in player ("builtin:<name>") wherever a bot's name stands."""

_RETRIES = 5
"""Attempts at one application when PostgreSQL reports a deadlock or serialization failure.
The lock order makes deadlocks impossible between ratings; this is a seat belt."""


_PASS_KEY = "hashtextextended('premiere.ladder.rating-pass', 0)"
"""Held (session level) by the one rating pass running at a time, whichever process runs it."""


def rate_match(
    conn: Connection, match_id: str | uuid.UUID, params: elo.EloParams = elo.DEFAULT_PARAMS
) -> bool:
    """Apply the live Elo of one finished match, exactly once.

    Returns True when this call rated the match; False when it was already rated (or is being
    rated by someone else, whose result this call waited for), is not finished, is not rated
    (its `rated` column), or has fewer than two distinct players. Raises LookupError for an
    unknown match id. ``conn`` must not be inside a transaction: the function commits its own
    (it works in autocommit mode or not).
    """
    if conn.info.transaction_status != TransactionStatus.IDLE:
        raise RuntimeError("rate_match commits its own transaction; call it on an idle connection")
    started = time.perf_counter()
    with conn.transaction():
        cur = tuples(conn)
        row = cur.execute(
            "SELECT game, status, rated FROM matches WHERE id = %s", (match_id,)
        ).fetchone()
    if row is None:
        raise LookupError(f"no match {match_id}")
    game, status, rated = row
    if status != "finished" or not rated:
        with conn.transaction():
            cur = tuples(conn)
            cur.execute("DELETE FROM rating_queue WHERE match_id = %s", (match_id,))
        return False
    _with_retries(lambda: _prepare(conn, game, match_id, params))
    applied = _with_retries(lambda: _apply(conn, game, match_id, params))
    if applied:
        MATCHES_RATED.labels(game).inc()
        RATING_SECONDS.observe(time.perf_counter() - started)
    return applied


def rate_queued(
    conn: Connection, params: elo.EloParams = elo.DEFAULT_PARAMS, settle_s: float = 0.0
) -> int:
    """Rate the finished matches waiting in the queue when called, oldest finish first.

    This is the only path to a rating in the running system (the ladder process calls it when
    a match finishes; nothing else rates), so matches are applied in finish order. One pass
    runs at a time across every ladder process: a call that finds another pass running returns
    0. Only matches that finished before the pass began are taken, and only once every
    transaction running then has ended, waiting for them at most ``settle_s`` seconds
    (``ladder.horizon``): a match still being committed when a later one is already queued
    still takes its place in finish order. ``settle_s`` 0 waits for nothing.

    Returns how many this call rated. A match that fails to rate (a malformed outcome) is
    logged, counted in ``premiere_ladder_rating_failures_total`` and left queued for the next
    call; it does not hold up the others.
    """
    with conn.transaction():
        cur = tuples(conn)
        took = cur.execute(f"SELECT pg_try_advisory_lock({_PASS_KEY})").fetchone()
    if not (took and took[0]):
        return 0  # another ladder process is rating; one at a time keeps finish order
    try:
        return _rate_queued(conn, params, settle_s)
    finally:
        with conn.transaction():
            tuples(conn).execute(f"SELECT pg_advisory_unlock({_PASS_KEY})")


def _queued(conn: Connection) -> int:
    with conn.transaction():
        waiting = tuples(conn).execute("SELECT count(*) FROM rating_queue").fetchone()
    return int(waiting[0]) if waiting else 0


def _rate_queued(conn: Connection, params: elo.EloParams, settle_s: float) -> int:
    if not _queued(conn):
        RATING_QUEUE.set(0)
        return 0
    before = complete_before(conn, settle_s)
    rated = 0
    after: tuple[Any, Any] | None = None
    while True:
        with conn.transaction():
            cur = tuples(conn)
            if after is None:
                batch = cur.execute(
                    "SELECT finished_at, match_id FROM rating_queue"
                    " WHERE finished_at <= %s"
                    " ORDER BY finished_at, match_id LIMIT %s",
                    (before, _BATCH),
                ).fetchall()
            else:
                batch = cur.execute(
                    "SELECT finished_at, match_id FROM rating_queue"
                    " WHERE (finished_at, match_id) > (%s, %s)"
                    " AND finished_at <= %s"
                    " ORDER BY finished_at, match_id LIMIT %s",
                    (*after, before, _BATCH),
                ).fetchall()
        if not batch:
            break
        rated += _rate_in_batches(conn, [match_id for _, match_id in batch], params)
        after = (batch[-1][0], batch[-1][1])
    RATING_QUEUE.set(_queued(conn))
    return rated


_BATCH = 500
"""Queued matches read, and rated in one transaction, at a time."""


def _rate_in_batches(conn: Connection, match_ids: list[Any], params: elo.EloParams) -> int:
    """Rate ``match_ids`` (in finish order) a batch transaction at a time; a batch that fails
    as a whole is rolled back and its matches rated one transaction each, so that the one
    that cannot be rated is found, left queued, and does not hold up the others."""
    rated = 0
    pending = match_ids
    while pending:
        started = time.perf_counter()
        todo = pending
        try:
            count, done = _with_retries_pair(partial(_apply_batch, conn, todo, params))
        except Exception:
            log.warning("a rating batch failed; rating its %d matches one by one", len(pending))
            if conn.info.transaction_status != TransactionStatus.IDLE:
                conn.rollback()
            return rated + _rate_one_by_one(conn, pending, params)
        for _ in range(count):  # one observation per match: the batch's time, shared out
            RATING_SECONDS.observe((time.perf_counter() - started) / count)
        rated += count
        pending = pending[done:]
    return rated


def _rate_one_by_one(conn: Connection, match_ids: list[Any], params: elo.EloParams) -> int:
    rated = 0
    for match_id in match_ids:
        try:
            rated += rate_match(conn, match_id, params)
        except Exception:
            RATING_FAILURES.inc()
            log.exception("could not rate match %s; it stays queued", match_id)
            if conn.info.transaction_status != TransactionStatus.IDLE:
                conn.rollback()
    return rated


def rate_finished(database_url: str, params: elo.EloParams = elo.DEFAULT_PARAMS) -> int:
    """Rate every finished, unrated match, in finish order; returns how many were rated.

    ``rate_queued`` on a connection of its own, waiting for no running transaction: for tests,
    benchmarks and tools that want every queued match rated now.
    """
    with psycopg.connect(database_url, autocommit=True) as conn:
        return rate_queued(conn, params)


def void_match(
    conn: Connection,
    match_id: str | uuid.UUID,
    reason: str,
    params: elo.EloParams = elo.DEFAULT_PARAMS,
) -> bool:
    """Void a finished match, rated or not, and take it out of the ladder.

    If it was rated, its history rows go, and every later rated match of its game is re-rated
    in recorded order from the ratings as they stood before it, so live Elo ends exactly where
    it would have if the match had never been played; the game's standings are refitted on the
    next look. Returns False when the match was already void. Unfinished matches belong to the
    arbiter, which voids them itself: asking here raises ValueError.
    """
    if conn.info.transaction_status != TransactionStatus.IDLE:
        raise RuntimeError("void_match commits its own transaction; call it on an idle connection")
    with conn.transaction():
        cur = tuples(conn)
        row = cur.execute("SELECT game FROM matches WHERE id = %s", (match_id,)).fetchone()
        if row is None:
            raise LookupError(f"no match {match_id}")
        game = row[0]
        cur.execute(f"SELECT pg_advisory_xact_lock({GAME_LOCK_KEY})", (game,))
        status_row = cur.execute(
            "SELECT status FROM matches WHERE id = %s FOR UPDATE", (match_id,)
        ).fetchone()
        assert status_row is not None
        if status_row[0] == "void":
            return False
        if status_row[0] != "finished":
            raise ValueError(f"match {match_id} is {status_row[0]}: the arbiter voids it")
        cur.execute(
            "UPDATE matches SET status = 'void', void_reason = %s WHERE id = %s",
            (reason, match_id),
        )
        cur.execute("DELETE FROM rating_queue WHERE match_id = %s", (match_id,))
        rated = cur.execute(
            "UPDATE rated_matches SET voided_at = now()"
            " WHERE match_id = %s AND seq IS NOT NULL RETURNING seq",
            (match_id,),
        ).fetchone()
        if rated is not None:
            players = [
                player
                for (player,) in cur.execute(
                    "DELETE FROM rating_history WHERE match_id = %s RETURNING player_id",
                    (match_id,),
                )
            ]
            _replay_from(conn, game, rated[0], players, params)
            cur.execute(
                "UPDATE ladders SET voided = voided + 1, generation = generation + 1"
                " WHERE game = %s",
                (game,),
            )
    return True


def _with_retries(work: Callable[[], bool]) -> bool:
    for attempt in range(_RETRIES):
        try:
            return bool(work())
        except (psycopg.errors.DeadlockDetected, psycopg.errors.SerializationFailure):
            if attempt == _RETRIES - 1:
                raise
            log.warning("rating transaction retried after a lock conflict")
    raise AssertionError("unreachable")


def _with_retries_pair(work: Callable[[], tuple[int, int]]) -> tuple[int, int]:
    for attempt in range(_RETRIES):
        try:
            return work()
        except (psycopg.errors.DeadlockDetected, psycopg.errors.SerializationFailure):
            if attempt == _RETRIES - 1:
                raise
            log.warning("rating batch retried after a lock conflict")
    raise AssertionError("unreachable")
