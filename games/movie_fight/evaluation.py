"""What a Movie Fight position is worth to each seat, for a search that stops its playouts
short (`Game.estimate`): the score if the match ended now plus the heuristic's hope for the
cards still to come."""

from __future__ import annotations

from games.movie_fight.cards import DATA
from games.movie_fight.heuristic import TICKET, value
from games.movie_fight.scoring import breakdown
from games.movie_fight.views import Cinema


def hope(cinema: Cinema, side: str) -> float:
    """The heuristic's worth of a cinema beyond its score now: part of the points of each
    viewer and tile condition not yet met, by how close the floor is, while the owner still
    has cards to place (0 once every card is in)."""
    remaining = DATA.rounds - len(cinema.cards())
    if remaining <= 0:
        return 0.0
    part = breakdown(cinema, side)
    return value(cinema, side, remaining) - (part.subtotal + TICKET * part.tickets)


def estimate(scores: tuple[int, ...], cinemas: list[Cinema], side: str) -> tuple[float, ...]:
    """Each seat's score now (``scores``, the ticket places included) plus its cinema's hope."""
    return tuple(score + hope(cinema, side) for score, cinema in zip(scores, cinemas, strict=True))
