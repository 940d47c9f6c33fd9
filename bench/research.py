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

from bench.rows import Row, print_rows, quick, row
from games import all_games
from games.rng import Rng, derive_seed

SECONDS = 0.1 if quick() else 2.0
MATCHES = 4
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


def _ismcts_wins(game_id: str, players: int, matches: int) -> int:
    import pyspiel

    from games import get
    from research.examples.ismcts import play, searcher
    from research.openspiel import short_name

    game = pyspiel.load_game(f"{short_name(get(game_id))}(players={players},tensor_size=16)")
    bot = searcher(game, SIMULATIONS, 0)
    wins = 0
    for match in range(matches):
        seat = match % players
        returns = play(game, bot, seat, match)
        wins += returns[seat] == max(returns) and returns.count(max(returns)) == 1
    return wins


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
    """ISMCTS against random seats, every game at its smallest table of two or more."""
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return [row("ISMCTS", 0, "-", "premiere[research] is not installed", 0)]
    rows: list[Row] = []
    for game in all_games():
        players = max(2, min(game.player_counts))
        matches = 1 if quick() else MATCHES
        rows.append(
            row(
                f"{game.id} ISMCTS ({SIMULATIONS} simulations) vs random, {players} players",
                _ismcts_wins(game.id, players, matches),
                "matches won",
                "matches played",
                matches,
            )
        )
    return rows


if __name__ == "__main__":
    print_rows(run())
