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

import io
import logging
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus
from psycopg.rows import tuple_row

from games import registry
from games.reference import ReferenceResult, reference_result
from ladder import elo
from ladder.horizon import complete_before
from ladder.metrics import MATCHES_RATED, RATING_FAILURES, RATING_QUEUE, RATING_SECONDS

__all__ = [
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

log = logging.getLogger("premiere.ladder")

Connection = psycopg.Connection[Any]
PlayerKey = tuple[int | None, str | None]
"""A seat's player as stored on the seat: (bot_id, None) or (None, builtin name)."""

_RETRIES = 5
"""Attempts at one application when PostgreSQL reports a deadlock or serialization failure.
The lock order makes deadlocks impossible between ratings; this is a seat belt."""

GAME_LOCK_KEY = "hashtextextended('premiere.ladder:' || %s, 0)"
"""One game's advisory lock key (the game is its parameter): each rating holds it shared, and
a void or a change of the game's anchors holds it alone, so none runs while a rating is in
flight."""
_PASS_KEY = "hashtextextended('premiere.ladder.rating-pass', 0)"
"""Held (session level) by the one rating pass running at a time, whichever process runs it."""


def tuples(conn: Connection) -> psycopg.Cursor[tuple[Any, ...]]:
    """A cursor returning plain tuples, whatever row factory the caller's connection has (the
    workers use dict rows)."""
    return conn.cursor(row_factory=tuple_row)


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """A seat that takes part in the rating: its number, its player's key and its final rank."""

    seat: int
    player: PlayerKey
    rank: int


def rated_seats(players: Sequence[PlayerKey], ranks: Sequence[int]) -> list[RatedSeat]:
    """The seats a match rates, in seat order: each player's first seat (see module doc)."""
    if len(players) != len(ranks):
        raise ValueError(f"{len(players)} seats but {len(ranks)} ranks")
    chosen: dict[PlayerKey, RatedSeat] = {}
    for seat, (player, rank) in enumerate(zip(players, ranks, strict=True)):
        if player not in chosen:
            chosen[player] = RatedSeat(seat, player, int(rank))
    return list(chosen.values())


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


# --- inside ---------------------------------------------------------------------------------


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


def _prepare(conn: Connection, game: str, match_id: Any, params: elo.EloParams) -> bool:
    """Make sure the ladder, the players and their ratings rows exist, in a short transaction
    of its own, so that the rating transaction only ever locks rows that exist (``FOR UPDATE``
    cannot lock a row another transaction has inserted but not committed). A ratings row at
    the start rating with no games is what a player without one has anyway."""
    with conn.transaction():
        cur = tuples(conn)
        # Each insert skips rows that exist before trying: ON CONFLICT alone would wait for
        # any transaction that is updating the existing row, i.e. for a rating in flight.
        cur.execute(
            "INSERT INTO ladders (game) SELECT %s::text"
            " WHERE NOT EXISTS (SELECT 1 FROM ladders WHERE game = %s) ON CONFLICT DO NOTHING",
            (game, game),
        )
        cur.execute(_ADD_BOT_PLAYERS, ([match_id],))
        cur.execute(_ADD_BUILTIN_PLAYERS, ([match_id],))
        cur.execute(_ADD_RATINGS, (game, params.start_rating, [match_id], [match_id], game, game))
        row = cur.execute("SELECT outcome FROM matches WHERE id = %s", (match_id,)).fetchone()
        fixed = reference_ratings(game)
        reference = reference_result(row[0] if row else None, fixed)
        if reference is not None:
            _prepare_reference(cur, game, reference.player, fixed[reference.player])
    return True


def reference_ratings(game: str) -> dict[str, float]:
    """The game's built-in players of fixed rating (none for most games)."""
    try:
        return dict(registry.get(game).reference_players)
    except KeyError:
        return {}


def _prepare_reference(
    cur: psycopg.Cursor[tuple[Any, ...]], game: str, name: str, rating: float
) -> None:
    cur.execute(
        "INSERT INTO ladder_players (builtin) SELECT %s::text WHERE NOT EXISTS"
        " (SELECT 1 FROM ladder_players WHERE builtin = %s) ON CONFLICT (builtin) DO NOTHING",
        (name, name),
    )
    cur.execute(
        "INSERT INTO ratings (game, player_id, rating)"
        " SELECT %s, id, %s FROM ladder_players p WHERE builtin = %s AND NOT EXISTS"
        " (SELECT 1 FROM ratings r WHERE r.game = %s AND r.player_id = p.id)"
        " ON CONFLICT DO NOTHING",
        (game, rating, name, game),
    )


def pins_of(cur: psycopg.Cursor[tuple[Any, ...]], games: list[str]) -> dict[tuple[str, int], float]:
    """(game, ladder player id) -> pinned rating of every player the ladders of ``games`` hold
    still: the operator's anchors (``ladder.anchors``) and the games' reference players. Read
    under the games' rating lock, which setting an anchor takes alone."""
    found: dict[tuple[str, int], float] = {}
    for game, player_id, rating in cur.execute(
        "SELECT a.game, p.id, a.rating FROM ladder_anchors a"
        " JOIN ladder_players p ON p.builtin = a.builtin WHERE a.game = ANY(%s)",
        (games,),
    ):
        found[(game, int(player_id))] = float(rating)
    for game in games:
        fixed = reference_ratings(game)
        if fixed:
            for player_id, name in cur.execute(
                "SELECT id, builtin FROM ladder_players WHERE builtin = ANY(%s)", (list(fixed),)
            ):
                found[(game, int(player_id))] = fixed[name]
    return found


_SEAT_PLAYERS = (
    "SELECT s.seat, p.id AS player_id, s.bot_id, s.builtin FROM match_seats s"
    " JOIN ladder_players p ON p.bot_id = s.bot_id WHERE s.match_id = %s"
    " UNION ALL"
    " SELECT s.seat, p.id, s.bot_id, s.builtin FROM match_seats s"
    " JOIN ladder_players p ON p.builtin = s.builtin WHERE s.match_id = %s"
)


def _apply(conn: Connection, game: str, match_id: Any, params: elo.EloParams) -> bool:
    with conn.transaction():
        cur = tuples(conn)
        cur.execute(f"SELECT pg_advisory_xact_lock_shared({GAME_LOCK_KEY})", (game,))
        match = cur.execute(
            "SELECT status, outcome, players FROM matches WHERE id = %s", (match_id,)
        ).fetchone()
        assert match is not None
        status, outcome, players = match
        if status != "finished":
            cur.execute("DELETE FROM rating_queue WHERE match_id = %s", (match_id,))
            return False
        guard = cur.execute(
            "INSERT INTO rated_matches (match_id, game, seats) VALUES (%s, %s, 0)"
            " ON CONFLICT (match_id) DO NOTHING RETURNING match_id",
            (match_id, game),
        ).fetchone()
        if guard is None:
            return False
        cur.execute("DELETE FROM rating_queue WHERE match_id = %s", (match_id,))

        ranks = _ranks(outcome, players, match_id)
        seats = cur.execute(f"{_SEAT_PLAYERS} ORDER BY 1", (match_id, match_id)).fetchall()
        if [seat for seat, *_ in seats] != list(range(players)):
            raise ValueError(f"match {match_id}: seats {[s for s, *_ in seats]} of {players}")
        player_ids = {(bot_id, builtin): player_id for _, player_id, bot_id, builtin in seats}
        chosen = rated_seats([(bot_id, builtin) for _, _, bot_id, builtin in seats], ranks)
        fixed = reference_ratings(game)
        reference = reference_result(outcome, fixed) if len(chosen) == 1 else None
        if reference is not None:
            chosen, player_ids = _against_reference(cur, chosen[0], players, reference)
        if len(chosen) < 2:
            return False

        ids = [player_ids[seat.player] for seat in chosen]
        locked = {
            player_id: (rating, games)
            for player_id, rating, games in cur.execute(
                "SELECT player_id, rating, games FROM ratings"
                " WHERE game = %s AND player_id = ANY(%s) ORDER BY player_id FOR UPDATE",
                (game, sorted(ids)),
            )
        }
        pinned = pins_of(cur, [game])
        pins = [pinned.get((game, player_id)) for player_id in ids]
        before = [
            locked[player_id] if pin is None else (pin, locked[player_id][1])
            for player_id, pin in zip(ids, pins, strict=True)
        ]
        update = elo.pinned_update(
            [rating for rating, _ in before],
            [games for _, games in before],
            [seat.rank for seat in chosen],
            pins,
            params,
        )
        seq_row = cur.execute(
            "UPDATE ladders SET last_seq = last_seq + 1 WHERE game = %s RETURNING last_seq",
            (game,),
        ).fetchone()
        assert seq_row is not None
        seq = seq_row[0]
        cur.execute(
            "UPDATE rated_matches SET seq = %s, seats = %s WHERE match_id = %s",
            (seq, len(chosen), match_id),
        )
        with conn.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO rating_history (match_id, seat, game, seq, player_id, rank, before,"
                " after, delta, games, pinned)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [
                    (
                        match_id,
                        seat.seat,
                        game,
                        seq,
                        player_id,
                        seat.rank,
                        old,
                        new,
                        delta,
                        n + 1,
                        pin,
                    )
                    for seat, player_id, (old, n), new, delta, pin in zip(
                        chosen, ids, before, update.ratings, update.deltas, pins, strict=True
                    )
                ],
            )
            cursor.executemany(
                "UPDATE ratings SET rating = %s, games = games + 1, updated_at = now()"
                " WHERE game = %s AND player_id = %s",
                [
                    (new, game, player_id)
                    for player_id, new in zip(ids, update.ratings, strict=True)
                ],
            )
    return True


