"""Movie Trailer rules, turn by turn, on chosen films."""

from __future__ import annotations

import pytest

from games.errors import IllegalMove
from games.movie_trailer import MovieTrailer, MovieTrailerState
from games.movie_trailer.catalog import catalog
from games.movie_trailer.moves import ChooseFilm, Guess, PassGuess, PickSlot, PlaceTile

GAME = MovieTrailer()
FILM = "king-kong-1933"
OTHER = "dracula-1931"


def slot_of(category: str, nth: int = 0) -> int:
    names = catalog().slot_names
    return [i for i, name in enumerate(names) if name == category][nth]


def new(players: int = 3, **options: object) -> MovieTrailerState:
    state = GAME.new(players, "rules", dict(options))  # type: ignore[arg-type]
    assert isinstance(state, MovieTrailerState)
    return state


def lay(state: MovieTrailerState, slot: int) -> int:
    """The picker asks for `slot`; the Director lays the first fitting tile."""
    state.apply(state.to_move()[0], PickSlot(slot))
    (director,) = state.to_move()
    assert director == state.director
    tile: PlaceTile = state.legal_moves(director)[0]  # type: ignore[assignment]
    state.apply(director, tile)
    return tile.tile


def all_pass(state: MovieTrailerState) -> None:
    while state.phase == "guess":
        for seat in state.to_move():
            state.apply(seat, PassGuess())


@pytest.mark.parametrize(
    ("players", "length", "rounds", "turns"),
    [
        (3, "standard", 0, 12),
        (3, "short", 0, 9),
        (8, "standard", 0, 16),
        (5, "short", 0, 5),
        (4, "standard", 3, 12),
        (7, "short", 2, 14),
    ],
)
def test_game_length(players: int, length: str, rounds: int, turns: int) -> None:
    assert new(players, length=length, rounds=rounds).turns == turns


def test_only_the_director_sees_the_film_and_the_left_spectator_picks_first() -> None:
    state = new(4)
    director = state.director
    assert state.to_move() == (director,)
    state.apply(director, ChooseFilm(FILM))
    assert state.observe(director).film == FILM
    others = [s for s in range(4) if s != director]
    assert all(state.observe(s).film is None for s in others)
    assert state.spectate().film is None
    assert state.to_move() == ((director + 1) % 4,)


def test_the_director_may_only_lay_tiles_that_fit() -> None:
    state = new()
    state.apply(state.director, ChooseFilm(FILM))
    state.apply(state.to_move()[0], PickSlot(slot_of("place")))
    film = catalog().film(FILM)
    place = [c.name for c in catalog().categories].index("place")
    legal = {m.tile for m in state.legal_moves(state.director)}  # type: ignore[attr-defined]
    assert legal == set(film.fits[place])
    outside = next(t for t in catalog().tile_by_number if t not in legal)
    with pytest.raises(IllegalMove):
        state.apply(state.director, PlaceTile(outside))


def test_right_guess_on_tile_one_scores_and_the_statuette_passes_left() -> None:
    state = new()
    director = state.director
    state.apply(director, ChooseFilm(FILM))
    picker = state.to_move()[0]
    lay(state, slot_of("place"))
    assert state.to_move() == (picker,)
    state.apply(picker, Guess(FILM))
    tile = catalog().scoring[0]
    assert state.scores[director] == 2 * tile.director
    assert state.scores[picker] == 2 * tile.spectator
    assert state.director == (director + 1) % 3
    assert state.past[-1].film == FILM and state.past[-1].guessed_by == (picker,)
    assert ChooseFilm(FILM) not in state.legal_moves(state.director)


def test_wrong_guesses_turn_the_scoring_tile_and_the_next_spectator_picks() -> None:
    state = new(4)
    director = state.director
    state.apply(director, ChooseFilm(FILM))
    first = state.to_move()[0]
    lay(state, slot_of("place"))
    order = []
    while state.phase == "guess":
        (seat,) = state.to_move()
        order.append(seat)
        state.apply(seat, Guess(OTHER))
    assert order == [first, (first + 1) % 4, (first + 2) % 4]
    assert state.shown == 1
    assert state.to_move() == ((first + 1) % 4,)
    assert [g.film for g in state.observe(director).guesses] == [OTHER] * 3


