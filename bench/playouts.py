"""Random-playout throughput of every engine, next to a bare Python loop on the same machine.

A simultaneous step is played as the arbiter plays it: every awaited seat chooses from the
same state, then the moves are applied in seat order.

The reference loop does the irreducible work of a playout (pick one of a list of moves, append
it) with no rules at all, so the ratio says how much the engine itself costs.
"""

from __future__ import annotations

import random
import statistics
import time

from bench.rows import Row, print_rows, quick, row
from games import all_games
from games.rng import Rng, derive_seed

SECONDS = 0.1 if quick() else 2.0
GAMES = 3 if quick() else 100
"""Full games timed one by one for the median-game row."""


def _engine_moves_per_second(game_id: str, players: int) -> float:
    from games import get

    game = get(game_id)
    game.new(players, "bench/warm-up")  # loads the game's data files outside the timed loop
    moves = 0
    started = time.perf_counter()
    index = 0
    while time.perf_counter() - started < SECONDS:
        state = game.new(players, f"bench/{index}")
        rng = Rng(derive_seed("bench", index))
        while not state.is_over():
            answers = [(seat, rng.choice(state.legal_moves(seat))) for seat in state.to_move()]
            for seat, move in answers:
                state.apply(seat, move)
            moves += len(answers)
        index += 1
    return moves / (time.perf_counter() - started)


def _full_games(game_id: str, players: int) -> tuple[float, float]:
    """Median milliseconds of a whole random game over `GAMES` games, and the mean moves."""
    from games import get

    game = get(game_id)
    times: list[float] = []
    moves = 0
    for index in range(GAMES):
        started = time.perf_counter()
        state = game.new(players, f"bench-full/{index}")
        rng = Rng(derive_seed("bench-full", index))
        while not state.is_over():
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_moves(seat)))
            moves += 1
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000, moves / GAMES


def _reference_moves_per_second() -> float:
    chooser = random.Random(1)
    options = list(range(8))
    log: list[int] = []
    count = 0
    started = time.perf_counter()
    while time.perf_counter() - started < SECONDS:
        for _ in range(10_000):
            log.append(chooser.choice(options))
        count += 10_000
        log.clear()
    return count / (time.perf_counter() - started)


def run() -> list[Row]:
    reference = _reference_moves_per_second()
    rows: list[Row] = []
    for game in all_games():
        for players in game.player_counts:
            rows.append(
                row(
                    f"{game.id} random playout, {players} players",
                    round(_engine_moves_per_second(game.id, players)),
                    "moves/s",
                    "bare loop: random.choice + list.append",
                    round(reference),
                )
            )
        players = max(game.player_counts)
        median_ms, mean_moves = _full_games(game.id, players)
        rows.append(
            row(
                f"{game.id} random playout, whole {players}-player game, median of {GAMES}",
                round(median_ms, 2),
                "ms",
                f"bare loop for the same mean number of moves ({mean_moves:.0f})",
                round(mean_moves / reference * 1000, 3),
            )
        )
    return rows


if __name__ == "__main__":
    print_rows(run())
