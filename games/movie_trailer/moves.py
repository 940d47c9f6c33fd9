"""The decisions of Movie Trailer. Films are named by catalog id, tiles by number."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from games.movie_trailer.catalog import catalog
from games.values import Among

_FILM = Among(label="film")


@dataclass(frozen=True, order=True)
class ChooseFilm:
    """The Director's secret choice of this turn's film."""

    kind: ClassVar[str] = "film"
    film: Annotated[str, _FILM]


@dataclass(frozen=True, order=True)
class PickSlot:
    """The Spectator whose turn it is asks for a clue in this free board slot."""

    kind: ClassVar[str] = "slot"
    slot: Annotated[int, Among(tuple(range(len(catalog().slot_category))))]


@dataclass(frozen=True, order=True)
class PlaceTile:
    """The Director lays this clue tile (one that fits the film) in the requested slot."""

    kind: ClassVar[str] = "tile"
    tile: Annotated[int, Among(label="tile")]


@dataclass(frozen=True, order=True)
class Guess:
    """A Spectator names a catalog film."""

    kind: ClassVar[str] = "guess"
    film: Annotated[str, _FILM]


@dataclass(frozen=True, order=True)
class PassGuess:
    """A Spectator lets the chance to guess go by."""

    kind: ClassVar[str] = "pass-guess"


Move = ChooseFilm | PickSlot | PlaceTile | Guess | PassGuess
MOVE_TYPES: tuple[type[Move], ...] = (ChooseFilm, PickSlot, PlaceTile, Guess, PassGuess)
