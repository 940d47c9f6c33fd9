"""What a seat (or a spectator) sees of a Movie Fight match: plain frozen values.

Cards appear as their printed numbers; their contents are public game data
(`games.movie_fight.cards.CARDS`). Only the order of the draw deck and of the automa's
unplayed cards is hidden.
"""

from __future__ import annotations

from dataclasses import dataclass

REFRESH = "refresh"
PLAY = "play"
DOWNGRADE = "downgrade"
UPGRADE = "upgrade"
OVER = "over"


@dataclass(frozen=True)
class Floor:
    """One floor: viewers and screens in the order they were slid in (oldest first)."""

    audience: tuple[int, ...] = ()
    screens: tuple[int, ...] = ()


@dataclass(frozen=True)
class Cinema:
    """A player's cinema: ``floors[0]`` is the 1st floor, ``floors[1]`` the 2nd."""

    tile: int
    floors: tuple[Floor, ...] = (Floor(), Floor())
    upgraded: tuple[int, ...] = ()
    """Upgraded cards, in increasing number."""

    def cards(self) -> tuple[int, ...]:
        return tuple(c for floor in self.floors for c in (*floor.audience, *floor.screens))

    def audience(self) -> tuple[int, ...]:
        return tuple(c for floor in self.floors for c in floor.audience)

    def screens(self) -> tuple[int, ...]:
        return tuple(c for floor in self.floors for c in floor.screens)


@dataclass(frozen=True)
class Automa:
    """The solo opponent: its level, its cards (no floors), and its flipped automa cards."""

    level: int
    audience: tuple[int, ...]
    screens: tuple[int, ...]
    flipped: tuple[str, ...]
    """Automa cards turned over in the current half of the game, oldest first."""
    unflipped: int
    """Automa cards still to turn over in this half (the set-aside card not counted)."""


@dataclass(frozen=True)
class Pending:
    """The screen effect being resolved: whose card, which card, who may still use it."""

    owner: int
    card: int
    seats: tuple[int, ...]
    downgraded: int | None
    by_automa: bool


@dataclass(frozen=True)
class MovieFightObservation:
    """A seat's whole knowledge; ``seat`` is None for a spectator.

    ``scores`` and ``tickets`` are what each cinema would score and sells if the game ended
    now (wild symbols assigned at their best); in solo ``automa_score`` is the automa's.
    """

    seat: int | None
    players: int
    side: str
    round: int
    rounds: int
    phase: str
    turn: int | None
    active: int
    offer: tuple[int, ...]
    deck: int
    cinemas: tuple[Cinema, ...]
    tickets: tuple[int, ...]
    scores: tuple[int, ...]
    refreshed: bool
    pending: Pending | None
    automa: Automa | None
    automa_score: int | None