def _against_reference(
    cur: psycopg.Cursor[tuple[Any, ...]],
    seat: RatedSeat,
    players: int,
    reference: ReferenceResult,
) -> tuple[list[RatedSeat], dict[PlayerKey, int]]:
    """A solo match as two rated seats: the bot, and the reference player in seat ``players``
    (after the real seats), ranked by points; a forfeit loses."""
    name = reference.player
    row = cur.execute("SELECT id FROM ladder_players WHERE builtin = %s", (name,)).fetchone()
    assert row is not None, "prepared before the rating transaction"
    player_id = cur.execute(
        "SELECT p.id FROM ladder_players p WHERE p.bot_id IS NOT DISTINCT FROM %s"
        " AND p.builtin IS NOT DISTINCT FROM %s",
        seat.player,
    ).fetchone()
    assert player_id is not None
    mine, theirs = reference.ranks
    chosen = [RatedSeat(seat.seat, seat.player, mine), RatedSeat(players, (None, name), theirs)]
    return chosen, {seat.player: int(player_id[0]), (None, name): int(row[0])}


def _ranks(outcome: Any, players: int, match_id: Any) -> list[int]:
    ranks = outcome.get("ranks") if isinstance(outcome, dict) else None
    if (
        not isinstance(ranks, list)
        or len(ranks) != players
        or not all(isinstance(rank, int) and rank >= 1 for rank in ranks)
    ):
        raise ValueError(f"match {match_id}: outcome has no valid ranks: {outcome!r}")
    return ranks


