"""What a seat (or a spectator) sees of a Movie Trailer match: plain frozen values.

Scores are in half Movie Points everywhere (the speed game splits a Spectator's points in
halves), so they stay integers.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SlotView:
    """One board slot. ``order`` is when it was filled this turn (0 first), None while free."""

    category: str
    tile: int | None
    face_down: bool
    order: int | None


@dataclass(frozen=True)
class GuessView:
    """A guess made this turn, once public; ``film`` is None for a pass."""

    scoring_tile: int
    seat: int
    film: str | None


@dataclass(frozen=True)
class TurnResult:
    """A finished turn: the film revealed, who named it, on which scoring tile, points won."""

    director: int
    film: str
    guessed_by: tuple[int, ...]
    scoring_tile: int | None
    face_down: int
    director_half_points: int
    spectator_half_points: int


@dataclass(frozen=True)
class MovieTrailerObservation:
    """A seat's whole knowledge; ``seat`` is None for a spectator at the table.

    ``film`` is this turn's film, shown to the Director only. ``scoring_tile`` is the index
    (0 = I .. 5 = VI) of the visible scoring tile. ``half_points`` are the scores in half Movie
    Points.
    """

    seat: int | None
    players: int
    speed: bool
    turn: int
    turns: int
    director: int
    phase: str
    film: str | None
    picker: int | None
    pending_slot: int | None
    scoring_tile: int
    board: tuple[SlotView, ...]
    guesses: tuple[GuessView, ...]
    past_turns: tuple[TurnResult, ...]
    half_points: tuple[int, ...]
