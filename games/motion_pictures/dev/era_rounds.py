"""How many rounds Motion Pictures eras last, for docs/rules/motion-pictures.md: the longest
era seen and how many eras reached the engine's round cap (`limits.era_rounds`).

python -m games.motion_pictures.dev.era_rounds GAMES BOT [FIRST]

BOT is `random` or `heuristic` (every seat); player counts 2, 3 and 4 take turns.
"""

from __future__ import annotations

import sys
import time
from collections import Counter

from games import get
from games.bots import make_bot
from games.motion_pictures.state import RULES, MotionPicturesState
from games.rng import Rng, derive_seed


def era_lengths(games: int, bot: str, first: int = 0) -> Counter[int]:
    """Eras by the last round they reached."""
    game = get("motion-pictures")
    lengths: Counter[int] = Counter()
    for index in range(first, first + games):
        players = 2 + index % 3
        state = game.new(players, f"era-rounds/{bot}/{index}")
        assert isinstance(state, MotionPicturesState)
        rng = Rng(derive_seed("era-rounds", bot, index))
        bots = [make_bot(game, bot, rng.fork(f"seat-{seat}")) for seat in range(players)]
        era, longest = state.era, state.round
        while not state.is_over():
            if state.era != era:
                lengths[longest] += 1
                era, longest = state.era, state.round
            longest = max(longest, state.round)
            (seat,) = state.to_move()
            legal = state.legal_moves(seat)
            if bot == "random":
                move = rng.choice(legal)
            else:
                move = bots[seat].choose(state.observe(seat), legal)
            state.apply(seat, move)
        lengths[longest] += 1
    return lengths


def main(games: int, bot: str, first: int) -> None:
    started = time.perf_counter()
    lengths = era_lengths(games, bot, first)
    eras = sum(lengths.values())
    print(f"{games} {bot} games from #{first}, {eras} eras, {time.perf_counter() - started:.0f} s")
    print(f"longest era: {max(lengths)} rounds; cap {RULES.era_rounds}")
    print(f"eras reaching the cap: {sum(n for r, n in lengths.items() if r >= RULES.era_rounds)}")
    print(f"eras longer than 20 rounds: {sum(n for r, n in lengths.items() if r > 20)}")
    print("rounds: eras", dict(sorted(lengths.items())))


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 0)
