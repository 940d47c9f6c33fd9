"""Movie Trailer moves in words. The Director's film stays secret until its turn ends; in the
speed game the Spectators' answers stay secret until every one of them has answered. Points
are told in the unit of the scores, half Movie Points."""

from __future__ import annotations

from typing import Any

from games.interface import EVERYONE, Labels, ScoreBreakdown, ScorePart, Viewer, knows
from games.movie_trailer.catalog import FACE_DOWN, Film, catalog
from games.movie_trailer.moves import ChooseFilm, Guess, PassGuess, PickSlot, PlaceTile
from games.movie_trailer.state import MovieTrailerState
from games.movie_trailer.views import MovieTrailerObservation


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


def score_rules() -> str:
    return (
        "Each turn a right guess scores the Movie Points of the scoring tile shown then: a"
        " Spectator who names the film alone scores its Spectator points, Spectators who name"
        " it together half of them each; the Director scores its Director points less one per"
        " clue laid face down. Scores are kept in half Movie Points, so that a shared guess"
        " splits exactly: every score shown is twice the Movie Points."
    )


def _half(points: int) -> str:
    whole, half = divmod(points, 2)
    return f"{whole}\u00bd" if half and whole else "\u00bd" if half else str(whole)


def explain_score(final: MovieTrailerState) -> ScoreBreakdown:
    seats: list[list[ScorePart]] = [[] for _ in range(final.players)]
    for number, turn in enumerate(final.past, start=1):
        film = _film(turn.film)
        if not turn.guessed_by:
            seats[turn.director].append(
                ScorePart(0, f"turn {number}: directed {film}, which nobody named")
            )
            continue
        tile = catalog().scoring[turn.scoring_tile or 0].numeral
        down = f", {turn.face_down} clue{'s' if turn.face_down != 1 else ''} face down"
        seats[turn.director].append(
            ScorePart(
                turn.director_half_points,
                f"turn {number}: directed {film}, named on scoring tile"
                f" {tile}{down}: {_half(turn.director_half_points)} Movie Points",
            )
        )
        shared = " (shared)" if len(turn.guessed_by) > 1 else ""
        for seat in turn.guessed_by:
            seats[seat].append(
                ScorePart(
                    turn.spectator_half_points,
                    f"turn {number}: named {film}{shared}:"
                    f" {_half(turn.spectator_half_points)} Movie Points",
                )
            )
    for parts in seats:
        if not parts:
            parts.append(ScorePart(0, "named no film and directed none that was named"))
    return tuple(tuple(parts) for parts in seats)