def _replay_from(
    conn: Connection,
    game: str,
    seq: int,
    voided_players: Iterable[int],
    params: elo.EloParams,
) -> None:
    """Re-rate every history row of ``game`` after ``seq`` from the ratings as they stood
    before ``seq``, and set the ratings rows of every player concerned to their last value."""
    cur = tuples(conn)
    rows = cur.execute(
        "SELECT seq, match_id, seat, player_id, rank, before, after, games, pinned"
        " FROM rating_history WHERE game = %s AND seq > %s ORDER BY seq, seat",
        (game, seq),
    ).fetchall()
    concerned = sorted({row[3] for row in rows} | set(voided_players))
    fixed = reference_ratings(game)
    references = {
        player_id: fixed[name]
        for player_id, name in cur.execute(
            "SELECT id, builtin FROM ladder_players WHERE builtin = ANY(%s)", (list(fixed),)
        )
    }
    starts = {
        player_id: start
        for player_id, start in cur.execute(
            "SELECT player_id, start FROM ratings WHERE game = %s AND player_id = ANY(%s)"
            " AND start IS NOT NULL",
            (game, concerned),
        )
    }
    state: dict[int, tuple[float, int]] = {
        player_id: (references.get(player_id, starts.get(player_id, params.start_rating)), 0)
        for player_id in concerned
    }
    for player_id, after, games in cur.execute(
        "SELECT DISTINCT ON (player_id) player_id, after, games FROM rating_history"
        " WHERE game = %s AND player_id = ANY(%s) AND seq < %s ORDER BY player_id, seq DESC",
        (game, concerned, seq),
    ):
        state[player_id] = (after, games)

    changed = io.StringIO()
    start = 0
    while start < len(rows):
        stop = start
        while stop < len(rows) and rows[stop][0] == rows[start][0]:
            stop += 1
        match = rows[start:stop]
        ids = [row[3] for row in match]
        # A row rated before pins were recorded is pinned if its player is a reference player.
        pins = [row[8] if row[8] is not None else references.get(row[3]) for row in match]
        update = elo.pinned_update(
            [state[player_id][0] for player_id in ids],
            [state[player_id][1] for player_id in ids],
            [row[4] for row in match],
            pins,
            params,
        )
        for row, new, delta in zip(match, update.ratings, update.deltas, strict=True):
            old, games = state[row[3]]
            state[row[3]] = (new, games + 1)
            changed.write(f"{row[1]}\t{row[2]}\t{old!r}\t{new!r}\t{delta!r}\t{games + 1}\n")
        start = stop

    for (_, player_id), pin in pins_of(cur, [game]).items():
        if player_id in state:  # a pinned player's row stays at its pin of the moment
            state[player_id] = (pin, state[player_id][1])

    cur.execute(
        "CREATE TEMPORARY TABLE replayed (match_id uuid, seat integer, before double precision,"
        " after double precision, delta double precision, games integer) ON COMMIT DROP"
    )
    with conn.cursor().copy("COPY replayed FROM STDIN") as copy:
        copy.write(changed.getvalue())
    cur.execute(
        "UPDATE rating_history h SET before = r.before, after = r.after, delta = r.delta,"
        " games = r.games FROM replayed r WHERE h.match_id = r.match_id AND h.seat = r.seat"
    )
    with conn.cursor() as cursor:
        cursor.executemany(
            "UPDATE ratings SET rating = %s, games = %s, updated_at = now()"
            " WHERE game = %s AND player_id = %s",
            [(rating, games, game, player_id) for player_id, (rating, games) in state.items()],
        )


