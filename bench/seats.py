"""Each game's seat advantage by self-play: the game's heuristic built-in in every seat, at its
smallest table of two or more, estimated as the ladder does (``ladder.seats``).

    .venv/bin/python -m bench.seats [MATCHES]      # 800 by default; docs/ratings.md quotes it
"""

from __future__ import annotations

import sys
import time

import games
from games.play import play_match
from ladder.seats import seat_advantage


def main(matches: int = 800) -> None:
    for game in games.all_games():
        players = min(p for p in game.player_counts if p >= 2)
        started = time.perf_counter()
        ranks = [
            play_match(game, players, f"seat-advantage/{i}", ["heuristic"] * players).outcome.ranks
            for i in range(matches)
        ]
        (table,) = seat_advantage(ranks)
        cells = "; ".join(
            f"seat {s.seat + 1}: {s.score:.3f} ({s.low:.3f}-{s.high:.3f}, {s.elo:+.0f} Elo)"
            for s in table.seats
        )
        took = time.perf_counter() - started
        print(f"{game.id} {players}p, {matches} matches ({took:.0f} s): {cells}", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 800)
