"""The Magic Trick heuristic: sound inferences, and clearly better than random play."""

from __future__ import annotations

import pytest

from games.magic_trick import MagicTrick, MagicTrickState
from games.magic_trick.heuristic import guess_own_ranks
from games.play import play_match
from games.rng import Rng, derive_seed

GAME = MagicTrick()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_rank_bounds_always_contain_the_truth(players: int) -> None:
    for seed in range(8):
        state = GAME.new(players, seed)
        assert isinstance(state, MagicTrickState)
        rng = Rng(derive_seed("bounds", seed))
        while not state.is_over():
            seat = state.to_move()[0]
            if state.phase == "play":
                for slot, guess in guess_own_ranks(state.observe(seat)).items():
                    truth = state.fans[seat][slot].rank
                    assert guess.low <= truth <= guess.high
                    assert guess.low <= guess.estimate <= guess.high
            state.apply(seat, rng.choice(state.legal_moves(seat)))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_heuristic_beats_every_random_seat(players: int) -> None:
    matches = 60
    bots = ["heuristic"] + ["random"] * (players - 1)
    rank_sum = [0] * players
    for index in range(matches):
        outcome = play_match(GAME, players, f"heuristic-test/{index}", bots).outcome
        rank_sum = [a + b for a, b in zip(rank_sum, outcome.ranks, strict=True)]
    mean = [total / matches for total in rank_sum]
    assert all(mean[0] + 0.5 < other for other in mean[1:]), mean