# --- batches --------------------------------------------------------------------------------


@dataclass(slots=True)
class _Rating:
    """One player's live Elo as it stands in the batch being applied."""

    rating: float
    games: int


@dataclass(frozen=True, slots=True)
class _Planned:
    """A match of a batch that rates: who, as whom, on which ladder."""

    match_id: Any
    game: str
    chosen: list[RatedSeat]
    ids: list[int]


def _apply_batch(conn: Connection, match_ids: list[Any], params: elo.EloParams) -> tuple[int, int]:
    """Rate a prefix of ``match_ids`` (finish order) in one transaction; returns (matches rated,
    matches of ``match_ids`` dealt with). The same steps as ``_prepare`` and ``_apply`` one
    match after the other, with the same results bit for bit, in a few statements per batch:

    - the game locks (shared), then each match's status, so a void excludes the batch;
    - the ``rated_matches`` guards of every match at once: one another application holds is
      left to it, exactly as in ``_apply`` (the guard comes before any ratings lock, so the
      order of locks is the one ``_apply`` takes);
    - the ratings rows of every player, locked in (game, player id) order, then the matches'
      updates applied one after the other in memory, in finish order;
    - the sequence numbers, from each game's ``ladders`` row as the last step.

    The batch stops before a match that brings in a new version of a bot (other than its first
    match): such a version starts from its lineage's live rating as it stands when it is
    prepared, which the earlier matches of the batch may still change.

    A match whose outcome or seats are malformed is logged, counted and left queued.
    """
    with conn.transaction():
        cur = tuples(conn)
        match_ids = match_ids[: _batch_end(cur, match_ids)]
        games = [
            game
            for (game,) in cur.execute(
                "SELECT DISTINCT game FROM matches WHERE id = ANY(%s) ORDER BY game",
                (match_ids,),
            )
        ]
        for game in games:
            cur.execute(f"SELECT pg_advisory_xact_lock_shared({GAME_LOCK_KEY})", (game,))
        found = {
            match_id: (game, status, rated, outcome, players)
            for match_id, game, status, rated, outcome, players in cur.execute(
                "SELECT id, game, status, rated, outcome, players FROM matches WHERE id = ANY(%s)",
                (match_ids,),
            )
        }
        ratable = [
            match_id
            for match_id in match_ids
            if match_id in found and found[match_id][1] == "finished" and found[match_id][2]
        ]
        _prepare_batch(cur, ratable, found, params)
        seats: dict[Any, list[tuple[int, int, Any, Any]]] = {}
        for match_id, seat, player_id, bot_id, builtin in cur.execute(
            _SEAT_PLAYERS_OF_MANY + " ORDER BY 1, 2", (ratable, ratable)
        ):
            seats.setdefault(match_id, []).append((seat, player_id, bot_id, builtin))
        references = _reference_ids(cur, games)

        planned: dict[Any, _Planned | None] = {}
        for match_id in ratable:
            game, _, _, outcome, players = found[match_id]
            try:
                planned[match_id] = _plan(
                    match_id, game, outcome, players, seats.get(match_id, []), references
                )
            except ValueError:
                RATING_FAILURES.inc()
                log.exception("could not rate match %s; it stays queued", match_id)
        guarded = {
            match_id
            for (match_id,) in cur.execute(
                "INSERT INTO rated_matches (match_id, game, seats)"
                " SELECT m, g, 0 FROM unnest(%s::uuid[], %s::text[]) AS u (m, g)"
                " ON CONFLICT (match_id) DO NOTHING RETURNING match_id",
                (list(planned), [found[match_id][0] for match_id in planned]),
            )
        }
        # Rated here, rated already by whoever held the guard, or not to be rated at all.
        # (Sets: a batch's hundreds of ids are looked up once each, not searched in a list.)
        ratable_ids = set(ratable)
        done = [m for m in match_ids if m not in ratable_ids or m in planned]
        cur.execute("DELETE FROM rating_queue WHERE match_id = ANY(%s)", (done,))

        rating = [p for m in ratable if m in guarded and (p := planned[m]) is not None]
        applied = _apply_planned(conn, rating, params)
    for game in applied:
        MATCHES_RATED.labels(game).inc(applied[game])
    return sum(applied.values()), len(match_ids)


