"""The match store: matches, seats and their append-only move and fault logs in PostgreSQL.

Writes from every live match go through one writer task that commits them in batches (group
commit): each caller awaits its own record's commit, so a move is durable before the match
asks for the next decision, and one commit serves every match that wrote meanwhile. When the
database goes away, the writer retries the same batch until it is back; nothing is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

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


@dataclass(frozen=True)
class MoveRecord:
    ply: int
    seat: int
    move: Any
    defaulted: bool
    elapsed_ms: int


@dataclass(frozen=True)
class FaultRecord:
    ply: int
    seat: int
    kind: str
    blame: str
    detail: str


@dataclass
class _Write:
    sql: str
    params: tuple[Any, ...]
    done: asyncio.Future[None] = field(repr=False)


class Store:
    """Async access to the match tables; `start()` before use, `close()` after."""

    def __init__(self, database_url: str, retry_delay: float = 0.5) -> None:
        self.database_url = database_url
        self.retry_delay = retry_delay
        self._queue: asyncio.Queue[_Write] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._write_conn: psycopg.AsyncConnection[Any] | None = None
        self._pool: AsyncConnectionPool[psycopg.AsyncConnection[Row]] = AsyncConnectionPool(
            database_url,
            min_size=1,
            max_size=4,
            kwargs={"row_factory": dict_row, "autocommit": True},
            check=AsyncConnectionPool.check_connection,
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
        await self._pool.close()

    # --- group commit --------------------------------------------------------------------

    async def _write(self, sql: str, params: tuple[Any, ...]) -> None:
        item = _Write(sql, params, asyncio.get_running_loop().create_future())
        await self._queue.put(item)
        await item.done

    async def _write_loop(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty():
                batch.append(self._queue.get_nowait())
            await self._commit_until_done(batch)

    async def _commit_until_done(self, batch: list[_Write]) -> None:
        while True:
            try:
                conn = await self._writer_connection()
                async with conn.transaction(), conn.pipeline():
                    for item in batch:
                        await conn.execute(item.sql, item.params)
            except psycopg.OperationalError as error:
                log.warning("database write failed (%s); retrying", error)
                await self._drop_writer_connection()
                await asyncio.sleep(self.retry_delay)
                continue
            except psycopg.Error as error:
                for item in batch:
                    if not item.done.done():
                        item.done.set_exception(error)
                return
            COMMIT_BATCH.observe(len(batch))
            for item in batch:
                if not item.done.done():
                    item.done.set_result(None)
            return

    async def _writer_connection(self) -> psycopg.AsyncConnection[Any]:
        if self._write_conn is None or self._write_conn.closed:
            self._write_conn = await psycopg.AsyncConnection.connect(self.database_url)
        return self._write_conn

    async def _drop_writer_connection(self) -> None:
        if self._write_conn is not None:
            with contextlib.suppress(Exception):
                await self._write_conn.close()
        self._write_conn = None

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        for attempt in range(20):
            try:
                async with self._pool.connection() as conn:
                    cursor = await conn.execute(sql, params)
                    return await cursor.fetchall()
            except psycopg.OperationalError as error:
                if attempt == 19:
                    raise
                log.warning("database read failed (%s); retrying", error)
                await asyncio.sleep(self.retry_delay)
        raise AssertionError("unreachable")

    # --- matches -------------------------------------------------------------------------

    async def create_match(self, spec: MatchSpec, idempotency_key: str | None = None) -> None:
        """Insert the match; with a key already used, nothing is inserted (see `match_by_key`)."""
        await self._write(
            "INSERT INTO matches (id, game, options, players, seed, move_time_ms, time_bank_ms,"
            " strike_limit, status, idempotency_key, rated)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, 'pending', %s, %s)"
            " ON CONFLICT (idempotency_key) DO NOTHING",
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
            ),
        )
        for seat, player in enumerate(spec.seats):
            await self._write(
                "INSERT INTO match_seats (match_id, seat, bot_id, builtin)"
                " SELECT %s, %s, %s, %s WHERE EXISTS (SELECT 1 FROM matches WHERE id = %s)",
                (spec.id, seat, player.bot_id, player.builtin, spec.id),
            )

    async def match_by_key(self, idempotency_key: str) -> str | None:
        rows = await self._read(
            "SELECT id FROM matches WHERE idempotency_key = %s", (idempotency_key,)
        )
        return str(rows[0]["id"]) if rows else None

    async def mark_running(self, match_id: str) -> None:
        await self._write(
            "UPDATE matches SET status = 'running', started_at = coalesce(started_at, now())"
            " WHERE id = %s AND status IN ('pending', 'running')",
            (match_id,),
        )

    async def append_move(self, match_id: str, record: MoveRecord) -> None:
        await self._write(
            "INSERT INTO match_moves (match_id, ply, seat, move, defaulted, elapsed_ms)"
            " VALUES (%s, %s, %s, %s, %s, %s)",
            (
                match_id,
                record.ply,
                record.seat,
                json.dumps(record.move),
                record.defaulted,
                record.elapsed_ms,
            ),
        )

    async def append_fault(self, match_id: str, record: FaultRecord) -> None:
        await self._write(
            "INSERT INTO match_faults (match_id, ply, seat, kind, blame, detail)"
            " VALUES (%s, %s, %s, %s, %s, %s)",
            (match_id, record.ply, record.seat, record.kind, record.blame, record.detail),
        )

    async def finish(
        self,
        match_id: str,
        outcome: Any,
        strikes: Sequence[int],
        forfeited: Sequence[bool],
    ) -> None:
        for seat, (count, gone) in enumerate(zip(strikes, forfeited, strict=True)):
            await self._write(
                "UPDATE match_seats SET strikes = %s, forfeited = %s"
                " WHERE match_id = %s AND seat = %s",
                (count, gone, match_id, seat),
            )
        await self._write(
            "UPDATE matches SET status = 'finished', outcome = %s, finished_at = now()"
            " WHERE id = %s",
            (json.dumps(outcome), match_id),
        )

    async def void(self, match_id: str, reason: str) -> None:
        await self._write(
            "UPDATE matches SET status = 'void', void_reason = %s, finished_at = now()"
            " WHERE id = %s AND status IN ('pending', 'running')",
            (reason, match_id),
        )

    async def match(self, match_id: str) -> Row | None:
        try:
            uuid.UUID(match_id)
        except ValueError:
            return None
        rows = await self._read("SELECT * FROM matches WHERE id = %s", (match_id,))
        return rows[0] if rows else None

    async def seats(self, match_id: str) -> list[Row]:
        return await self._read(
            "SELECT s.*, b.name AS bot_name, coalesce(b.family_id, b.id) AS family_id"
            " FROM match_seats s LEFT JOIN bots b ON b.id = s.bot_id"
            " WHERE s.match_id = %s ORDER BY s.seat",
            (match_id,),
        )

    async def moves(self, match_id: str) -> list[MoveRecord]:
        rows = await self._read(
            "SELECT ply, seat, move, defaulted, elapsed_ms FROM match_moves"
            " WHERE match_id = %s ORDER BY ply",
            (match_id,),
        )
        return [MoveRecord(**row) for row in rows]

    async def faults(self, match_id: str) -> list[FaultRecord]:
        rows = await self._read(
            "SELECT ply, seat, kind, blame, detail FROM match_faults"
            " WHERE match_id = %s ORDER BY id",
            (match_id,),
        )
        return [FaultRecord(**row) for row in rows]

    async def unfinished(self) -> list[str]:
        rows = await self._read(
            "SELECT id FROM matches WHERE status IN ('pending', 'running') ORDER BY created_at"
        )
        return [str(row["id"]) for row in rows]

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
        )

    # --- bots ----------------------------------------------------------------------------

    async def bot_by_token(self, token: str) -> Row | None:
        rows = await self._read(
            "SELECT id, name FROM bots WHERE token_hash = %s", (hash_token(token),)
        )
        return rows[0] if rows else None

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
            " WHERE b.removed_at IS NULL AND a.removed_at IS NULL",
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
