"""The decisions of Movie Tricks, one small step each. Cards are named by their integer id."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from games.movie_tricks.cards import DATA, SUITS
from games.values import Among

_CARD = Among(label="card")


@dataclass(frozen=True, order=True)
class PlayCard:
    """Play this card from your hand; ``boost`` adds one of your +3 cards to it."""

    kind: ClassVar[str] = "play"
    card: Annotated[int, _CARD]
    boost: bool


@dataclass(frozen=True, order=True)
class DraftCard:
    """Take this market card into your tableau, under its category."""

    kind: ClassVar[str] = "draft"
    card: Annotated[int, _CARD]


@dataclass(frozen=True, order=True)
class ClaimGoal:
    """Right after placing a Props card: claim the props goal needing this many symbols."""

    kind: ClassVar[str] = "claim"
    need: Annotated[int, Among(tuple(sorted({goal.need for goal in DATA.goals})))]


@dataclass(frozen=True, order=True)
class DeclineGoal:
    """Right after placing a Props card: claim nothing now."""

    kind: ClassVar[str] = "decline"


@dataclass(frozen=True, order=True)
class BonusToHand:
    """Bonus option a: take this bonus card into your hand."""

    kind: ClassVar[str] = "bonus-hand"
    card: Annotated[int, _CARD]


@dataclass(frozen=True, order=True)
class BonusToTableau:
    """Bonus option b: place this bonus card in your tableau, under its category."""

    kind: ClassVar[str] = "bonus-tableau"
    card: Annotated[int, _CARD]


@dataclass(frozen=True, order=True)
class DiscardBonus:
    """Bonus option c: discard this bonus card, then set the trump marker freely."""

    kind: ClassVar[str] = "bonus-discard"
    card: Annotated[int, _CARD]


@dataclass(frozen=True, order=True)
class ChooseTrump:
    """Put the trump marker on this suit (after option c, or after taking a +3 card)."""

    kind: ClassVar[str] = "trump"
    suit: Annotated[str, Among(SUITS)]


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
