"""PettingZoo's and Gymnasium's own checks of every game's environments."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from games import registry
from research.gym import PremiereEnv
from research.pettingzoo import PremiereAEC
from tests.research.conftest import LARGEST, SMALLEST, tables


@tables(LARGEST)
def test_pettingzoo_api(table: tuple[str, int]) -> None:
    game_id, players = table
    api_test(PremiereAEC(game_id, players, tensor_size=64), num_cycles=40, verbose_progress=False)


@tables(SMALLEST)
def test_a_pettingzoo_match_to_the_end(table: tuple[str, int]) -> None:
    game_id, players = table
    env = PremiereAEC(game_id, players, tensor_size=64)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.sum() >= 1
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert env.table is not None and env.table.outcome() is not None
    if players > 1:
        assert sum(totals.values()) == pytest.approx(0.0)
    assert any(totals.values()) or len(set(env.table.outcome().ranks)) == 1


@pytest.mark.parametrize("game_id", registry.ids())
def test_gymnasium_check_env(game_id: str) -> None:
    game = registry.get(game_id)
    check_env(PremiereEnv(game_id, max(game.player_counts), seat=0, tensor_size=64))


@pytest.mark.parametrize(("opponents", "players"), [("random", 3), ("search:100", 2)])
def test_a_gymnasium_match_against_built_ins(opponents: str, players: int) -> None:
    env = PremiereEnv("movie-tricks", players, seat=1, opponents=opponents, tensor_size=64)
    observation, info = env.reset(seed=11)
    rng = np.random.default_rng(11)
    done = False
    reward = 0.0
    while not done:
        assert observation.shape == (64,)
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, done, truncated, info = env.step(action)
        assert not truncated
    assert reward in (-1.0, -0.5, 0.0, 0.5, 1.0)


def test_an_illegal_action_ends_the_episode() -> None:
    env = PremiereEnv("movie-tricks", 2, tensor_size=64)
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert (reward, done, info["illegal"]) == (-1.0, True, True)
