"""The Magic Trick deck: 7 suits with coloured backs, ranks 0 to 7 in each; red is trump."""

from __future__ import annotations

from typing import NamedTuple

RED = "red"
SUITS: tuple[str, ...] = (RED, "orange", "yellow", "green", "blue", "purple", "black")
RANKS: tuple[int, ...] = tuple(range(8))
HIGHEST_RANK = RANKS[-1]

HAND_SIZE: dict[int, int] = {3: 13, 4: 14, 5: 11}
"""Cards dealt to each player, by player count (the rulebook's set-up)."""

SUITS_REMOVED: dict[int, int] = {3: 2, 4: 0, 5: 0}
"""Non-red suits taken out of the game at set-up."""

CARD_SET_ASIDE: dict[int, bool] = {3: True, 4: False, 5: True}
"""Whether one random card is removed face up before each deal."""


class Card(NamedTuple):
    suit: str
    rank: int

    def __str__(self) -> str:
        return f"{self.suit}-{self.rank}"


_CARDS = {(suit, rank): Card(suit, rank) for suit in SUITS for rank in RANKS}


def deck(suits: tuple[str, ...]) -> list[Card]:
    """Every card of the given suits, in a fixed canonical order. The cards are made once:
    every deal hands out the same objects (the wire encoder remembers their bytes)."""
    return [_CARDS[suit, rank] for suit in suits for rank in RANKS]


def suit_order(suit: str) -> int:
    return SUITS.index(suit)
