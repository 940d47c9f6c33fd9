"""The match store: matches, seats and their append-only move and fault logs in PostgreSQL.

Writes from every live match go through one writer task that commits them in batches (group
commit): each caller awaits its own record's commit, so a move is durable before the match
asks for the next decision, and one commit serves every match that wrote meanwhile. When the
database goes away, the writer retries the same batch until it is back; nothing is dropped.

Each record succeeds or fails alone: when a batch fails for a reason other than the connection,
its records are committed again one transaction each, so a bad record fails only its own
caller. Every write is idempotent (a retried batch whose COMMIT had in fact succeeded changes
nothing): a logged ply with the same content is skipped, faults have a natural key, status
changes name the status they expect. Every write of a live match carries the fencing number of
the lease its arbiter holds, and the database refuses a stale one (`Fenced`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import logging
import secrets
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg import generators
from psycopg.pq import ExecStatus
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from premiere.admission import SeatStanding, reseat
from server.metrics import COMMIT_BATCH

log = logging.getLogger("premiere.store")

Row = dict[str, Any]


def hash_token(token: str) -> str:
    """Tokens are 256-bit random strings, so a plain SHA-256 is a safe one-way store."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A 256-bit random token with a fixed prefix, so it never starts with "-" (which command
    lines would read as an option) and is easy to spot in a leaked log."""
    return "pmb_" + secrets.token_urlsafe(32)


@dataclass(frozen=True)
class SeatSpec:
    """Who plays a seat: a registered bot (by id and name) or a built-in bot."""

    bot_id: int | None = None
    bot_name: str | None = None
    builtin: str | None = None

    @property
    def label(self) -> str:
        return self.bot_name if self.bot_name is not None else f"builtin:{self.builtin}"


@dataclass(frozen=True)
class MatchSpec:
    id: str
    game: str
    options: dict[str, Any]
    players: int
    seed: str
    move_time_ms: int
    time_bank_ms: int
    strike_limit: int
    seats: tuple[SeatSpec, ...]
    rated: bool = False
    deal_tables: int = 1
    """How many matches are dealt from this seed (a duplicate group's tables)."""
    unrated_reason: str | None = None
    """Why it was created unrated (None when rated)."""


@dataclass(frozen=True)
class MoveRecord:
    ply: int
    seat: int
    move: Any
    defaulted: bool
    elapsed_ms: int
    forced: list[Any] | None = None
    """The moves the engine applied on its own right after this one (`Game.encode_forced`);
    None for a move logged before the log kept them."""
    note: str | None = None
    """The bot's note on its answer (`DecisionAnswer.note`), None without one."""


@dataclass(frozen=True)
class FaultRecord:
    ply: int
    seat: int
    kind: str
    blame: str
    detail: str


@dataclasses.dataclass(frozen=True)
class Orphan:
    """An unfinished match nobody holds, as adoption sees it."""

    id: str
    game: str
    bots: tuple[int, ...]
    """The bot of each bot seat, in seat order (built-in seats left out)."""
    idle_s: float
    """Seconds since its lease lapsed (or since it was made, never leased), on the database's
    clock."""


class Fenced(Exception):
    """The match's lease is held by another arbiter now (or has lapsed): stop hosting it."""


class PlyConflict(Exception):
    """A ply is already logged with other content."""


FENCED = "PF001"
CONFLICT = "PF002"

Statement = tuple[str, tuple[Any, ...]]


@dataclass
class _Write:
    statements: tuple[Statement, ...]
    done: asyncio.Future[int] = field(repr=False)
    moves: tuple[tuple[Any, ...], ...] = ()
    """The rows (each the parameters of `MOVE_SQL`) of a move or of a simultaneous step's
    moves: the moves of a batch are inserted by one statement, one row each, so a step's rows
    stay all or none."""


_INSERT_MOVES = (
    "INSERT INTO match_moves"
    " (match_id, ply, seat, move, defaulted, elapsed_ms, fence, forced, note)"
)
MOVE_SQL = _INSERT_MOVES + " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
MOVES_SQL = _INSERT_MOVES + (
    " SELECT (r->>0)::uuid, (r->>1)::integer, (r->>2)::integer, (r->3)::jsonb,"
    " (r->>4)::boolean, (r->>5)::integer, (r->>6)::bigint, nullif((r->7)::jsonb, 'null'),"
    " r->>8 FROM json_array_elements(%s::json) AS r"
)
"""Many moves' rows in one statement, from one JSON array of rows (`_rows_json`): one text
parameter that the arbiter builds in a third of the time psycopg took to write nine binary
arrays (28 against 85 µs for six rows)."""

MOVES_STATEMENT = b"premiere_moves"
"""`MOVES_SQL`, prepared on the writer's connection as it connects (`_insert_moves`)."""
PREPARE_MOVES = (
    f"PREPARE {MOVES_STATEMENT.decode()} (json) AS {MOVES_SQL.replace('%s::json', '$1')}"
)


async def _insert_moves(conn: psycopg.AsyncConnection[Any], rows_json: str) -> None:
    """The group commit's usual statement (a batch of moves and nothing else) sent through
    libpq itself, as psycopg sends a command, without its cursor layer (a cursor made, the
    query converted, the prepared-statement cache consulted, the result wrapped): the store's
    CPU for a move committed alone went from 322 to 304 µs, and from 130 to 108 µs a move for
    four committed together (a scratch database, alternated three times). A lost connection
    raises `OperationalError`, as a cursor's statement would; the statement's own errors (a
    fence, a conflict) come as psycopg's.

    The writer's connection never lets psycopg prepare statements of its own: psycopg answers
    a rollback by deallocating every prepared statement of the session, this one with them.
    Should it be gone all the same, it is prepared again and the batch sent once more."""
    pg = conn.pgconn
    data = [rows_json.encode()]
    for attempt in (1, 2):
        pg.send_query_prepared(MOVES_STATEMENT, data)
        results = await conn.wait(generators.execute(pg))
        try:
            for result in results:
                if result.status == ExecStatus.FATAL_ERROR:
                    raise psycopg.errors.error_from_result(result, encoding=conn.info.encoding)
                if result.status != ExecStatus.COMMAND_OK:
                    raise psycopg.InternalError(f"moves insert returned {result.status.name}")
            return
        except psycopg.errors.InvalidSqlStatementName:
            if attempt == 2:
                raise
            await conn.execute(PREPARE_MOVES)


def _move_row(match_id: str, fence: int, record: MoveRecord) -> tuple[Any, ...]:
    """A move's row, in the column order of `MOVE_SQL`."""
    return (
        match_id,
        record.ply,
        record.seat,
        json.dumps(record.move),
        record.defaulted,
        record.elapsed_ms,
        fence,
        None if record.forced is None else (json.dumps(record.forced) if record.forced else "[]"),
        record.note,
    )


def _by_match(row: tuple[Any, ...]) -> tuple[str, int]:
    """A move row's place in lock order: its match (uuid text sorts as uuid does), then ply."""
    return str(row[0]), int(row[1])


def _rows_json(rows: Sequence[tuple[Any, ...]]) -> str:
    """Move rows as the JSON array `MOVES_SQL` reads, each move and forced list spliced in as
    the JSON `_move_row` already wrote."""
    return (
        "["
        + ",".join(
            f"[{json.dumps(str(match))},{int(ply)},{int(seat)},{move},"
            f"{'true' if defaulted else 'false'},{int(elapsed)},{int(fence)},"
            f"{'null' if forced is None else forced},"
            f"{'null' if note is None else json.dumps(note)}]"
            for match, ply, seat, move, defaulted, elapsed, fence, forced, note in rows
        )
        + "]"
    )


def describe(error: psycopg.Error) -> str:
    """A database error for the logs: its class and primary message, never its DETAIL (which
    can quote a failing row, seed included)."""
    return f"{type(error).__name__} [{error.sqlstate}]: {error.diag.message_primary or ''}"


def _failure(error: psycopg.Error) -> Exception:
    if error.sqlstate == FENCED:
        return Fenced(error.diag.message_primary or str(error))
    if error.sqlstate == CONFLICT:
        return PlyConflict(error.diag.message_primary or str(error))
    return error


POOL_SIZE = 4
"""Connections the arbiter reads through (its writes have one of their own)."""


class Store:
    """Async access to the match tables; `start()` before use, `close()` after."""

    def __init__(self, database_url: str, retry_delay: float = 0.5) -> None:
        self.database_url = database_url
        self.retry_delay = retry_delay
        self._queue: asyncio.Queue[_Write] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._write_conn: psycopg.AsyncConnection[Any] | None = None
        self._lease_conn: psycopg.AsyncConnection[Row] | None = None
        self._pool: AsyncConnectionPool[psycopg.AsyncConnection[Row]] = AsyncConnectionPool(
            database_url,
            min_size=1,
            max_size=POOL_SIZE,
            kwargs={"row_factory": dict_row, "autocommit": True},
            open=False,
        )

    async def start(self) -> None:
        await self._pool.open()
        self._writer = asyncio.create_task(self._write_loop(), name="store-writer")

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
        if self._write_conn is not None:
            await self._write_conn.close()
        await self._drop_lease_connection()
        await self._pool.close()

    # --- group commit --------------------------------------------------------------------

    async def _write(self, sql: str, params: tuple[Any, ...]) -> int:
        """Commit one statement; returns the rows it changed."""
        return await self._write_all((sql, params))

    async def _write_all(
        self, *statements: Statement, moves: tuple[tuple[Any, ...], ...] = ()
    ) -> int:
        """Commit statements in one transaction; returns the rows the last one changed.
        `moves` marks the statements as move rows (see `_Write.moves`)."""
        item = _Write(statements, asyncio.get_running_loop().create_future(), moves)
        self._queue.put_nowait(item)
        return await item.done

    async def _write_loop(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty():
                batch.append(self._queue.get_nowait())
            await self._commit_until_done(batch)

    async def _commit_until_done(self, batch: list[_Write]) -> None:
        while True:
            try:
                counts = await self._commit(await self._writer_connection(), batch)
            except psycopg.OperationalError as error:
                await self._wait_for_database(error)
                continue
            except psycopg.Error as error:
                if len(batch) == 1:
                    self._fail(batch[0], error)
                    return
                log.warning(
                    "a batch of %d writes failed (%s); one at a time", len(batch), describe(error)
                )
                for item in batch:
                    await self._commit_alone(item)
                return
            COMMIT_BATCH.observe(len(batch))
            for item, count in zip(batch, counts, strict=True):
                if not item.done.done():
                    item.done.set_result(count)
            return

    @staticmethod
    async def _commit(conn: psycopg.AsyncConnection[Any], batch: list[_Write]) -> list[int]:
        """Commit a batch; returns each write's changed rows (its rows, for moves).

        The moves of a batch, a simultaneous step's included, go in as one statement; no order
        within a batch matters, since a match has at most one write waiting at a time (every
        writer awaits its commit). A batch of moves only (the usual one, a lone move included)
        is one statement through `_insert_moves`, and a batch of one other statement is sent
        alone, each on the autocommit connection in one round trip; any other batch goes in a
        transaction, pipelined.
        """
        # In match order: each move's row takes its lease's row lock (`arbiter_holds`), and
        # lease renewals lock theirs in that order too, so the two never deadlock.
        moves = sorted((row for item in batch for row in item.moves), key=_by_match)
        if all(item.moves for item in batch):
            await _insert_moves(conn, _rows_json(moves))
            return [len(item.moves) for item in batch]
        if len(batch) == 1 and len(batch[0].statements) == 1:
            sql, params = batch[0].statements[0]
            return [(await conn.execute(sql, params)).rowcount]
        async with conn.transaction(), conn.pipeline():
            cursors = [None if item.moves else await Store._execute(conn, item) for item in batch]
            if moves:
                await conn.execute(MOVES_SQL, (_rows_json(moves),))
        return [
            len(item.moves) if cursor is None else cursor.rowcount
            for item, cursor in zip(batch, cursors, strict=True)
        ]

    async def _commit_alone(self, item: _Write) -> None:
        while True:
            try:
                conn = await self._writer_connection()
                async with conn.transaction():
                    cursor = await self._execute(conn, item)
            except psycopg.OperationalError as error:
                await self._wait_for_database(error)
                continue
            except psycopg.Error as error:
                self._fail(item, error)
                return
            COMMIT_BATCH.observe(1)
            if not item.done.done():
                item.done.set_result(cursor.rowcount)
            return

    @staticmethod
    async def _execute(
        conn: psycopg.AsyncConnection[Any], item: _Write
    ) -> psycopg.AsyncCursor[Any]:
        cursor = conn.cursor()
        for sql, params in item.statements:
            cursor = conn.cursor()
            await cursor.execute(sql, params)
        return cursor

    @staticmethod
    def _fail(item: _Write, error: psycopg.Error) -> None:
        failure = _failure(error)
        if not isinstance(failure, Fenced | PlyConflict):
            log.error("a write failed and is dropped: %s", describe(error))
        if not item.done.done():
            item.done.set_exception(failure)

    async def _wait_for_database(self, error: psycopg.OperationalError) -> None:
        log.warning("database write failed (%s); retrying", error)
        await self._drop_writer_connection()
        await asyncio.sleep(self.retry_delay)

    async def _writer_connection(self) -> psycopg.AsyncConnection[Any]:
        if self._write_conn is None or self._write_conn.closed:
            conn = await psycopg.AsyncConnection.connect(
                self.database_url, autocommit=True, prepare_threshold=None
            )
            try:
                await conn.execute(PREPARE_MOVES)
            except BaseException:
                await conn.close()
                raise
            self._write_conn = conn
        return self._write_conn

    async def _drop_writer_connection(self) -> None:
        if self._write_conn is not None:
            with contextlib.suppress(Exception):
                await self._write_conn.close()
        self._write_conn = None

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One statement on a pooled connection, retried while the database is away.

        The pool does not test a connection before lending it (that is a round trip more per
        read): a connection the database dropped (a restart) fails its statement, the pool
        discards it, and the read goes again at once on another, pausing only once the
        database itself fails to answer."""
        stale = 0
        for attempt in range(20 + POOL_SIZE):
            broken = False
            try:
                async with self._pool.connection() as conn:
                    try:
                        cursor = await conn.execute(sql, params)
                        return await cursor.fetchall()
                    finally:
                        broken = conn.broken
            except psycopg.OperationalError as error:
                if attempt == 19 + POOL_SIZE:
                    raise
                if broken and stale < POOL_SIZE:
                    stale += 1
                    log.info("a pooled database connection was gone (%s); reading again", error)
                    continue
                log.warning("database read failed (%s); retrying", error)
                await asyncio.sleep(self.retry_delay)
        raise AssertionError("unreachable")

    async def reachable(self, timeout: float = 2.0) -> bool:
        """Whether the database answers now (for readiness): one try, no retries."""
        try:
            async with asyncio.timeout(timeout), self._pool.connection(timeout) as conn:
                await conn.execute("SELECT 1")
            return True
        except (TimeoutError, psycopg.Error, OSError):
            return False

    # --- matches -------------------------------------------------------------------------

    async def create_match(
        self,
        spec: MatchSpec,
        idempotency_key: str | None = None,
        owner: str = "",
        lease_s: float = 0.0,
        seat_names: Sequence[str] = (),
        fingerprint: str | None = None,
    ) -> MatchSpec:
        """Insert the match, its seats and (with an owner) its first lease, fencing number 1, in
        one transaction; with a key already used, nothing is inserted (see `match_by_key`).

        With ``seat_names`` (the registered seats as asked for, in seat order), the gate is
        passed again inside that transaction, with the family row of every seated bot locked
        (``FOR SHARE``: removing, disabling, activating a version and a change of standing
        lock it for update): a seat refused now raises `SeatRefused`, a seat whose name now
        seats another version raises it too, and a rated match is inserted unrated when a
        seat's standing no longer allows it (``premiere.admission.reseat``). Returns the spec
        as inserted."""
        statements: list[Statement] = [
            (
                "INSERT INTO matches (id, game, options, players, seed, move_time_ms,"
                " time_bank_ms, strike_limit, status, idempotency_key, rated, deal_tables,"
                " unrated_reason, idempotency_fingerprint)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, 'pending', %s, %s, %s, %s, %s)"
                " ON CONFLICT DO NOTHING",
                (
                    spec.id,
                    spec.game,
                    json.dumps(spec.options),
                    spec.players,
                    spec.seed,
                    spec.move_time_ms,
                    spec.time_bank_ms,
                    spec.strike_limit,
                    idempotency_key,
                    spec.rated,
                    spec.deal_tables,
                    None if spec.rated else spec.unrated_reason or "casual",
                    fingerprint,
                ),
            )
        ]
        mine = "EXISTS (SELECT 1 FROM matches WHERE id = %s)"
        for seat, player in enumerate(spec.seats):
            statements.append(
                (
                    "INSERT INTO match_seats (match_id, seat, bot_id, builtin)"
                    f" SELECT %s, %s, %s, %s WHERE {mine} ON CONFLICT DO NOTHING",
                    (spec.id, seat, player.bot_id, player.builtin, spec.id),
                )
            )
        if owner:
            statements.append(
                (
                    "INSERT INTO match_leases (match_id, owner, fence, expires_at)"
                    f" SELECT %s, %s, 1, now() + make_interval(secs => %s) WHERE {mine}"
                    " ON CONFLICT DO NOTHING",
                    (spec.id, owner, lease_s, spec.id),
                )
            )
        if not seat_names:
            await self._write_all(*statements)
            return spec
        return await self._create_gated(spec, statements, seat_names)

    async def _create_gated(
        self, spec: MatchSpec, statements: list[Statement], seat_names: Sequence[str]
    ) -> MatchSpec:
        """Pipelined: the locks and the standings go in one round trip (with the BEGIN), the
        inserts in another (with the COMMIT), where one statement at a time took ten; every
        one of them still runs in that order, in the one transaction."""
        seated = [seat.bot_id for seat in spec.seats if seat.bot_id is not None]
        async with self._pool.connection() as conn, conn.pipeline(), conn.transaction():
            await conn.execute(
                "SELECT 1 FROM bots WHERE id IN (SELECT coalesce(family_id, id) FROM bots"
                " WHERE id = ANY(%s)) ORDER BY id FOR SHARE",
                (seated,),
            )
            await conn.execute(
                "SELECT 1 FROM accounts WHERE id IN (SELECT account_id FROM bots"
                " WHERE id = ANY(%s)) ORDER BY id FOR SHARE",
                (seated,),
            )
            cursor = await conn.execute(SEAT_STANDINGS, (list(seat_names),))
            found = {row["seat"]: row for row in await cursor.fetchall()}
            missing = [name for name in seat_names if name not in found]
            if missing:
                raise SeatRefused(f"no registered bots named {missing}")
            if {row["bot_id"] for row in found.values()} != set(seated):
                raise SeatRefused("a seat's bot changed while the match was created; ask again")
            verdict = reseat(
                spec.game,
                [SeatStanding.from_row(found[name]) for name in seat_names],
                rated=spec.rated,
            )
            if verdict.refused is not None:
                raise SeatRefused(verdict.refused)
            if spec.rated and not verdict.rated:
                spec = dataclasses.replace(spec, rated=False, unrated_reason=verdict.unrated_reason)
                statements = [
                    _unrated_insert(statements[0], verdict.unrated_reason),
                    *statements[1:],
                ]
            for sql, params in statements:
                await conn.execute(sql, params)
        return spec

    async def match_by_key_with_fingerprint(self, key: str) -> tuple[str, str | None] | None:
        """The match made with this idempotency key and the fingerprint of its request (None
        for a match made before fingerprints were kept)."""
        rows = await self._read(
            "SELECT id, idempotency_fingerprint FROM matches WHERE idempotency_key = %s", (key,)
        )
        return (str(rows[0]["id"]), rows[0]["idempotency_fingerprint"]) if rows else None

    async def match_by_key(self, idempotency_key: str) -> str | None:
        rows = await self._read(
            "SELECT id FROM matches WHERE idempotency_key = %s", (idempotency_key,)
        )
        return str(rows[0]["id"]) if rows else None

    # --- leases --------------------------------------------------------------------------

    async def acquire(self, match_id: str, owner: str, lease_s: float) -> int | None:
        """Take the match's lease if it is free or has lapsed (a takeover adds one to the
        fencing number); returns the fencing number, or None when another arbiter holds it or
        the match has ended. The same owner asking again keeps its number (a retried write)."""
        rows = await self._read(
            "INSERT INTO match_leases (match_id, owner, fence, expires_at)"
            " SELECT id, %s, 1, now() + make_interval(secs => %s) FROM matches"
            "  WHERE id = %s AND status IN ('pending', 'running')"
            " ON CONFLICT (match_id) DO UPDATE SET owner = EXCLUDED.owner,"
            "  expires_at = EXCLUDED.expires_at,"
            "  fence = match_leases.fence"
            "   + CASE WHEN match_leases.owner = EXCLUDED.owner THEN 0 ELSE 1 END"
            " WHERE match_leases.expires_at < now() OR match_leases.owner = EXCLUDED.owner"
            " RETURNING fence",
            (owner, lease_s, match_id),
        )
        return int(rows[0]["fence"]) if rows else None

    async def renew(self, owner: str, fences: dict[str, int], lease_s: float) -> set[str]:
        """Extend the leases this owner still holds with these fencing numbers; returns the
        matches renewed (a match missing from the answer has been taken over)."""
        if not fences:
            return set()
        # The rows are locked in match order, as a batch of moves locks them (`_commit`).
        rows = await self._lease_read(
            "UPDATE match_leases l SET expires_at = now() + make_interval(secs => %s)"
            " FROM (SELECT k.match_id FROM match_leases k"
            "  JOIN unnest(%s::uuid[], %s::bigint[]) AS h (match_id, fence)"
            "  ON k.match_id = h.match_id AND k.fence = h.fence AND k.owner = %s"
            "  ORDER BY k.match_id FOR NO KEY UPDATE OF k) AS h"
            " WHERE l.match_id = h.match_id"
            " RETURNING l.match_id",
            (lease_s, list(fences), list(fences.values()), owner),
        )
        return {str(row["match_id"]) for row in rows}

    async def _lease_read(self, sql: str, params: Sequence[Any]) -> list[Row]:
        """One statement on a connection kept for lease renewals alone: a renewal must not
        wait for a pooled connection behind a burst of reads (a thousand matches being
        created), or the leases lapse while the database is answering. A deadlock with the
        writer's transactions (theirs lock lease rows in batch order) is tried again at once;
        any other failure is raised, and the next renewal connects again."""
        for attempt in range(3):
            try:
                if self._lease_conn is None or self._lease_conn.closed:
                    self._lease_conn = await psycopg.AsyncConnection.connect(
                        self.database_url, autocommit=True, row_factory=dict_row
                    )
                cursor = await self._lease_conn.execute(sql, params)
                return await cursor.fetchall()
            except psycopg.errors.DeadlockDetected:
                if attempt == 2:
                    raise
            except psycopg.OperationalError:
                await self._drop_lease_connection()
                raise
        raise AssertionError("unreachable")

    async def _drop_lease_connection(self) -> None:
        if self._lease_conn is not None:
            with contextlib.suppress(Exception):
                await self._lease_conn.close()
        self._lease_conn = None

    async def release(self, match_id: str, owner: str, fence: int) -> None:
        """Let the lease lapse now, so another arbiter may take the match at once."""
        await self._write(
            "UPDATE match_leases SET expires_at = now() - interval '1 second'"
            " WHERE match_id = %s AND owner = %s AND fence = %s",
            (match_id, owner, fence),
        )

    async def orphans(self, limit: int = 100) -> list[str]:
        """Unfinished matches nobody holds: never leased, or their lease has lapsed."""
        rows = await self._read(
            "SELECT m.id FROM matches m LEFT JOIN match_leases l ON l.match_id = m.id"
            " WHERE m.status IN ('pending', 'running')"
            " AND (l.match_id IS NULL OR l.expires_at < now())"
            " ORDER BY m.created_at LIMIT %s",
            (limit,),
        )
        return [str(row["id"]) for row in rows]

    async def orphans_placed(self, limit: int = 100) -> list[Orphan]:
        """The orphans (as `orphans`) with what placement needs: game, bot seats, and how
        long each has been nobody's (since its lease lapsed, or since it was made)."""
        rows = await self._read(
            "SELECT m.id, m.game, extract(epoch FROM now() - coalesce(l.expires_at,"
            "  m.created_at))::float8 AS idle_s,"
            " array(SELECT s.bot_id FROM match_seats s WHERE s.match_id = m.id"
            "  AND s.bot_id IS NOT NULL ORDER BY s.seat) AS bots"
            " FROM matches m LEFT JOIN match_leases l ON l.match_id = m.id"
            " WHERE m.status IN ('pending', 'running')"
            " AND (l.match_id IS NULL OR l.expires_at < now())"
            " ORDER BY m.created_at LIMIT %s",
            (limit,),
        )
        return [
            Orphan(str(r["id"]), str(r["game"]), tuple(r["bots"]), float(r["idle_s"])) for r in rows
        ]

    async def claim(self, match_id: str, owner: str, lease_s: float) -> int | None:
        """Take up a match placed on `owner`: its creator made its first lease out to this
        owner (fencing number 1) and no host has written it yet. Extends that lease and
        returns 1; None when it is not so (taken over after the placement lapsed, ended)."""
        rows = await self._read(
            "UPDATE match_leases l SET expires_at = now() + make_interval(secs => %s)"
            " FROM matches m WHERE l.match_id = %s AND m.id = l.match_id AND l.owner = %s"
            " AND l.fence = 1 AND m.status = 'pending'"
            " RETURNING l.fence",
            (lease_s, match_id, owner),
        )
        return int(rows[0]["fence"]) if rows else None

    async def lease(self, match_id: str) -> Row | None:
        rows = await self._read("SELECT * FROM match_leases WHERE match_id = %s", (match_id,))
        return rows[0] if rows else None

    # --- the match's log (every write carries the lease's fencing number) ----------------

    async def mark_running(
        self, match_id: str, fence: int, forced_at_start: list[Any] | None = None
    ) -> None:
        """Running from now; `forced_at_start` (the moves the engine applied on its own at
        set-up, `Game.encode_forced`) is kept by the first start and never rewritten."""
        await self._write(
            "UPDATE matches SET status = 'running', started_at = coalesce(started_at, now()),"
            " forced_at_start = coalesce(forced_at_start, %s::jsonb)"
            " WHERE id = %s AND status IN ('pending', 'running') AND arbiter_holds(id, %s)",
            (
                None if forced_at_start is None else json.dumps(forced_at_start),
                match_id,
                fence,
            ),
        )

    async def append_move(self, match_id: str, fence: int, record: MoveRecord) -> None:
        """A ply already logged with the same content (its forced moves included, which ride
        in its row) is a no-op; other content raises `PlyConflict`; a stale fencing number
        raises `Fenced`."""
        row = _move_row(match_id, fence, record)
        await self._write_all((MOVE_SQL, row), moves=(row,))

    async def append_step(self, match_id: str, fence: int, records: Sequence[MoveRecord]) -> None:
        """The moves of one simultaneous step, all or none (one statement): the log then always
        ends between steps, so a match resumed from it asks the next step of the very seats,
        in the very order, that an uninterrupted one would (a seat that may move again within
        the same simultaneous phase would otherwise be asked before the seats still to answer).
        Same no-op, conflict and fencing rules as `append_move`, row by row."""
        if len(records) == 1:
            await self.append_move(match_id, fence, records[0])
            return
        rows = tuple(_move_row(match_id, fence, record) for record in records)
        await self._write_all((MOVES_SQL, (_rows_json(rows),)), moves=rows)

    async def append_fault(self, match_id: str, fence: int, record: FaultRecord) -> None:
        await self._write(
            "INSERT INTO match_faults (match_id, ply, seat, kind, blame, detail, fence)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
            (match_id, record.ply, record.seat, record.kind, record.blame, record.detail, fence),
        )

    async def finish(
        self,
        match_id: str,
        fence: int,
        outcome: Any,
        strikes: Sequence[int],
        forfeited: Sequence[bool],
    ) -> bool:
        """Finish a running match this arbiter holds, seats and result in one transaction;
        False when it is no longer running (a retried finish, or already void). The finish
        time is read inside the transaction, while it runs (``clock_timestamp()``, not the
        transaction's start): the ladder relies on it to rate in finish order
        (``ladder.horizon``)."""
        statements: list[Statement] = [
            (
                "UPDATE match_seats SET strikes = %s, forfeited = %s"
                " WHERE match_id = %s AND seat = %s AND arbiter_holds(match_id, %s)",
                (count, gone, match_id, seat, fence),
            )
            for seat, (count, gone) in enumerate(zip(strikes, forfeited, strict=True))
        ]
        statements.append(
            (
                "UPDATE matches SET status = 'finished', outcome = %s,"
                " finished_at = clock_timestamp()"
                " WHERE id = %s AND status = 'running' AND arbiter_holds(id, %s)",
                (json.dumps(outcome), match_id, fence),
            )
        )
        return await self._write_all(*statements) == 1

    async def void(self, match_id: str, reason: str, fence: int) -> bool:
        """Void a pending or running match this arbiter holds; False when it had ended."""
        changed = await self._write(
            "UPDATE matches SET status = 'void', void_reason = %s, finished_at = now()"
            " WHERE id = %s AND status IN ('pending', 'running') AND arbiter_holds(id, %s)",
            (reason, match_id, fence),
        )
        return changed == 1

    async def match(self, match_id: str) -> Row | None:
        try:
            uuid.UUID(match_id)
        except ValueError:
            return None
        rows = await self._read("SELECT * FROM matches WHERE id = %s", (match_id,))
        return rows[0] if rows else None

    async def revealed(self, match_id: str) -> bool:
        """Ended, and so has every other match dealt from its seed (`match_revealed`)."""
        rows = await self._read("SELECT match_revealed(%s) AS revealed", (match_id,))
        return bool(rows and rows[0]["revealed"])

    async def seats(self, match_id: str) -> list[Row]:
        return await self._read(
            "SELECT s.*, b.name AS bot_name, coalesce(b.family_id, b.id) AS family_id"
            " FROM match_seats s LEFT JOIN bots b ON b.id = s.bot_id"
            " WHERE s.match_id = %s ORDER BY s.seat",
            (match_id,),
        )

    async def moves(self, match_id: str) -> list[MoveRecord]:
        rows = await self._read(
            "SELECT ply, seat, move, defaulted, elapsed_ms, forced, note FROM match_moves"
            " WHERE match_id = %s ORDER BY ply",
            (match_id,),
        )
        return [MoveRecord(**row) for row in rows]

    async def match_record(self, match_id: str) -> Row | None:
        """The match row with what its public record needs, read in one statement:
        ``seat_rows`` (as `seats` gives them), ``fault_rows`` (as `faults`), ``decisions``
        (the moves stored) and ``revealed`` (as `revealed`). A bot's SDK asks for this at the
        end of every match it plays, so it is one round trip, not six."""
        try:
            uuid.UUID(match_id)
        except ValueError:
            return None
        rows = await self._read(
            "SELECT m.*, match_revealed(m.id) AS revealed,"
            " (SELECT count(*) FROM match_moves mv WHERE mv.match_id = m.id) AS decisions,"
            " (SELECT coalesce(json_agg(json_build_object('seat', s.seat, 'bot_name', b.name,"
            " 'builtin', s.builtin, 'forfeited', s.forfeited,"
            " 'family_id', coalesce(b.family_id, b.id)) ORDER BY s.seat), '[]')"
            " FROM match_seats s LEFT JOIN bots b ON b.id = s.bot_id"
            " WHERE s.match_id = m.id) AS seat_rows,"
            " (SELECT coalesce(json_agg(json_build_object('ply', f.ply, 'seat', f.seat,"
            " 'kind', f.kind, 'blame', f.blame, 'detail', f.detail) ORDER BY f.id), '[]')"
            " FROM match_faults f WHERE f.match_id = m.id) AS fault_rows"
            " FROM matches m WHERE m.id = %s",
            (match_id,),
        )
        return rows[0] if rows else None

    async def faults(self, match_id: str) -> list[FaultRecord]:
        rows = await self._read(
            "SELECT ply, seat, kind, blame, detail FROM match_faults"
            " WHERE match_id = %s ORDER BY id",
            (match_id,),
        )
        return [FaultRecord(**row) for row in rows]

    async def spec(self, match_id: str) -> MatchSpec | None:
        row = await self.match(match_id)
        if row is None:
            return None
        seats = tuple(
            SeatSpec(bot_id=s["bot_id"], bot_name=s["bot_name"], builtin=s["builtin"])
            for s in await self.seats(match_id)
        )
        return MatchSpec(
            id=str(row["id"]),
            game=row["game"],
            options=row["options"],
            players=row["players"],
            seed=row["seed"],
            move_time_ms=row["move_time_ms"],
            time_bank_ms=row["time_bank_ms"],
            strike_limit=row["strike_limit"],
            seats=seats,
            rated=row["rated"],
            deal_tables=row["deal_tables"],
        )

    # --- bots ----------------------------------------------------------------------------

    async def bot_by_token(self, token: str) -> Row | None:
        """The bot a token logs in (id, name, its family, account and whether that is the
        operator's): none once it was removed or its account disabled. ``hosted``: the token
        is the runner's for a hosted version, which that stream serves whatever its Hello says;
        ``manifest_games``: the games its bundle's manifest claims ([]: every game)."""
        rows = await self._read(
            "SELECT b.id, b.name, coalesce(b.family_id, b.id) AS family_id, b.account_id,"
            " a.name = 'operator' AS operator, b.token_hash <> %s AS hosted,"
            # A hosted run's token is the runner's (hosted_credentials), dead with the run: no
            # rotation to follow, so its stream remembers no bot token.
            " CASE WHEN b.token_hash = %s THEN b.token_hash END AS token_hash,"
            " (SELECT u.manifest -> 'games' FROM bundles u WHERE u.account_id = b.account_id"
            "  AND u.sha256 = b.bundle_sha256) AS manifest_games"
            " FROM bots b JOIN accounts a ON a.id = b.account_id"
            " WHERE (b.token_hash = %s"
            "  OR b.id = (SELECT h.bot_id FROM hosted_logins h WHERE h.token_hash = %s))"
            " AND a.state = 'active' AND b.removed_at IS NULL",
            (hash_token(token),) * 4,
        )
        return rows[0] if rows else None

    async def seat_standings(self, names: Sequence[str]) -> dict[str, SeatStanding]:
        """What the gate (``premiere.admission``) needs of each seat name, resolved as
        ``bots_by_name`` does; names that seat nothing are left out."""
        rows = await self._read(SEAT_STANDINGS, (list(names),))
        return {row["seat"]: SeatStanding.from_row(row) for row in rows}

    async def record_hello(
        self,
        bot_id: int,
        games: Iterable[str],
        player_counts: Iterable[int] = (),
        accepts: str = "any",
        max_matches: int = 1,
    ) -> None:
        """Remember what the bot said it plays and accepts: the games (empty: every game), the
        table sizes (empty: any), rated or casual matches, and how many at once; league
        creation, the arbiter and the ladder matchmaker respect them."""
        counts = sorted(set(player_counts)) or None
        await self._write(
            "UPDATE bots SET games = %s, player_counts = %s, accepts = %s, max_matches = %s,"
            " last_connected_at = now() WHERE id = %s",
            (sorted(games), counts, accepts, max_matches, bot_id),
        )

    async def bots_refusing(
        self, ids: Sequence[int], players: int, rated: bool, validation: bool = False
    ) -> list[str]:
        """Those of the bots that said they accept no table of ``players`` seats, or no match
        of this kind (rated or casual; a validation match is casual, but every bot plays it)."""
        kind = "casual" if rated else "rated"
        rows = await self._read(
            "SELECT name FROM bots WHERE id = ANY(%s) AND ("
            " (player_counts IS NOT NULL AND NOT %s = ANY(player_counts))"
            " OR (accepts = %s AND NOT %s)) ORDER BY name",
            (list(ids), players, kind, validation),
        )
        return [row["name"] for row in rows]

    async def bots_by_name(self, names: Sequence[str]) -> dict[str, tuple[int, str]]:
        """Each name's bots row to seat, with its name: a registered bot's name seats its
        active version; NAME@VERSION seats that version (the first one too, whose row is
        named NAME)."""
        rows = await self._read(
            "SELECT n AS name, a.id, a.name AS seated FROM unnest(%s::text[]) n"
            " JOIN bots b ON b.name = n OR (b.family_id IS NULL AND b.name || '@' || b.version = n)"
            " JOIN bots a ON a.id = CASE WHEN b.family_id IS NULL AND b.name = n"
            "   THEN coalesce(b.active_id, b.id) ELSE b.id END"
            " JOIN accounts o ON o.id = a.account_id"
            " WHERE b.removed_at IS NULL AND a.removed_at IS NULL AND o.state = 'active'",
            (list(names),),
        )
        return {row["name"]: (row["id"], row["seated"]) for row in rows}

    async def bots_not_playing(self, ids: Sequence[int], game: str) -> list[str]:
        """Those of the bots that said, when they last connected, that they play other games."""
        rows = await self._read(
            "SELECT name FROM bots WHERE id = ANY(%s) AND cardinality(games) > 0"
            " AND NOT %s = ANY(games) ORDER BY name",
            (list(ids), game),
        )
        return [row["name"] for row in rows]


SEAT_STANDINGS = (
    "SELECT n AS seat, a.id AS bot_id, s.bot, s.owner, s.state, s.validated, s.removed,"
    " s.account_active, s.disabled, s.lineage_probation FROM unnest(%s::text[]) n"
    " JOIN bots b ON b.name = n OR (b.family_id IS NULL AND b.name || '@' || b.version = n)"
    " JOIN bots a ON a.id = CASE WHEN b.family_id IS NULL AND b.name = n"
    "   THEN coalesce(b.active_id, b.id) ELSE b.id END"
    " JOIN seat_admission s ON s.bot = a.name"
)
"""What the gate needs of each seat name, resolved as ``Store.bots_by_name`` does."""


class SeatRefused(Exception):
    """At the moment of seating, the gate refuses a seat (removed, disabled, ...)."""


def _unrated_insert(statement: Statement, reason: str | None) -> Statement:
    """The match's INSERT, made unrated with ``reason``."""
    sql, params = statement
    values = list(params)
    values[9], values[11] = False, reason or "casual"
    return sql, tuple(values)


def add_bot(database_url: str, name: str) -> str:
    """Register a bot and return its token; only the token's hash is stored. '@' is kept for
    versions (NAME@VERSION), so a registered name has none."""
    if "@" in name:
        raise ValueError("a bot name has no '@' (NAME@VERSION names a version of bot NAME)")
    token = new_token()
    with psycopg.connect(database_url) as conn:
        conn.execute(
            "INSERT INTO bots (name, token_hash) VALUES (%s, %s)", (name, hash_token(token))
        )
    return token
