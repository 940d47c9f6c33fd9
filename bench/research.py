"""The research adapters' cost and use: random playouts through OpenSpiel's API next to the
engine's own, and ISMCTS (OpenSpiel's) against random seats.

The OpenSpiel playout asks the state for its legal action ids and applies one per decision
(`research.openspiel`; what each seat was told, for the information states, is worked out only
when asked, which a playout never does); the engine's playout is `bench.playouts`' loop. Both
in decisions per CPU second of this process (the machine may be shared). The goal is the
adapter within twice the engine's time. The ISMCTS rows count matches the searching seat won
outright (rotating seats) against random seats: `run_search`, the `bench.ismcts` module
(`make bench-search`, with the other searched matches).
"""

from __future__ import annotations

import random
import time
from typing import Any

from bench.rows import Row, print_rows, quick, row
from games import all_games
from games.rng import Rng, derive_seed

SECONDS = 0.1 if quick() else 2.0
MATCHES = 8
SIMULATIONS = 50


def _engine(game_id: str, players: int) -> float:
    from games import get

    game = get(game_id)
    moves = 0
    started = time.process_time()
    index = 0
    while time.process_time() - started < SECONDS:
        state = game.new(players, f"bench-research/{index}")
        rng = Rng(derive_seed("bench-research", index))
        while not state.is_over():
            answers = [(seat, rng.choice(state.legal_moves(seat))) for seat in state.to_move()]
            for seat, move in answers:
                state.apply(seat, move)
            moves += len(answers)
        index += 1
    return moves / (time.process_time() - started)


def _openspiel(game_id: str, players: int) -> float:
    import pyspiel

    from games import get
    from research.openspiel import short_name

    game = pyspiel.load_game(f"{short_name(get(game_id))}(players={players})")
    rng = random.Random(0)
    moves = 0
    started = time.process_time()
    while time.process_time() - started < SECONDS:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return moves / (time.process_time() - started)


def _seat_scores(game_id: str, players: int, matches: int, search: bool) -> float:
    """The mean score (0 to 1: the seat's utility, -1 to +1, halved and shifted) of the seat
    that searches with ISMCTS (``search``) or draws uniformly at random in its place, over
    the same deals and seats: the game is loaded afresh with the same seed, so its n-th state
    deals as the other run's n-th did."""
    import numpy as np
    import pyspiel

    from games import get
    from research.examples.ismcts import play, searcher
    from research.openspiel import short_name

    game = pyspiel.load_game(f"{short_name(get(game_id))}(players={players},seed=0,tensor_size=16)")
    bot = searcher(game, SIMULATIONS, 0)
    total = 0.0
    for match in range(matches):
        seat = match % players
        if search:
            returns = play(game, bot, seat, match)
        else:
            returns = play(game, _Uniform(np.random.RandomState(10_000 + match)), seat, match)
        total += (returns[seat] + 1) / 2
    return total / matches


class _Uniform:
    """A seat drawing uniformly from its legal actions, with OpenSpiel's bot interface."""

    def __init__(self, rng: Any) -> None:
        self.rng = rng

    def step(self, state: Any) -> int:
        return int(self.rng.choice(state.legal_actions()))


def run() -> list[Row]:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return [row("research adapters", 0, "-", "premiere[research] is not installed", 0)]
    rows: list[Row] = []
    for game in all_games():
        players = min(game.player_counts)
        engine = _engine(game.id, players)
        adapter = _openspiel(game.id, players)
        rows.append(
            row(
                f"{game.id} random playout through OpenSpiel, {players} players"
                " (goal: at least half the engine's)",
                round(adapter),
                "decisions/CPU-s",
                "the engine's own random playout",
                round(engine),
                goal="research-adapter",
            )
        )
    return rows


def run_search() -> list[Row]:
    """ISMCTS against random seats, every game at its smallest table, beside a random seat
    in its place over the same deals and seats."""
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return [row("ISMCTS", 0, "-", "premiere[research] is not installed", 0)]
    rows: list[Row] = []
    for game in all_games():
        players = min(game.player_counts)
        matches = 1 if quick() else MATCHES
        rows.append(
            row(
                f"{game.id} ISMCTS ({SIMULATIONS} simulations) against random seats, {players}"
                f" player(s), mean score of its seat (0 to 1), {matches} matches"
                " (goal: above random's)",
                _seat_scores(game.id, players, matches, search=True),
                "score",
                "a random seat in its place, same deals and seats",
                _seat_scores(game.id, players, matches, search=False),
                goal="research-ismcts",
            )
        )
    return rows


if __name__ == "__main__":
    print_rows(run())
