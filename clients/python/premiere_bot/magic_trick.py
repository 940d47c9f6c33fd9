"""Typed views of magic-trick (proto/premiere/v1/magic_trick.proto): its observation and
moves as frozen dataclasses. Generated from proto/premiere/v1 by `make proto`. Do not edit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypeAlias

GAME = "magic-trick"


@dataclass(frozen=True, slots=True)
class Card:
    """A Magic Trick card: one of 7 suits and a rank from 0 to 7. Red is always trump."""

    suit: str
    """'red', 'orange', 'yellow', 'green', 'blue', 'purple' or 'black'."""

    rank: int
    """0 to 7."""


@dataclass(frozen=True, slots=True)
class Slot:
    """One card of a fan as the viewer sees it."""

    suit: str
    """The suit, visible to everyone from the card's coloured back."""

    rank: int | None
    """The rank, absent when the viewer cannot know it."""

    place: str
    """'hand', 'played' or 'sleeve'."""


@dataclass(frozen=True, slots=True)
class Fan:
    """A seat's hand laid out in rank order: slot 0 is the high side."""

    slots: tuple[Slot, ...]
    """Every card of the hand, in slot order; played and sleeved cards keep their slot."""


@dataclass(frozen=True, slots=True)
class Play:
    """One card played into a trick."""

    seat: int
    """The seat that played it."""

    slot: int
    """The slot of that seat's fan it came from."""

    card: Card | None
    """The card, face up."""


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick, complete or in progress."""

    leader: int
    """The seat that led."""

    plays: tuple[Play, ...]
    """The cards played so far, in order."""

    winner: int | None
    """The seat that took the trick; absent while it is in progress."""


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand, public to all."""

    dealer: int
    """The seat that dealt the hand."""

    sleeves: tuple[Card, ...]
    """Each seat's sleeve card (its bid), in seat order."""

    tricks: tuple[int, ...]
    """Tricks taken per seat."""

    suits: tuple[int, ...]
    """Distinct suits among the cards each seat took."""

    points: tuple[int, ...]
    """Points each seat scored in the hand."""

    prestige: tuple[bool, ...]
    """Whether each seat earned the prestige bonus."""


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything one seat may know of a Magic Trick match."""

    seat: int | None
    """The viewing seat; absent for a spectator."""

    players: int
    """Number of seats."""

    prestige_bonus: bool
    """Whether the prestige bonus is scored in this match."""

    hand: int
    """The current hand, counting from 0."""

    hands: int
    """Hands in the match (one per player)."""

    dealer: int
    """The dealer of the current hand; the seat to its left leads first."""

    phase: str
    """'sort', 'play' or 'over'. In the play phase the legal moves tell a play request (kind
    `play`) from the sleeve request that follows a seat's play (kinds `sleeve` and
    `keep`).
    """

    turn: int | None
    """The seat to play, during the play phase."""

    removed_suits: tuple[str, ...]
    """Suits taken out of the game at set-up (three players)."""

    set_aside: Card | None
    """The card removed face up before this deal (three and five players)."""

    sorting: tuple[Card, ...]
    """While sorting: the viewer's cards still to place, highest rank first."""

    sorted: tuple[Card, ...]
    """While sorting: the cards the viewer has already placed, in order."""

    fans: tuple[Fan, ...]
    """Every seat's fan in seat order, once sorting is done."""

    tricks: tuple[Trick, ...]
    """The tricks completed in this hand."""

    current: Trick | None
    """The trick in progress, if one has started."""

    tricks_taken: tuple[int, ...]
    """Tricks taken so far in this hand, per seat."""

    scores: tuple[int, ...]
    """Total score per seat."""

    prestige_count: tuple[int, ...]
    """Prestige bonuses earned per seat."""

    past_hands: tuple[HandResult, ...]
    """Every finished hand of the match."""


@dataclass(frozen=True, slots=True)
class SortCard:
    """While sorting for the left neighbour: place this card next (a choice among equal
    ranks).
    """

    kind: ClassVar[str] = "sort"

    suit: str
    """The card's suit."""

    rank: int
    """The card's rank."""


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play the card in this slot of your own fan."""

    kind: ClassVar[str] = "play"

    slot: int
    """Slot index in your fan, 0 being the high side."""


@dataclass(frozen=True, slots=True)
class SleeveCard:
    """Right after playing: put the card in this slot up your sleeve."""

    kind: ClassVar[str] = "sleeve"

    slot: int
    """Slot index in your fan."""


@dataclass(frozen=True, slots=True)
class KeepSleeveEmpty:
    """Right after playing: choose no sleeve card yet."""

    kind: ClassVar[str] = "keep"


Move: TypeAlias = SortCard | PlayCard | SleeveCard | KeepSleeveEmpty
"""Any move of this game."""

MOVES: dict[str, type[Move]] = {
    SortCard.kind: SortCard,
    PlayCard.kind: PlayCard,
    SleeveCard.kind: SleeveCard,
    KeepSleeveEmpty.kind: KeepSleeveEmpty,
}
