"""A bot's standing on the ladder, as pure decisions: the validation gate and probation.

States (one per bots row, so per version):

- ``validating``: new, or enabled again. Plays ``matches`` unrated validation matches against
  the built-ins in each game it claims; every other match it plays is unrated.
- ``failed``: a validation match had a fault blamed on the bot. Unrated play only, until it
  comes back as a new version or an operator enables it (which validates it again).
- ``rated``: in rated play.
- ``probation``: more than ``threshold`` of its last ``window`` finished matches had a fault
  blamed on it. Unrated, and the ladder format seats it in every other batch only. Back to
  ``rated`` once its last ``recover`` matches since probation began were all clean.
- ``disabled``: by an operator; seated nowhere until enabled.

Every change is an event with a message for the bot's owner saying what happened and why.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "STATES",
    "Change",
    "Policy",
    "ValidationMatch",
    "inherited_change",
    "probation_change",
    "rated_states",
    "validation_change",
]

STATES = ("validating", "failed", "rated", "probation", "disabled")


@dataclass(frozen=True, slots=True)
class Policy:
    matches: int = 2
    """Validation matches per claimed game (0: no gate, a new bot is rated at once)."""
    window: int = 20
    """Finished matches the fault rate is taken over."""
    threshold: float = 0.25
    """Probation when more than this share of the window's matches had a fault."""
    recover: int = 10
    """Clean matches in a row (since probation began) that end it."""

    def __post_init__(self) -> None:
        if self.matches < 0 or self.window < 1 or self.recover < 1:
            raise ValueError("matches >= 0, window >= 1 and recover >= 1")
        if not 0.0 <= self.threshold < 1.0:
            raise ValueError("threshold is a share in [0, 1)")


@dataclass(frozen=True, slots=True)
class Change:
    state: str
    kind: str
    message: str


@dataclass(frozen=True, slots=True)
class ValidationMatch:
    game: str
    match_id: str
    status: str
    """'finished' or 'void' (anything else is still to be played)."""
    faults: Sequence[str] = ()
    """Kinds of the faults blamed on the bot in it (timeout, illegal, ...)."""


def rated_states() -> frozenset[str]:
    return frozenset({"rated"})


def _kinds(faults: Sequence[str]) -> str:
    counts = Counter(faults)
    return ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))


def validation_change(matches: Sequence[ValidationMatch], expected: int) -> Change | None:
    """The outcome of validation once all ``expected`` matches ended (None before): rated if
    every one finished with no fault blamed on the bot, failed otherwise, saying which."""
    ended = [m for m in matches if m.status in ("finished", "void")]
    faulty = [m for m in ended if m.faults]
    if faulty:
        where = "; ".join(f"{m.game} match {m.match_id}: {_kinds(m.faults)}" for m in faulty[:5])
        return Change(
            "failed",
            "validation-failed",
            f"validation failed: {where}. Rated play needs every validation match played"
            " without a fault: a fault costs its opponents a fair game. Your token shows each"
            " fault's detail (GetMatch on the match). Connect as a new version, or ask the"
            " operator to enable the bot, to validate again.",
        )
    void = [m for m in ended if m.status == "void"]
    if void:
        return Change(
            "failed",
            "validation-failed",
            f"validation failed: {len(void)} validation match(es) could not be played (void:"
            " was the bot connected?). Reconnect, and ask the operator to enable it again.",
        )
    if len(ended) < expected:
        return None
    games = sorted({m.game for m in matches})
    return Change(
        "rated",
        "validated",
        f"validation passed: {len(ended)} match(es) against the built-ins in"
        f" {', '.join(games)} without a fault; rated play from now on.",
    )


def probation_change(state: str, recent: Sequence[int], policy: Policy) -> Change | None:
    """From ``recent``, the faults blamed on the bot in each of its matches finished since its
    current state began, newest last (so a bot back from probation, or just validated, starts
    with a clean window)."""
    if state == "rated":
        window = list(recent[-policy.window :])
        if len(window) < policy.window:
            return None
        faulty = sum(1 for n in window if n)
        if faulty / len(window) > policy.threshold:
            return Change(
                "probation",
                "probation",
                f"on probation: {faulty} of the last {len(window)} matches had faults"
                f" (the limit is {policy.threshold:.0%}). Unrated and fewer games until"
                f" {policy.recover} matches in a row are clean.",
            )
        return None
    if state == "probation":
        tail = list(recent[-policy.recover :])
        if len(tail) == policy.recover and not any(tail):
            return Change(
                "rated",
                "probation-ended",
                f"probation ended: {policy.recover} clean matches in a row; rated again.",
            )
    return None


def inherited_change(
    predecessor: str | None, inherited: str | None, claimed: Sequence[str], policy: Policy
) -> Change:
    """The first standing of a bots row: a new version's follows its predecessor's (a version
    bump never ends a probation nor a disable, and keeps what its lineage validated, so it is
    rated at once in those games); a new bot, or a version after a failed or unfinished
    validation, validates (or is rated at once when there is no gate)."""
    after = f"new version after {predecessor}; " if predecessor else ""
    if inherited == "rated":
        return Change(
            "rated",
            "inherited",
            f"{after}rated like its predecessor in the games its lineage validated; a game it"
            " claims that its lineage has not played validates first.",
        )
    if inherited == "probation":
        return Change(
            "probation",
            "inherited",
            f"{after}on probation like its predecessor: unrated and fewer games until"
            f" {policy.recover} matches in a row are clean.",
        )
    if inherited == "disabled":
        return Change(
            "disabled", "inherited", f"{after}disabled like its predecessor, until enabled."
        )
    if policy.matches == 0:
        return Change("rated", "admitted", f"{after}admitted to rated play (no validation set).")
    return Change(
        "validating",
        "validating",
        f"{after}validating: {policy.matches} unrated match(es) against the built-ins in each"
        f" game it plays ({', '.join(claimed)}) before rated play; until then its matches are"
        " unrated.",
    )
