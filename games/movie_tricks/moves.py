"""The decisions of Movie Tricks, one small step each. Cards are named by their integer id."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, order=True)
class PlayCard:
    """Play this card from your hand; ``boost`` adds one of your +3 cards to it."""

    kind: ClassVar[str] = "play"
    card: int
    boost: bool


@dataclass(frozen=True, order=True)
class DraftCard:
    """Take this market card into your tableau, under its category."""

    kind: ClassVar[str] = "draft"
    card: int


@dataclass(frozen=True, order=True)
class ClaimGoal:
    """Right after placing a Props card: claim the props goal needing this many symbols."""

    kind: ClassVar[str] = "claim"
    need: int


@dataclass(frozen=True, order=True)
class DeclineGoal:
    """Right after placing a Props card: claim nothing now."""

    kind: ClassVar[str] = "decline"


@dataclass(frozen=True, order=True)
class BonusToHand:
    """Bonus option a: take this bonus card into your hand."""

    kind: ClassVar[str] = "bonus-hand"
    card: int


@dataclass(frozen=True, order=True)
class BonusToTableau:
    """Bonus option b: place this bonus card in your tableau, under its category."""

    kind: ClassVar[str] = "bonus-tableau"
    card: int


@dataclass(frozen=True, order=True)
class DiscardBonus:
    """Bonus option c: discard this bonus card, then set the trump marker freely."""

    kind: ClassVar[str] = "bonus-discard"
    card: int


@dataclass(frozen=True, order=True)
class ChooseTrump:
    """Put the trump marker on this suit (after option c, or after taking a +3 card)."""

    kind: ClassVar[str] = "trump"
    suit: str


Move = (
    PlayCard
    | DraftCard
    | ClaimGoal
    | DeclineGoal
    | BonusToHand
    | BonusToTableau
    | DiscardBonus
    | ChooseTrump
)
MOVE_TYPES: tuple[type[Move], ...] = (
    PlayCard,
    DraftCard,
    ClaimGoal,
    DeclineGoal,
    BonusToHand,
    BonusToTableau,
    DiscardBonus,
    ChooseTrump,
)
