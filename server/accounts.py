"""Accounts (bot authors), invites, and the bots an account owns: the arbiter owns the tables.

An account token, like a bot token, is stored only as its hash. An author reaches only its
own account's bots: every lookup here is by (account, name), and a name that belongs to
another account reads exactly like one that does not exist, so an author learns nothing of
other accounts' bots through these calls. The per-account caps that are counted here (bots per
account, versions per bot a day) take the account's row lock, so two arbiters enforce them as
one.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

import psycopg
from psycopg.rows import dict_row

from server.store import hash_token, new_token

__all__ = [
    "OPERATOR",
    "Account",
    "AccountBot",
    "AccountError",
    "Exists",
    "Forbidden",
    "NotFound",
    "QuotaExceeded",
    "account_by_token",
    "bot_of",
    "create_account",
    "create_bot",
    "create_invite",
    "list_accounts",
    "owned_bots",
    "set_account_state",
]

OPERATOR = "operator"
"""The account of every bot an operator adds (`premiere bots add`)."""

Signup = Literal["open", "invite", "closed"]

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
NAME_RULE = "1-64 letters, digits, '.', '_' or '-', starting with a letter or digit"


RESERVED = (OPERATOR, "builtin")
"""Names no account or bot may take, nor anything that looks like one of them."""

_LOOKALIKE = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l", "5": "s", "3": "e"})


def folded(name: str) -> str:
    """The form two names that must not both exist share: Unicode compatibility forms folded
    (NFKC) and case ignored. The database keeps names unique in it too (``lower(normalize(name,
    NFKC))``, migration 0041)."""
    return unicodedata.normalize("NFKC", name).casefold()


def lookalike(name: str) -> str:
    """``folded`` with the characters that pass for others (0 for o, 1 and i for l, ...) and
    the separators . _ - left out: what a reader sees."""
    return "".join(c for c in folded(name).translate(_LOOKALIKE) if c not in "._-")


def reserved(name: str) -> str | None:
    """The reserved name ``name`` is or passes for, if any."""
    return next((r for r in RESERVED if lookalike(name) == lookalike(r)), None)


class AccountError(Exception):
    """A request that cannot be done as asked; the message is for the author."""


class NotFound(AccountError):
    pass


class Exists(AccountError):
    pass


class Forbidden(AccountError):
    """Not allowed here at all (sign-up closed, a missing or bad invite)."""


class QuotaExceeded(AccountError):
    """A per-account cap was reached; the message names the setting."""


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    state: str
    reason: str
    created_at: datetime
    bots: int = 0


@dataclass(frozen=True)
class AccountBot:
    name: str
    created_at: datetime
    games: tuple[str, ...] | None
    last_connected_at: datetime | None
    versions: int
    active: str
    state: str | None
    reason: str


def _connect(database_url: str) -> psycopg.Connection[dict[str, Any]]:
    return psycopg.connect(database_url, row_factory=dict_row)


def valid_name(name: str) -> bool:
    return NAME.fullmatch(name) is not None


def create_invite(database_url: str, uses: int = 1, expires: timedelta | None = None) -> str:
    """An invite code (printed once: only its hash is kept) that makes up to ``uses``
    accounts before ``expires`` from now (None: it does not expire)."""
    if uses < 1:
        raise AccountError("an invite is good for at least one account")
    code = "pmi_" + new_token().removeprefix("pmb_")
    with _connect(database_url) as conn:
        conn.execute(
            "INSERT INTO invites (code_hash, uses_left, expires_at) VALUES (%s, %s, now() + %s)",
            (hash_token(code), uses, expires),
        )
    return code


def create_account(database_url: str, name: str, signup: Signup, invite: str | None = None) -> str:
    """Make account ``name`` and return its token, once. ``signup`` is the operator's choice:
    open (anyone), invite (an unused, unexpired invite code) or closed (nobody)."""
    if signup == "closed":
        raise Forbidden("sign-up is closed on this arena; ask its operator for an account")
    if not valid_name(name):
        raise AccountError(f"an account name is {NAME_RULE}")
    if reserved(name) is not None:
        raise AccountError(f"{name!r} is, or looks like, the reserved name {reserved(name)!r}")
    token = new_token()
    with _connect(database_url) as conn, conn.transaction():
        invite_id = None
        if signup == "invite":
            if not invite:
                raise Forbidden("sign-up needs an invite code here (--invite CODE)")
            row = conn.execute(
                "UPDATE invites SET uses_left = uses_left - 1 WHERE code_hash = %s"
                " AND uses_left > 0 AND (expires_at IS NULL OR expires_at > now())"
                " RETURNING id",
                (hash_token(invite),),
            ).fetchone()
            if row is None:
                raise Forbidden("that invite code is unknown, used up or expired")
            invite_id = row["id"]
        created = conn.execute(
            "INSERT INTO accounts (name, token_hash, invite_id) VALUES (%s, %s, %s)"
            " ON CONFLICT DO NOTHING RETURNING id",
            (name, hash_token(token), invite_id),
        ).fetchone()
        if created is None:
            raise Exists(
                f"an account named {name!r} exists already (names are the same whatever their"
                " case); choose another name"
            )
    return token


def account_by_token(database_url: str, token: str) -> Account | None:
    """The active account the token logs in, or None (unknown token, or a disabled account)."""
    with _connect(database_url) as conn:
        row = conn.execute(
            "SELECT id, name, state, reason, created_at FROM accounts"
            " WHERE token_hash = %s AND state = 'active'",
            (hash_token(token),),
        ).fetchone()
    return Account(**row) if row else None


def list_accounts(database_url: str, name: str | None = None) -> list[Account]:
    """Every account (``name``: that one only), with how many bots it has."""
    with _connect(database_url) as conn:
        rows = conn.execute(
            "SELECT a.id, a.name, a.state, a.reason, a.created_at,"
            " (SELECT count(*) FROM bots b WHERE b.account_id = a.id AND b.family_id IS NULL"
            "  AND b.removed_at IS NULL) AS bots FROM accounts a"
            " WHERE %s::text IS NULL OR a.name = %s ORDER BY a.name",
            (name, name),
        ).fetchall()
    return [Account(**row) for row in rows]


def account_named(database_url: str, name: str) -> Account:
    found = list_accounts(database_url, name)
    if not found:
        raise NotFound(f"no account named {name!r} (`premiere accounts list` shows them)")
    return found[0]


def set_account_state(database_url: str, name: str, active: bool, reason: str = "") -> Account:
    """The operator's switch: a disabled account's bots are seated nowhere and connect no more
    (the arbiters close their open streams within PREMIERE_RETIRE_CHECK_S); its token stops
    working."""
    if name == OPERATOR:
        raise AccountError("the operator's account is not disabled: disable its bots instead")
    state = "active" if active else "disabled"
    with _connect(database_url) as conn:
        done = conn.execute(
            "UPDATE accounts SET state = %s, reason = %s WHERE name = %s",
            (
                state,
                reason or ("enabled by the operator" if active else "disabled by the operator"),
                name,
            ),
        )
        if done.rowcount != 1:
            raise NotFound(f"no account named {name!r} (`premiere accounts list` shows them)")
    return account_named(database_url, name)


def create_bot(database_url: str, account: Account, name: str, max_bots: int) -> str:
    """A new bot of ``account`` and its token, printed once. At most ``max_bots`` bots an
    account (removed ones do not count), counted under the account's row lock."""
    if not valid_name(name):
        raise AccountError(f"a bot name is {NAME_RULE} (no '@': NAME@VERSION names a version)")
    if reserved(name) is not None:
        raise AccountError(f"{name!r} is, or looks like, the reserved name {reserved(name)!r}")
    token = new_token()
    with _connect(database_url) as conn, conn.transaction():
        conn.execute("SELECT 1 FROM accounts WHERE id = %s FOR UPDATE", (account.id,))
        counted = conn.execute(
            "SELECT count(*) AS held FROM bots WHERE account_id = %s AND family_id IS NULL"
            " AND removed_at IS NULL",
            (account.id,),
        ).fetchone()
        if counted is not None and counted["held"] >= max_bots:
            raise QuotaExceeded(
                f"at most {max_bots} bots an account (PREMIERE_MAX_BOTS_PER_ACCOUNT); remove one"
                " first"
            )
        created = conn.execute(
            "INSERT INTO bots (name, token_hash, account_id) VALUES (%s, %s, %s)"
            " ON CONFLICT DO NOTHING RETURNING id",
            (name, hash_token(token), account.id),
        ).fetchone()
        if created is None:
            raise Exists(
                f"a bot named {name!r} exists already (names are the same whatever their"
                " case); choose another name"
            )
    return token


