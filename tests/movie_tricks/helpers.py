"""Build Movie Tricks states and drive them with plain, readable steps."""

from __future__ import annotations

from collections.abc import Callable

from games.movie_tricks import MovieTricks, MovieTricksState
from games.movie_tricks.cards import CARDS, Card
from games.rng import Rng, derive_seed

GAME = MovieTricks()

BY_CODE = {card.code: card for card in CARDS}


def card(code: str) -> Card:
    return BY_CODE[code]


def new_state(players: int, seed: int | str = 1, family: bool = False) -> MovieTricksState:
    state = GAME.new(players, seed, {"family": family})
    assert isinstance(state, MovieTricksState)
    return state


def play_randomly(
    state: MovieTricksState,
    seed: int | str = 0,
    before: Callable[[MovieTricksState], None] | None = None,
) -> None:
    """Finish the match with uniformly random legal moves, calling ``before`` ahead of each."""
    rng = Rng(derive_seed("movie-tricks-test", seed))
    while not state.is_over():
        if before is not None:
            before(state)
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))
