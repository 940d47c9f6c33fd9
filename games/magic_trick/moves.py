"""The decisions of Magic Trick, one small step each.

A player never knows the ranks in their own hand, so plays and sleeve choices name a slot:
the card's position in the fan, 0 being the high side.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from games.magic_trick.cards import HAND_SIZE, RANKS, SUITS
from games.values import Among

_SLOT = Among(tuple(range(max(HAND_SIZE.values()))))


@dataclass(frozen=True, order=True)
class SortCard:
    """While sorting the hand for the left neighbour: put this card next (equal ranks only)."""

    kind: ClassVar[str] = "sort"
    suit: Annotated[str, Among(SUITS)]
    rank: Annotated[int, Among(RANKS)]


@dataclass(frozen=True, order=True)
class PlayCard:
    """Play the card in this slot of your fan into the trick."""

    kind: ClassVar[str] = "play"
    slot: Annotated[int, _SLOT]


@dataclass(frozen=True, order=True)
class SleeveCard:
    """Right after playing: put the card in this slot up your sleeve (your bid)."""

    kind: ClassVar[str] = "sleeve"
    slot: Annotated[int, _SLOT]


@dataclass(frozen=True, order=True)
class KeepSleeveEmpty:
    """Right after playing: do not choose a sleeve card yet."""

    kind: ClassVar[str] = "keep"


Move = SortCard | PlayCard | SleeveCard | KeepSleeveEmpty
MOVE_TYPES: tuple[type[Move], ...] = (SortCard, PlayCard, SleeveCard, KeepSleeveEmpty)
