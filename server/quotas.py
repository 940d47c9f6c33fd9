"""Per-bot and per-account caps that hold across every arbiter, counted in PostgreSQL.

Each cap is counted in a table every arbiter writes (``bot_streams``, ``challenges``) under a
transaction-scoped advisory lock on the owner, so two arbiters taking the last slot at once
take it once. An owner is an account, except in the operator's account, whose bots belong to
different people: there each bot family is its own owner (docs/security.md, "Authors").

A stream's row is inserted by ``open_stream`` before anything else of the stream happens and
deleted by ``close_stream`` once it has ended, and by nothing else of a live arbiter: renewal
(``renew``) only extends the rows of the streams the arbiter holds, so no renewal can free a
slot still in use, even of a stream still being set up. An arbiter that dies leaves rows that
expire after ``ttl_s`` and count for nothing after that.

Each row also remembers the token the stream was opened with, so ``retired`` finds every
stream whose token was rotated away, whose bot or version was removed or disabled, or whose
account was disabled: the gateway closes them.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.rows import dict_row

from server.config import ArbiterSettings
from server.limits import LimitExceeded

__all__ = ["BotOwner", "Quotas"]

_STREAMS, _CHALLENGES = 1, 2
"""Advisory-lock namespaces (the lock's first key)."""


@dataclass(frozen=True, slots=True)
class BotOwner:
    bot_id: int
    family_id: int
    account_id: int
    operator: bool
    """In the operator's account: the family is the owner."""

    @property
    def key(self) -> int:
        return -self.family_id if self.operator else self.account_id

    @classmethod
    def of(cls, bot: Mapping[str, Any]) -> BotOwner:
        """From ``Store.bot_by_token``'s row (its ``id`` may be swapped for another version's:
        every version has its family's owner)."""
        return cls(bot["id"], bot["family_id"], bot["account_id"], bot["operator"])


class Quotas:
    def __init__(self, database_url: str, arbiter: str, settings: ArbiterSettings) -> None:
        self.database_url = database_url
        self.arbiter = arbiter
        self.settings = settings
        self.ttl_s = max(3 * settings.lease_renew_s, settings.lease_s)
        self._kept_conn: psycopg.Connection[dict[str, Any]] | None = None
        self._kept_lock = threading.Lock()

    def _connect(self) -> psycopg.Connection[dict[str, Any]]:
        return psycopg.connect(self.database_url, row_factory=dict_row, autocommit=True)

    @contextlib.contextmanager
    def _kept(self) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        """A connection kept for the statements the gateway sends every `retire_check_s`
        (`renew`, `retired`): connecting anew each time cost the arbiter a connection's set-up
        (a socket, authentication, a backend started) twice a second. One caller at a time; a
        failed connection is dropped and the next call connects again."""
        with self._kept_lock:
            if self._kept_conn is None or self._kept_conn.closed:
                self._kept_conn = self._connect()
            try:
                yield self._kept_conn
            except psycopg.OperationalError:
                with contextlib.suppress(Exception):
                    self._kept_conn.close()
                self._kept_conn = None
                raise

    def close(self, wait_s: float = 1.0) -> None:
        """Close the kept connection (see `_kept`). A statement still in flight (a database
        that stopped answering) keeps it for at most ``wait_s``: the connection is then left
        to the process's end rather than holding up the arbiter's shutdown."""
        if not self._kept_lock.acquire(timeout=wait_s):
            return
        try:
            if self._kept_conn is not None:
                with contextlib.suppress(Exception):
                    self._kept_conn.close()
                self._kept_conn = None
        finally:
            self._kept_lock.release()

    def open_stream(self, stream: int, owner: BotOwner, token_hash: str = "") -> None:
        """Count a new stream of the bot; LimitExceeded when its bot (every version) or its
        account holds as many as it may on all arbiters together."""
        s = self.settings
        with self._connect() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (_STREAMS, owner.key))
            counts = conn.execute(
                "SELECT count(*) FILTER (WHERE family_id = %s) AS family,"
                " count(*) AS account FROM bot_streams"
                " WHERE expires_at > clock_timestamp() AND"
                " (family_id = %s OR (account_id = %s AND NOT %s))",
                (owner.family_id, owner.family_id, owner.account_id, owner.operator),
            ).fetchone()
            assert counts is not None
            if counts["family"] >= s.max_streams_per_bot:
                raise LimitExceeded(
                    f"at most {s.max_streams_per_bot} streams per bot, every version and arbiter"
                    " counted (PREMIERE_MAX_STREAMS_PER_BOT); close one first"
                )
            if not owner.operator and counts["account"] >= s.max_streams_per_account:
                raise LimitExceeded(
                    f"at most {s.max_streams_per_account} streams per account, every bot and"
                    " arbiter counted (PREMIERE_MAX_STREAMS_PER_ACCOUNT); close one first"
                )
            conn.execute(
                "INSERT INTO bot_streams (arbiter, stream, bot_id, family_id, account_id,"
                " token_bot_id, token_hash, expires_at) VALUES (%s, %s, %s, %s, %s, %s, %s,"
                " clock_timestamp() + %s * interval '1 s')"
                " ON CONFLICT (arbiter, stream) DO UPDATE SET expires_at = EXCLUDED.expires_at",
                (
                    self.arbiter,
                    stream,
                    owner.bot_id,
                    owner.family_id,
                    owner.account_id,
                    owner.bot_id,
                    token_hash or None,
                    self.ttl_s,
                ),
            )

    def retarget(self, stream: int, bot_id: int) -> None:
        """The stream serves this version of its bot (known once its Hello was announced)."""
        with self._connect() as conn:
            conn.execute(
                "UPDATE bot_streams SET bot_id = %s WHERE arbiter = %s AND stream = %s",
                (bot_id, self.arbiter, stream),
            )

    def close_stream(self, stream: int) -> None:
        with self._connect() as conn:
            conn.execute(
                "DELETE FROM bot_streams WHERE arbiter = %s AND stream = %s", (self.arbiter, stream)
            )

    def renew(self, streams: Sequence[int]) -> None:
        """Extend the rows of ``streams`` (every stream this arbiter holds, from its
        ``open_stream`` to its ``close_stream``), and forget rows that expired a minute ago
        (arbiters that died). A row of this arbiter is never deleted here: a stream not listed
        keeps its row until it expires, so a slot in use is never counted free."""
        with self._kept() as conn:
            conn.execute(
                "DELETE FROM bot_streams WHERE expires_at < clock_timestamp() - interval '1 minute'"
            )
            conn.execute(
                "UPDATE bot_streams SET expires_at = clock_timestamp() + %s * interval '1 s'"
                " WHERE arbiter = %s AND stream = ANY(%s)",
                (self.ttl_s, self.arbiter, list(streams)),
            )

    def retired(self, streams: Sequence[int]) -> dict[int, str]:
        """Of ``streams``, those that may play no more, each with why: its token was rotated
        away, its bot or version was removed or disabled, or its account was disabled."""
        if not streams:
            return {}
        with self._kept() as conn:
            rows = conn.execute(
                "SELECT s.stream, CASE WHEN t.id IS NULL AND s.token_hash IS NOT NULL"
                "   THEN 'its token was rotated or the bot removed'"
                "   WHEN a.removed THEN 'the bot was removed'"
                "   WHEN NOT a.account_active THEN 'its account was disabled'"
                "   WHEN a.disabled OR a.state = 'disabled' THEN 'the bot was disabled'"
                " END AS why"
                " FROM bot_streams s JOIN bots v ON v.id = s.bot_id"
                " JOIN seat_admission a ON a.bot = v.name"
                " LEFT JOIN bots t ON t.id = s.token_bot_id AND t.token_hash = s.token_hash"
                "   AND t.removed_at IS NULL"
                " WHERE s.arbiter = %s AND s.stream = ANY(%s)",
                (self.arbiter, list(streams)),
            ).fetchall()
        return {row["stream"]: row["why"] for row in rows if row["why"] is not None}

    def reserve_challenge(self, owner: BotOwner, rated: bool) -> int:
        """Count a challenge against its owner's caps (a minute's, the open ones, a day's rated
        ones); its id, to attach the match to once created (``attach_challenge``)."""
        s = self.settings
        with self._connect() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (_CHALLENGES, owner.key))
            counts = conn.execute(
                "SELECT count(*) FILTER (WHERE c.created_at > now() - interval '1 minute')"
                "   AS minute,"
                " count(*) FILTER (WHERE (c.match_id IS NULL"
                "   AND c.created_at > now() - interval '1 minute')"
                "   OR m.status NOT IN ('finished', 'void')) AS open,"
                " count(*) FILTER (WHERE c.rated AND c.created_at > now() - interval '1 day')"
                "   AS rated FROM challenges c"
                " JOIN bots b ON b.id = c.bot_id"
                " LEFT JOIN matches m ON m.id = c.match_id"
                " WHERE c.created_at > now() - interval '1 day' AND"
                " CASE WHEN %s THEN coalesce(b.family_id, b.id) = %s ELSE c.account_id = %s END",
                (owner.operator, owner.family_id, owner.account_id),
            ).fetchone()
            assert counts is not None
            if counts["minute"] >= s.max_challenges_per_minute:
                raise LimitExceeded(
                    f"at most {s.max_challenges_per_minute} challenges a minute per account"
                    " (PREMIERE_MAX_CHALLENGES_PER_MINUTE)"
                )
            if counts["open"] >= s.max_open_challenges:
                raise LimitExceeded(
                    f"at most {s.max_open_challenges} unfinished challenges at a time per account"
                    " (PREMIERE_MAX_OPEN_CHALLENGES)"
                )
            if rated and counts["rated"] >= s.max_rated_challenges_per_day:
                raise LimitExceeded(
                    f"at most {s.max_rated_challenges_per_day} rated challenges a day per account"
                    " (PREMIERE_MAX_RATED_CHALLENGES_PER_DAY)"
                )
            row = conn.execute(
                "INSERT INTO challenges (account_id, bot_id, rated) VALUES (%s, %s, %s)"
                " RETURNING id",
                (owner.account_id, owner.bot_id, rated),
            ).fetchone()
        assert row is not None
        return int(row["id"])

    def attach_challenge(self, challenge: int, match_id: str | None) -> None:
        """The challenge's match, once created; None (not created): it counts no more."""
        with self._connect() as conn:
            if match_id is None:
                conn.execute("DELETE FROM challenges WHERE id = %s", (challenge,))
            else:
                conn.execute(
                    "UPDATE challenges SET match_id = %s WHERE id = %s", (match_id, challenge)
                )