def _batch_end(cur: psycopg.Cursor[tuple[Any, ...]], match_ids: list[Any]) -> int:
    """How many of ``match_ids`` go in this batch: up to the first, after the first, that seats
    a bot version with a predecessor and no live rating on that game yet."""
    newcomers = {
        match_id
        for (match_id,) in cur.execute(
            "SELECT DISTINCT s.match_id FROM match_seats s JOIN matches m ON m.id = s.match_id"
            " JOIN bots b ON b.id = s.bot_id WHERE s.match_id = ANY(%s)"
            " AND b.predecessor_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ladder_players p"
            " JOIN ratings r ON r.player_id = p.id AND r.game = m.game WHERE p.bot_id = b.id)",
            (match_ids,),
        )
    }
    for position, match_id in enumerate(match_ids):
        if position > 0 and match_id in newcomers:
            return position
    return len(match_ids)


_SEAT_PLAYERS_OF_MANY = (
    "SELECT s.match_id, s.seat, p.id AS player_id, s.bot_id, s.builtin FROM match_seats s"
    " JOIN ladder_players p ON p.bot_id = s.bot_id WHERE s.match_id = ANY(%s::uuid[])"
    " UNION ALL"
    " SELECT s.match_id, s.seat, p.id, s.bot_id, s.builtin FROM match_seats s"
    " JOIN ladder_players p ON p.builtin = s.builtin WHERE s.match_id = ANY(%s::uuid[])"
)

