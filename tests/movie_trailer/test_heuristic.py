"""The heuristic seat deduces as a Spectator and beats random seats."""

from __future__ import annotations

from games.movie_trailer import MovieTrailer, MovieTrailerState
from games.movie_trailer.catalog import catalog
from games.movie_trailer.heuristic import HeuristicBot, placements, weights
from games.movie_trailer.moves import ChooseFilm, Guess, PickSlot
from games.play import play_match
from games.rng import Rng, derive_seed

GAME = MovieTrailer()


def test_the_spectator_keeps_only_films_that_fit_every_tile() -> None:
    state = GAME.new(3, "deduce", {"speed": True})
    assert isinstance(state, MovieTrailerState)
    state.apply(state.director, ChooseFilm("jaws-1975"))
    bot = HeuristicBot(Rng(derive_seed("bot")))
    data = catalog()
    for _ in range(3):
        picker = state.to_move()[0]
        move = bot.choose(state.observe(picker), state.legal_moves(picker))
        assert isinstance(move, PickSlot)
        state.apply(picker, move)
        if state.phase == "tile":
            state.apply(state.director, state.legal_moves(state.director)[0])
            seat = state.to_move()[0]
            view = state.observe(seat)
            belief = weights(data, placements(view), set())
            assert data.film("jaws-1975").index in belief
            assert set(belief) == set(state.candidates())
            guess = bot.choose(view, state.legal_moves(seat))
            for s in state.to_move():
                state.apply(s, guess if s == seat else state.legal_moves(s)[0])
            if state.turn:
                assert isinstance(guess, Guess) and guess.film == "jaws-1975"
                return
    assert len(state.candidates()) < len(data.films) / 20


def test_heuristic_seat_beats_random_seats_on_mean_rank() -> None:
    ranks = [
        play_match(GAME, 4, f"duel/{i}", ["heuristic", "random", "random", "random"], {}).outcome
        for i in range(4)
    ]
    assert sum(o.ranks[0] for o in ranks) / len(ranks) < 1.5
