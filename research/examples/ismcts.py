"""ISMCTS against random seats, in OpenSpiel: one seat searches, resampling what it cannot see
through the engine (`State.indistinguishable`), the others play uniformly at random.

    python -m research.examples.ismcts --game movie-tricks --players 3 --matches 10

prints each match's returns and, at the end, how many the searching seat won outright.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from games import registry
from research.openspiel import short_name


def searcher(game: pyspiel.Game, simulations: int, seed: int) -> ismcts.ISMCTSBot:
    rng = np.random.RandomState(seed)
    return ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        uct_c=2.0,
        max_simulations=simulations,
        max_world_samples=ismcts.UNLIMITED_NUM_WORLD_SAMPLES,
        random_state=rng,
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )


def play(game: pyspiel.Game, bot: ismcts.ISMCTSBot, seat: int, seed: int) -> list[float]:
    """One match: ``seat`` searches, the others draw uniformly from their legal actions."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == seat:
            action = bot.step(state)
        else:
            action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
    return [float(value) for value in state.returns()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="movie-tricks", choices=registry.ids())
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = pyspiel.load_game(
        f"{short_name(registry.get(args.game))}(players={args.players},seed={args.seed},"
        "tensor_size=16)"
    )
    bot = searcher(game, args.simulations, args.seed)
    wins = 0
    started = time.monotonic()
    for match in range(args.matches):
        seat = match % args.players
        returns = play(game, bot, seat, args.seed + match)
        won = returns[seat] == max(returns) and returns.count(max(returns)) == 1
        wins += won
        print(f"match {match}: ISMCTS in seat {seat}, returns {returns}, won: {won}")
    print(
        f"ISMCTS ({args.simulations} simulations) won {wins} of {args.matches} {args.game}"
        f" matches against {args.players - 1} random seats"
        f" in {time.monotonic() - started:.0f} s"
    )


if __name__ == "__main__":
    main()