# What a match's rating needs to exist before its transaction locks it (`_prepare` for one
# match, `_prepare_batch` for many): ladder players for its seats, then a ratings row for each,
# a new version of a bot starting from its lineage's last live rating on the game (that of the
# version of the family rated on it most recently, whether or not it is the direct predecessor;
# docs/ratings.md, "Bot versions"), anybody else from the start. Each insert skips rows that
# exist before trying: ON CONFLICT alone would wait for any transaction updating the row.
_ADD_BOT_PLAYERS = (
    "INSERT INTO ladder_players (bot_id)"
    " SELECT DISTINCT s.bot_id FROM match_seats s WHERE s.match_id = ANY(%s::uuid[])"
    " AND s.bot_id IS NOT NULL"
    " AND NOT EXISTS (SELECT 1 FROM ladder_players p WHERE p.bot_id = s.bot_id)"
    " ORDER BY s.bot_id ON CONFLICT (bot_id) DO NOTHING"
)
_ADD_BUILTIN_PLAYERS = (
    "INSERT INTO ladder_players (builtin)"
    " SELECT DISTINCT s.builtin FROM match_seats s WHERE s.match_id = ANY(%s::uuid[])"
    " AND s.builtin IS NOT NULL"
    " AND NOT EXISTS (SELECT 1 FROM ladder_players p WHERE p.builtin = s.builtin)"
    " ORDER BY s.builtin ON CONFLICT (builtin) DO NOTHING"
)
_ADD_RATINGS = (
    "INSERT INTO ratings (game, player_id, bot_id, rating, start)"
    " SELECT DISTINCT ON (seats.player_id) %s::text, seats.player_id, seats.bot_id,"
    " coalesce(pr.rating, %s::double precision), pr.rating FROM ("
    f"{_SEAT_PLAYERS_OF_MANY}) seats"
    " LEFT JOIN bots b ON b.id = seats.bot_id"
    " LEFT JOIN LATERAL (SELECT r.rating FROM bots f"
    "   JOIN ladder_players fp ON fp.bot_id = f.id"
    "   JOIN ratings r ON r.game = %s AND r.player_id = fp.id"
    "   WHERE coalesce(f.family_id, f.id) = coalesce(b.family_id, b.id) AND f.id <> b.id"
    "   ORDER BY (SELECT max(h.seq) FROM rating_history h"
    "     WHERE h.game = r.game AND h.player_id = r.player_id) DESC NULLS LAST, f.id DESC"
    "   LIMIT 1) pr ON b.predecessor_id IS NOT NULL"
    " WHERE NOT EXISTS (SELECT 1 FROM ratings r"
    " WHERE r.game = %s AND r.player_id = seats.player_id)"
    " ORDER BY seats.player_id ON CONFLICT DO NOTHING"
)


def _prepare_batch(
    cur: psycopg.Cursor[tuple[Any, ...]],
    match_ids: list[Any],
    found: dict[Any, tuple[str, str, bool, Any, int]],
    params: elo.EloParams,
) -> None:
    """``_prepare`` for every match of a batch, in the batch's own transaction: the rows it
    inserts are its own, so it can lock them; a concurrent ``_prepare`` of the same player waits
    for it or skips the row, as between two ``_prepare``."""
    if not match_ids:
        return
    games = sorted({found[match_id][0] for match_id in match_ids})
    cur.execute(
        "INSERT INTO ladders (game) SELECT g FROM unnest(%s::text[]) g"
        " WHERE NOT EXISTS (SELECT 1 FROM ladders l WHERE l.game = g) ORDER BY g"
        " ON CONFLICT DO NOTHING",
        (games,),
    )
    cur.execute(_ADD_BOT_PLAYERS, (match_ids,))
    cur.execute(_ADD_BUILTIN_PLAYERS, (match_ids,))
    for game in games:
        of_game = [match_id for match_id in match_ids if found[match_id][0] == game]
        cur.execute(_ADD_RATINGS, (game, params.start_rating, of_game, of_game, game, game))
        fixed = reference_ratings(game)
        named = {
            reference.player
            for match_id in of_game
            if (reference := reference_result(found[match_id][3], fixed)) is not None
        }
        for name in sorted(named):
            _prepare_reference(cur, game, name, fixed[name])


def _reference_ids(cur: psycopg.Cursor[tuple[Any, ...]], games: list[str]) -> dict[str, int]:
    """The ladder player ids of the reference players of ``games``, by name."""
    names = sorted({name for game in games for name in reference_ratings(game)})
    if not names:
        return {}
    return dict(
        cur.execute(
            "SELECT builtin, id FROM ladder_players WHERE builtin = ANY(%s)", (names,)
        ).fetchall()
    )


def _plan(
    match_id: Any,
    game: str,
    outcome: Any,
    players: int,
    seats: list[tuple[int, int, Any, Any]],
    references: dict[str, int],
) -> _Planned | None:
    """Who a match rates (``_apply``'s choice of seats, reference player included), or None
    when fewer than two distinct players are left. Raises ValueError for a malformed match."""
    ranks = _ranks(outcome, players, match_id)
    if [seat for seat, *_ in seats] != list(range(players)):
        raise ValueError(f"match {match_id}: seats {[s for s, *_ in seats]} of {players}")
    player_ids = {(bot_id, builtin): player_id for _, player_id, bot_id, builtin in seats}
    chosen = rated_seats([(bot_id, builtin) for _, _, bot_id, builtin in seats], ranks)
    fixed = reference_ratings(game)
    reference = reference_result(outcome, fixed) if len(chosen) == 1 else None
    if reference is not None:
        mine, theirs = reference.ranks
        seat = chosen[0]
        chosen = [
            RatedSeat(seat.seat, seat.player, mine),
            RatedSeat(players, (None, reference.player), theirs),
        ]
        player_ids[(None, reference.player)] = references[reference.player]
    if len(chosen) < 2:
        return None
    return _Planned(match_id, game, chosen, [player_ids[seat.player] for seat in chosen])