def test_face_down_tiles_cost_the_director_but_not_below_zero() -> None:
    state = new()
    director = state.director
    state.apply(director, ChooseFilm(FILM))
    picker = state.to_move()[0]
    state.apply(picker, PickSlot(slot_of("good")))
    assert state.phase == "slot" and state.to_move() == (picker,), "the same Spectator again"
    assert state.observe(picker).board[slot_of("good")].face_down
    lay(state, slot_of("place"))
    state.apply(picker, Guess(FILM))
    assert state.scores[director] == 2 * (catalog().scoring[0].director - 1)
    state = new()
    director = state.director
    state.apply(director, ChooseFilm("nomadland-2020"))  # only a place and genres fit it
    picker = state.to_move()[0]
    for category in ("good", "evil", "ending"):
        state.apply(picker, PickSlot(slot_of(category)))
    assert sum(tile == 0 for tile in state.board) == 3 and state.shown == 0
    lay(state, slot_of("place"))
    state.apply(picker, Guess("nomadland-2020"))
    assert catalog().scoring[0].director < 3
    assert state.scores[director] == 0
    assert state.past[-1].face_down == 3


def test_nobody_scores_after_the_sixth_tile() -> None:
    state = new(3, speed=True)
    director = state.director
    state.apply(director, ChooseFilm("toy-story-1995"))
    for category, nth in (("place", 0), ("genre", 0), ("genre", 1), ("leading-role", 0)):
        lay(state, slot_of(category, nth))
        all_pass(state)
    lay(state, slot_of("leading-role", 1))
    all_pass(state)
    assert state.phase == "slot" and state.shown == 5
    lay(state, slot_of("good"))
    all_pass(state)
    assert state.turn == 1 and state.scores == [0, 0, 0]
    assert state.past[-1].guessed_by == () and state.past[-1].scoring_tile is None


def test_speed_game_asks_everyone_and_splits_a_shared_right_guess() -> None:
    state = new(4, speed=True)
    director = state.director
    state.apply(director, ChooseFilm(FILM))
    lay(state, slot_of("place"))
    spectators = tuple(s for s in range(4) if s != director)
    assert state.to_move() == spectators
    before = {s: state.observe(s) for s in spectators}
    state.apply(spectators[0], Guess(FILM))
    assert state.to_move() == spectators[1:]
    assert all(state.observe(s) == before[s] for s in spectators[1:]), "answers stay hidden"
    state.apply(spectators[1], Guess(FILM))
    state.apply(spectators[2], PassGuess())
    tile = catalog().scoring[0]
    assert state.scores[spectators[0]] == state.scores[spectators[1]] == tile.spectator
    assert state.scores[spectators[2]] == 0
    assert state.scores[director] == 2 * tile.director
    assert state.past[-1].guessed_by == spectators[:2]


def test_outcome_ranks_half_points_and_shares_ties() -> None:
    state = new(3, rounds=1)
    while not state.is_over():
        director = state.director
        state.apply(director, ChooseFilm((FILM, OTHER, "toy-story-1995")[state.turn]))
        lay(state, slot_of("place"))
        all_pass(state)
        while state.director == director and not state.is_over():
            if state.phase == "slot":
                state.apply(state.to_move()[0], state.legal_moves(state.to_move()[0])[0])
            elif state.phase == "tile":
                state.apply(director, state.legal_moves(director)[0])
            else:
                all_pass(state)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.scores == (0, 0, 0) and outcome.ranks == (1, 1, 1)
    assert outcome.detail["unit"] == "half movie points"


def test_a_guess_is_only_made_once_a_tile_has_been_laid() -> None:
    """The rulebook opens the guessing after the Director has placed the requested tile, and
    only to the Spectators: a film named while a slot is being picked or a tile laid is no
    guess, in the standard game and the speed game alike."""
    for speed in (False, True):
        state = new(4, speed=speed)
        director = state.director
        assert not state.is_legal(director, Guess(OTHER))
        state.apply(director, ChooseFilm(FILM))
        picker = state.to_move()[0]
        before = state.clone()
        assert not state.is_legal(picker, Guess(OTHER))
        with pytest.raises(IllegalMove):
            state.apply(picker, Guess(OTHER))
        assert state == before
        state.apply(picker, PickSlot(slot_of("place")))
        before = state.clone()
        assert state.to_move() == (director,)
        assert not state.is_legal(director, Guess(FILM))
        with pytest.raises(IllegalMove):
            state.apply(director, Guess(FILM))
        assert state == before
        assert state.scores == [0] * 4
