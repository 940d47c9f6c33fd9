"""Typed views of movie-trailer (proto/premiere/v1/movie_trailer.proto): its observation and
moves as frozen dataclasses. Generated from proto/premiere/v1 by `make proto`. Do not edit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypeAlias

from premiere_bot.entries import Entry, StrEntry

GAME = "movie-trailer"


@dataclass(frozen=True, slots=True)
class Slot:
    """One board slot of Movie Trailer as everyone sees it."""

    DATA_ENTRIES: ClassVar[dict[str, str]] = {"tile": "tiles"}
    """Fields naming entries of the game's data: field -> GameData table."""

    category: str
    """The slot's category: 'leading-role', 'genre', 'place', 'generic', 'ending', 'good' or
    'evil'.
    """

    tile: Entry | None
    """The clue tile's number (1 to 144) once one lies face up here; absent while free or
    face down.
    """

    face_down: bool
    """Whether a face-down tile covers the slot (the Director had no tile that fits)."""

    order: int | None
    """When the slot was filled this turn, 0 being the first; absent while free."""


@dataclass(frozen=True, slots=True)
class Guess:
    """A guess made this turn, public once every Spectator asked at that step has answered."""

    DATA_ENTRIES: ClassVar[dict[str, str]] = {"film": "films"}
    """Fields naming entries of the game's data: field -> GameData table."""

    scoring_tile: int
    """The scoring tile visible when it was made: 0 for I up to 5 for VI."""

    seat: int
    """The seat that guessed."""

    film: StrEntry | None
    """The catalog id of the film named; absent for a pass."""


@dataclass(frozen=True, slots=True)
class Turn:
    """A finished turn, public to all."""

    DATA_ENTRIES: ClassVar[dict[str, str]] = {"film": "films"}
    """Fields naming entries of the game's data: field -> GameData table."""

    director: int
    """The seat that directed the turn."""

    film: StrEntry
    """The film, revealed at the end of the turn (catalog id)."""

    guessed_by: tuple[int, ...]
    """The seats that named it (several only in the speed game); empty when nobody did."""

    scoring_tile: int | None
    """The scoring tile visible when it was named (0 for I); absent when nobody named it."""

    face_down: int
    """Face-down tiles on the board at the end of the turn."""

    director_half_points: int
    """Points the Director won, in half Movie Points."""

    spectator_half_points: int
    """Points each right guesser won, in half Movie Points (a shared guess halves them)."""


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything one seat may know of a Movie Trailer match. Films and tiles are those of
    the public catalog (MovieTrailerData of GameDataService.GetGameData).
    """

    DATA_ENTRIES: ClassVar[dict[str, str]] = {"film": "films"}
    """Fields naming entries of the game's data: field -> GameData table."""

    seat: int | None
    """The viewing seat; absent for a spectator."""

    players: int
    """Number of seats."""

    speed: bool
    """Whether this is the speed game (every Spectator guesses at once)."""

    turn: int
    """The current turn, counting from 0."""

    turns: int
    """Turns in the match."""

    director: int
    """The seat holding the statuette this turn."""

    phase: str
    """'film', 'slot', 'tile', 'guess' or 'over'."""

    film: StrEntry | None
    """This turn's film (catalog id), shown to the Director only."""

    picker: int | None
    """The Spectator who picks the next slot, while a slot is awaited."""

    pending_slot: int | None
    """The slot awaiting the Director's tile."""

    scoring_tile: int
    """The visible scoring tile: 0 for I up to 5 for VI."""

    board: tuple[Slot, ...]
    """Every board slot in board order."""

    guesses: tuple[Guess, ...]
    """Every guess and pass of this turn made public so far, in order."""

    past_turns: tuple[Turn, ...]
    """Every finished turn of the match."""

    half_points: tuple[int, ...]
    """Total score per seat in half Movie Points (the speed game can split points in halves)."""


@dataclass(frozen=True, slots=True)
class ChooseFilm:
    """The Director's secret choice of film for the turn."""

    kind: ClassVar[str] = "film"

    DATA_ENTRIES: ClassVar[dict[str, str]] = {"film": "films"}
    """Fields naming entries of the game's data: field -> GameData table."""

    film: StrEntry
    """A catalog film id not shown in an earlier turn."""


@dataclass(frozen=True, slots=True)
class PickSlot:
    """Ask for a clue in this free board slot."""

    kind: ClassVar[str] = "slot"

    slot: int
    """Slot index in board order."""


@dataclass(frozen=True, slots=True)
class PlaceTile:
    """The Director lays this clue tile, one that fits the film, in the requested slot."""

    kind: ClassVar[str] = "tile"

    DATA_ENTRIES: ClassVar[dict[str, str]] = {"tile": "tiles"}
    """Fields naming entries of the game's data: field -> GameData table."""

    tile: Entry
    """Tile number, 1 to 144."""


@dataclass(frozen=True, slots=True)
class GuessFilm:
    """Name a film."""

    kind: ClassVar[str] = "guess"

    DATA_ENTRIES: ClassVar[dict[str, str]] = {"film": "films"}
    """Fields naming entries of the game's data: field -> GameData table."""

    film: StrEntry
    """A catalog film id."""


@dataclass(frozen=True, slots=True)
class PassGuess:
    """Let this chance to guess go by."""

    kind: ClassVar[str] = "pass-guess"


Move: TypeAlias = ChooseFilm | PickSlot | PlaceTile | GuessFilm | PassGuess
"""Any move of this game."""

MOVES: dict[str, type[Move]] = {
    ChooseFilm.kind: ChooseFilm,
    PickSlot.kind: PickSlot,
    PlaceTile.kind: PlaceTile,
    GuessFilm.kind: GuessFilm,
    PassGuess.kind: PassGuess,
}