_HISTORY_TYPES = [
    "uuid",
    "int4",
    "text",
    "int8",
    "int8",
    "int4",
    "float8",
    "float8",
    "float8",
    "int4",
    "float8",
]
"""The columns of a batch's ``rating_history`` COPY, sent in binary (no text round trip)."""


def _apply_planned(
    conn: Connection, planned: list[_Planned], params: elo.EloParams
) -> dict[str, int]:
    """Apply the live Elo of ``planned`` (guarded, in finish order) and record it; returns how
    many matches each game rated."""
    if not planned:
        return {}
    cur = tuples(conn)
    keys = sorted({(p.game, player_id) for p in planned for player_id in p.ids})
    state = {
        (game, player_id): _Rating(rating, games)
        for game, player_id, rating, games in cur.execute(
            "SELECT game, player_id, rating, games FROM ratings"
            " WHERE (game, player_id) IN (SELECT * FROM unnest(%s::text[], %s::bigint[]))"
            " ORDER BY game, player_id FOR UPDATE",
            ([game for game, _ in keys], [player_id for _, player_id in keys]),
        )
    }
    pinned = pins_of(cur, sorted({p.game for p in planned}))
    counts: dict[str, int] = {}
    for match in planned:
        counts[match.game] = counts.get(match.game, 0) + 1
    first_seq = {}
    for game in sorted(counts):
        row = cur.execute(
            "UPDATE ladders SET last_seq = last_seq + %s WHERE game = %s RETURNING last_seq",
            (counts[game], game),
        ).fetchone()
        assert row is not None
        first_seq[game] = row[0] - counts[game] + 1

    history = []
    numbered = []
    for match in planned:
        before = [state[(match.game, player_id)] for player_id in match.ids]
        match_pins = [pinned.get((match.game, player_id)) for player_id in match.ids]
        for player, pin in zip(before, match_pins, strict=True):
            if pin is not None:
                player.rating = pin
        update = elo.pinned_update(
            [player.rating for player in before],
            [player.games for player in before],
            [seat.rank for seat in match.chosen],
            match_pins,
            params,
        )
        seq = first_seq[match.game]
        first_seq[match.game] += 1
        numbered.append((match.match_id, seq, len(match.chosen)))
        for seat, player_id, player, new, delta, pin in zip(
            match.chosen, match.ids, before, update.ratings, update.deltas, match_pins, strict=True
        ):
            history.append(
                (
                    match.match_id,
                    seat.seat,
                    match.game,
                    seq,
                    player_id,
                    seat.rank,
                    player.rating,
                    new,
                    delta,
                    player.games + 1,
                    pin,
                )
            )
            player.rating, player.games = new, player.games + 1

    cur.execute(
        "UPDATE rated_matches r SET seq = u.seq, seats = u.seats"
        " FROM unnest(%s::uuid[], %s::bigint[], %s::integer[]) AS u (match_id, seq, seats)"
        " WHERE r.match_id = u.match_id",
        tuple(list(column) for column in zip(*numbered, strict=True)),
    )
    with cur.copy(
        "COPY rating_history (match_id, seat, game, seq, player_id, rank, before, after, delta,"
        " games, pinned) FROM STDIN (FORMAT BINARY)"
    ) as copy:
        copy.set_types(_HISTORY_TYPES)
        for record in history:
            copy.write_row(record)
    cur.execute(
        "UPDATE ratings r SET rating = u.rating, games = u.games, updated_at = now()"
        " FROM unnest(%s::text[], %s::bigint[], %s::double precision[], %s::integer[])"
        " AS u (game, player_id, rating, games)"
        " WHERE r.game = u.game AND r.player_id = u.player_id",
        (
            [game for game, _ in keys],
            [player_id for _, player_id in keys],
            [state[key].rating for key in keys],
            [state[key].games for key in keys],
        ),
    )
    return counts
