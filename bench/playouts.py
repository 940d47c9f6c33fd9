"""Random-playout throughput of every engine, next to a bare Python loop on the same machine.

A simultaneous step is played as the arbiter plays it: every awaited seat chooses from the
same state, then the moves are applied in seat order.

The reference loop does the irreducible work of a playout (pick one of a list of moves, append
it) with no rules at all, so the ratio says how much the engine itself costs.
"""

from __future__ import annotations

import random
import time

from bench.rows import print_rows
from games import all_games
from games.rng import Rng, derive_seed

SECONDS = 2.0


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


def run() -> list[dict[str, object]]:
    reference = _reference_moves_per_second()
    rows: list[dict[str, object]] = []
    for game in all_games():
        for players in game.player_counts:
            rows.append(
                {
                    "name": f"{game.id} random playout, {players} players",
                    "value": round(_engine_moves_per_second(game.id, players)),
                    "unit": "moves/s",
                    "reference": "bare loop: random.choice + list.append",
                    "reference_value": round(reference),
                }
            )
    return rows


if __name__ == "__main__":
    print_rows(run())
