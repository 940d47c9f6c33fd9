"""Movie Trailer moves in words. The Director's film stays secret until its turn ends; in the
speed game the Spectators' answers stay secret until every one of them has answered. Points
are told in the unit of the scores, half Movie Points."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.interface import EVERYONE, Labels, Viewer, knows
from games.movie_trailer.catalog import FACE_DOWN, Film, catalog
from games.movie_trailer.moves import ChooseFilm, Guess, PassGuess, PickSlot, PlaceTile
from games.movie_trailer.views import MovieTrailerObservation

if TYPE_CHECKING:
    from games.movie_trailer.state import MovieTrailerState


def film_name(film: Film) -> str:
    return f"{film.title} ({film.year})"


def _film(film_id: str) -> str:
    return f"*{film_name(catalog().film(film_id))}*"


def describe(before: MovieTrailerState, seat: int, move: Any, viewer: Viewer) -> str:
    data = catalog()
    if isinstance(move, ChooseFilm):
        return f"chooses {_film(move.film)}" if knows(viewer, seat) else "chooses a film in secret"
    if isinstance(move, PickSlot):
        category = data.category_of(move.slot)
        text = f"asks for a clue: {category.label}"
        if before.film is not None:
            fits = data.films[before.film].fits[data.slot_category[move.slot]]
            if not fits - {tile for tile in before.board if tile}:
                text += "; none fits, so the tile goes face down"
        return text
    if isinstance(move, PlaceTile):
        return f"lays *{data.tile_by_number[move.tile].label}*"
    if isinstance(move, Guess | PassGuess):
        if before.speed and viewer != EVERYONE:
            if viewer != seat:
                return "answers in secret"
            return (
                "passes, in secret"
                if isinstance(move, PassGuess)
                else (f"guesses {_film(move.film)}, in secret")
            )
        if isinstance(move, PassGuess):
            return "passes"
        text = f"guesses {_film(move.film)}"
        if before.film is None or data.films[before.film].id != move.film:
            return f"{text} — wrong"
        if before.speed:
            return f"{text} — right"
        tile = data.scoring[before.shown]
        face_down = sum(1 for tile_laid in before.board if tile_laid == FACE_DOWN)
        director = 2 * max(0, tile.director - face_down)
        return f"{text} — right: {2 * tile.spectator} points, {director} to the Director"
    raise TypeError(f"not a Movie Trailer move: {move!r}")


def group(before: MovieTrailerState) -> str:
    return f"turn {min(before.turn, before.turns - 1) + 1} of {before.turns}"


def labels() -> Labels:
    data = catalog()
    return {
        "film": {film.id: film_name(film) for film in data.films},
        "tile": {str(tile.number): tile.label for tile in data.tiles},
        "category": {c.name: c.label for c in data.categories},
        "scoring": {str(i): s.numeral for i, s in enumerate(data.scoring)},
    }


def names_in(view: MovieTrailerObservation) -> frozenset[str]:
    data = catalog()
    films = [view.film] if view.film is not None else []
    films.extend(turn.film for turn in view.past_turns)
    films.extend(guess.film for guess in view.guesses if guess.film is not None)
    return frozenset(film_name(data.film(f)) for f in films)
