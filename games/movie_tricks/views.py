"""What a seat (or a spectator) sees of a Movie Tricks match: plain frozen values."""

from __future__ import annotations

from dataclasses import dataclass

from games.movie_tricks.cards import Card, Goal

PLAY = "play"
DRAFT = "draft"
CLAIM = "claim"
BONUS = "bonus"
TRUMP = "trump"
OVER = "over"


@dataclass(frozen=True)
class Play:
    """A card played this round, in play order; ``boosted`` when a +3 card went with it."""

    seat: int
    card: Card
    boosted: bool


@dataclass(frozen=True)
class Tableau:
    """One player's columns (CGI, Props, Roles, Soundtrack), oldest card first."""

    columns: tuple[tuple[Card, ...], ...]
    goal: int | None
    """The ``need`` of the props goal this player claimed, if any."""


@dataclass(frozen=True)
class MovieTricksObservation:
    """A seat's whole knowledge; ``seat`` is None for a spectator.

    ``known_hands`` lists, per seat, the bonus cards it took into its hand from the face-up
    display and has not played yet: everybody saw them go there. ``display`` is the face-up
    bonus display; in the family variant it holds the card just drawn while its taker decides.
    ``pick_order`` is the seats still to choose from the market this round, in order, and
    ``bonus_order`` the seats still to take a bonus card.
    """

    seat: int | None
    players: int
    family: bool
    round: int
    rounds: int
    phase: str
    turn: int | None
    director: int
    trump: str | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    known_hands: tuple[tuple[Card, ...], ...]
    plays: tuple[Play, ...]
    pick_order: tuple[int, ...]
    bonus_order: tuple[int, ...]
    market: tuple[Card, ...]
    display: tuple[Card, ...]
    bonus_deck: int
    draw_deck: int
    discards: tuple[Card, ...]
    goals: tuple[Goal, ...]
    goals_discarded: tuple[int, ...]
    tableaus: tuple[Tableau, ...]
    props_die: int | None
    soundtrack_die: int | None

    @property
    def lead(self) -> str | None:
        return self.plays[0].card.suit if self.plays else None
