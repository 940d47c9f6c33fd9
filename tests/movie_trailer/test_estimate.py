"""Movie Trailer's help for a search: an estimate between turns, and guesses weighed among
the films the board allows."""

from __future__ import annotations

from games.movie_trailer import MovieTrailer, MovieTrailerState
from games.movie_trailer.moves import Guess, PassGuess
from games.rng import Rng, derive_seed

GAME = MovieTrailer()


def test_estimate_between_turns_only_and_plausible_guesses_only() -> None:
    state = GAME.new(3, "estimate", {"rounds": 1})
    assert isinstance(state, MovieTrailerState)
    rng = Rng(derive_seed("estimate", 0))
    guesses_seen = 0
    while not state.is_over():
        if state.phase == "film":
            assert GAME.estimate(state) == tuple(float(s) for s in state.scores)
        else:
            assert GAME.estimate(state) is None
        seat = state.to_move()[0]
        legal = state.legal_moves(seat)
        plausible = state.plausible_moves(seat)
        assert plausible and all(move in legal for move in plausible)
        if state.phase == "guess":
            guesses_seen += 1
            assert isinstance(plausible[0], PassGuess) and len(plausible) < len(legal)
            assert state.film is not None
            assert Guess(state.data.films[state.film].id) in plausible
        else:
            assert plausible == legal
        state.apply(seat, rng.choice(legal))
    assert guesses_seen