def bot_of(database_url: str, account: Account, name: str) -> str:
    """The root name of ``name`` (a bot, or NAME@VERSION) if it belongs to ``account`` and is
    not removed; otherwise NotFound, worded the same whoever owns it."""
    with _connect(database_url) as conn:
        row = conn.execute(
            "SELECT coalesce(f.name, b.name) AS root FROM bots b"
            " LEFT JOIN bots f ON f.id = b.family_id"
            " WHERE b.name = %s AND b.account_id = %s AND b.removed_at IS NULL",
            (name, account.id),
        ).fetchone()
    if row is None:
        raise NotFound(f"your account has no bot named {name[:70]!r}")
    return str(row["root"])


def owned_bots(database_url: str, account: Account) -> list[AccountBot]:
    """The account's bots (family roots), each with its version count, active version and the
    active version's standing."""
    with _connect(database_url) as conn:
        rows = conn.execute(
            "SELECT r.name, r.created_at, r.games, r.last_connected_at,"
            " (SELECT count(*) FROM bots v WHERE coalesce(v.family_id, v.id) = r.id) AS versions,"
            " a.name AS active, s.state, coalesce(s.reason, '') AS reason"
            " FROM bots r JOIN bots a ON a.id = coalesce(r.active_id, r.id)"
            " LEFT JOIN bot_standing_public s ON s.bot = a.name"
            " WHERE r.account_id = %s AND r.family_id IS NULL AND r.removed_at IS NULL"
            " ORDER BY r.name",
            (account.id,),
        ).fetchall()
    return [
        AccountBot(
            row["name"],
            row["created_at"],
            tuple(row["games"]) if row["games"] is not None else None,
            row["last_connected_at"],
            row["versions"],
            row["active"],
            row["state"],
            row["reason"],
        )
        for row in rows
    ]


def account_of_bot(database_url: str, bot_id: int) -> tuple[int, int]:
    """(account id, family root id) of a bots row."""
    with _connect(database_url) as conn:
        row = conn.execute(
            "SELECT account_id, coalesce(family_id, id) AS root FROM bots WHERE id = %s",
            (bot_id,),
        ).fetchone()
    if row is None:
        raise NotFound(f"no bot {bot_id}")
    return int(row["account_id"]), int(row["root"])
