"""Build Movie Fight cinemas and states from card numbers, and drive states with plain steps."""

from __future__ import annotations

from collections.abc import Sequence

from games.movie_fight import MovieFight, MovieFightState
from games.movie_fight.views import Cinema, Floor
from games.rng import Rng, derive_seed

GAME = MovieFight()


def cinema(
    tile: int,
    first: tuple[Sequence[int], Sequence[int]],
    second: tuple[Sequence[int], Sequence[int]] = ((), ()),
    upgraded: Sequence[int] = (),
) -> Cinema:
    """A cinema from (audience, screens) of the 1st and of the 2nd floor."""
    return Cinema(
        tile=tile,
        floors=(Floor(tuple(first[0]), tuple(first[1])), Floor(tuple(second[0]), tuple(second[1]))),
        upgraded=tuple(sorted(upgraded)),
    )


def new_state(
    players: int, seed: int | str = 1, side: str = "A", level: int = 1
) -> MovieFightState:
    state = GAME.new(players, seed, {"side": side, "level": level})
    assert isinstance(state, MovieFightState)
    return state


def play_randomly(state: MovieFightState, seed: int | str = 0) -> None:
    rng = Rng(derive_seed("movie-fight-test", seed))
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))
