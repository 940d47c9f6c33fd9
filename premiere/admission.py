"""The one gate into a match: who may sit at a table, and whether the table is rated.

Every way into a match a bot can reach passes here: a league or matchmaking table (the workers'
``workers.dispatch``), a validation match, and a bot's own challenge (the arbiter's
``BotGateway.Challenge``). It is a pure function of what the database says of each seat (the
``seat_admission`` view); docs/ratings.md, "Validation and probation", and docs/security.md,
"Authors", say what it promises:

- a seat whose bot (any version of it) was removed, whose account is disabled, or that an
  operator disabled, is refused: the table is not played;
- no rated table seats two bots of one owner (every version of a bot is that bot; the bots of an
  author's account share the account); such a table is refused, or played unrated where a
  league allows it (``allow_same_owner``);
- a rated table is rated only if every registered seat is in rated play *and* its lineage was
  validated in this game; otherwise it is played unrated, and the reason is kept.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["SeatStanding", "Verdict", "judge", "reseat"]

UNRATED_REASONS = (
    "casual",
    "validation",
    "validating",
    "failed",
    "probation",
    "unvalidated",
    "same-owner",
)
"""Why a match was created unrated, most telling first (``matches.unrated_reason``)."""


@dataclass(frozen=True, slots=True)
class SeatStanding:
    """What the gate knows of one registered seat: the bots row it seats and its lineage."""

    bot: str
    owner: str
    """The key no rated table holds twice: the account, or the bot family for the operator's
    bots (each its own owner)."""
    state: str | None
    """The seated row's standing (``workers.standing.STATES``); None: not admitted yet."""
    validated: frozenset[str] = frozenset()
    """Games the bot's lineage passed validation in."""
    removed: bool = False
    account_active: bool = True
    disabled: bool = False
    """An operator disabled this version or its whole family."""
    lineage_probation: bool = False
    """A version of the lineage (this one or another, removed or not) is on probation: the
    lineage is, so a rollback or a removal does not end a probation."""

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> SeatStanding:
        """From a row of the ``seat_admission`` view."""
        return cls(
            row["bot"],
            row["owner"],
            row["state"],
            frozenset(row["validated"]),
            row["removed"],
            row["account_active"],
            row["disabled"],
            bool(row.get("lineage_probation", False)),
        )


@dataclass(frozen=True, slots=True)
class Verdict:
    refused: str | None
    """Why the table may not be played at all (None: it may)."""
    rated: bool
    unrated_reason: str | None
    """Why it is played unrated (None when rated or refused)."""

    @staticmethod
    def refuse(reason: str) -> Verdict:
        return Verdict(reason, False, None)


def _refusal(seat: SeatStanding) -> str | None:
    if seat.removed:
        return f"{seat.bot} was removed"
    if not seat.account_active:
        return f"{seat.bot}'s account is disabled"
    if seat.disabled or seat.state == "disabled":
        return f"{seat.bot} is disabled"
    return None


def _unrated(seat: SeatStanding, game: str) -> str | None:
    if seat.state in (None, "validating"):
        return "validating"
    if seat.state in ("failed", "probation"):
        return seat.state
    if seat.state != "rated":
        return "validating"
    if seat.lineage_probation:
        return "probation"
    if game not in seat.validated:
        return "unvalidated"
    return None


def judge(
    game: str,
    seats: Sequence[SeatStanding | None],
    *,
    rated: bool,
    validation: bool = False,
    allow_same_owner: bool = False,
) -> Verdict:
    """The verdict on a table of ``game`` whose seats are ``seats`` (None: a built-in bot),
    asked for rated play or not (a validation match is never rated)."""
    registered = [seat for seat in seats if seat is not None]
    for seat in registered:
        refusal = _refusal(seat)
        if refusal is not None:
            return Verdict.refuse(refusal)
    if validation:
        return Verdict(None, False, "validation")
    if not rated:
        return Verdict(None, False, "casual")
    owners = [seat.owner for seat in registered]
    if len(set(owners)) < len(owners):
        twice = sorted({owner for owner in owners if owners.count(owner) > 1})
        if not allow_same_owner:
            return Verdict.refuse(
                f"a rated table seats one owner once; {', '.join(twice)} holds more than one"
                " seat (every version of a bot, and every bot of an account, is one owner)"
            )
        return Verdict(None, False, "same-owner")
    reasons = [reason for seat in registered if (reason := _unrated(seat, game)) is not None]
    if reasons:
        return Verdict(None, False, min(reasons, key=UNRATED_REASONS.index))
    return Verdict(None, True, None)


def reseat(game: str, seats: Sequence[SeatStanding | None], *, rated: bool) -> Verdict:
    """The gate again at the moment a match is inserted, on standings read with the seated
    bots' family rows locked (``server.store.Store.create_match``): a seat refused now refuses
    the match; a match asked for rated stays rated only if every seat with a standing is in
    rated play, off probation in its lineage, and validated in ``game`` now. A seat with no
    standing at all (a bot the workers never admitted, as in an arena run without workers)
    keeps the caller's word; owners were checked by the caller and cannot change."""
    registered = [seat for seat in seats if seat is not None]
    for seat in registered:
        refusal = _refusal(seat)
        if refusal is not None:
            return Verdict.refuse(refusal)
    if not rated:
        return Verdict(None, False, None)
    reasons = [
        reason
        for seat in registered
        if seat.state is not None and (reason := _unrated(seat, game)) is not None
    ]
    if not reasons:
        return Verdict(None, True, None)
    return Verdict(None, False, min(reasons, key=UNRATED_REASONS.index))
