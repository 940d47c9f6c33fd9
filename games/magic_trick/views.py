"""What a seat (or a spectator) sees of a Magic Trick match: plain frozen values."""

from __future__ import annotations

from dataclasses import dataclass

from games.magic_trick.cards import Card

IN_HAND = "hand"
PLAYED = "played"
SLEEVED = "sleeve"


@dataclass(frozen=True)
class SlotView:
    """One card of a fan. ``rank`` is None when the viewer cannot know it."""

    suit: str
    rank: int | None
    place: str


@dataclass(frozen=True)
class PlayView:
    seat: int
    slot: int
    card: Card


@dataclass(frozen=True)
class TrickView:
    leader: int
    plays: tuple[PlayView, ...]
    winner: int | None


@dataclass(frozen=True)
class HandResult:
    """A finished hand, public to all: sleeve cards, tricks, distinct suits taken, points."""

    dealer: int
    sleeves: tuple[Card, ...]
    tricks: tuple[int, ...]
    suits: tuple[int, ...]
    points: tuple[int, ...]
    prestige: tuple[bool, ...]


@dataclass(frozen=True)
class MagicTrickObservation:
    """A seat's whole knowledge; ``seat`` is None for a spectator.

    ``sorting`` and ``sorted`` are the viewer's own sorting pile during the sort phase (the
    cards it will pass left, which it has seen). ``fans`` are every seat's hand in slot order
    from the high side, laid out once sorting is done.
    """

    seat: int | None
    players: int
    prestige_bonus: bool
    hand: int
    hands: int
    dealer: int
    phase: str
    turn: int | None
    removed_suits: tuple[str, ...]
    set_aside: Card | None
    sorting: tuple[Card, ...]
    sorted: tuple[Card, ...]
    fans: tuple[tuple[SlotView, ...], ...]
    tricks: tuple[TrickView, ...]
    current: TrickView | None
    tricks_taken: tuple[int, ...]
    scores: tuple[int, ...]
    prestige_count: tuple[int, ...]
    past_hands: tuple[HandResult, ...]
