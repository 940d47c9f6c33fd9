"""The rulebook's worked example, "A Game Turn", played move by move through legal moves.

Mark directs a three-player game and picks Avatar; Sarah (to his left) and Luke are the
Spectators. The book's tile numbers are used where it gives them (the galaxy 11, the computer
67, the spaceships 40); the jungle, which the book also numbers 11, is the catalog's tile 2
(docs/rules/movie-trailer.md says why).
"""

from __future__ import annotations

from games.movie_trailer import MovieTrailer, MovieTrailerState
from games.movie_trailer.catalog import catalog
from games.movie_trailer.moves import ChooseFilm, Guess, PassGuess, PickSlot, PlaceTile

AVATAR = "avatar-2009"
GALAXY, COMPUTER, SPACESHIPS, JUNGLE = 11, 67, 40, 2


def slots(category: str) -> list[int]:
    return [i for i, name in enumerate(catalog().slot_names) if name == category]


def test_a_game_turn() -> None:
    state = MovieTrailer().new(3, "a game turn", {"length": "short"})
    assert isinstance(state, MovieTrailerState)
    mark = state.director
    sarah, luke = (mark + 1) % 3, (mark + 2) % 3
    first_generic, last_generic = slots("generic")
    (place, _) = slots("place")

    state.apply(mark, ChooseFilm(AVATAR))
    assert state.to_move() == (sarah,)
    state.apply(sarah, PickSlot(first_generic))
    assert {PlaceTile(GALAXY), PlaceTile(COMPUTER)} <= set(state.legal_moves(mark))
    state.apply(mark, PlaceTile(GALAXY))
    assert state.to_move() == (sarah,)
    state.apply(sarah, Guess("invasion-of-the-body-snatchers-1956"))
    state.apply(luke, Guess("moon-2009"))

    assert catalog().scoring[state.shown].numeral == "II"
    assert state.to_move() == (luke,)
    assert PickSlot(first_generic) not in state.legal_moves(luke)
    state.apply(luke, PickSlot(last_generic))
    state.apply(mark, PlaceTile(COMPUTER))
    assert state.to_move() == (luke,)
    state.apply(luke, PassGuess())
    state.apply(sarah, Guess("the-matrix-1999"))

    assert catalog().scoring[state.shown].numeral == "III"
    assert state.to_move() == (sarah,), "left of Luke sits the Director: Sarah picks"
    state.apply(sarah, PickSlot(place))
    assert {PlaceTile(JUNGLE), PlaceTile(SPACESHIPS)} <= set(state.legal_moves(mark))
    state.apply(mark, PlaceTile(JUNGLE))
    state.apply(sarah, Guess("flash-gordon-1980"))
    assert state.to_move() == (luke,)
    state.apply(luke, Guess(AVATAR))

    (turn,) = state.past
    assert (turn.film, turn.guessed_by, turn.scoring_tile) == (AVATAR, (luke,), 2)
    assert catalog().scoring[2].numeral == "III"
    movie_points = [half // 2 for half in state.scores]
    assert movie_points[mark] == 7
    assert movie_points[luke] == 6
    assert movie_points[sarah] == 0
    # The example hands the statuette to Luke; its rule passes it to the Director's left,
    # Sarah. The engine follows the rule (docs/rules/movie-trailer.md).
    assert state.director == sarah
