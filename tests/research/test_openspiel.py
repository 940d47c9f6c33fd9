"""Every game as an OpenSpiel game: OpenSpiel's own checks, and what ISMCTS relies on."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import generate_playthrough, ismcts, mcts

from games import registry
from research.actions import action_space
from research.openspiel import short_name

GAMES = registry.ids()


def load(game_id: str, players: int, **params: object) -> pyspiel.Game:
    text = ",".join(f"{k}={v}" for k, v in {"players": players, **params}.items())
    return pyspiel.load_game(f"{short_name(registry.get(game_id))}({text})")


@pytest.mark.parametrize("game_id", GAMES)
def test_random_simulation(game_id: str) -> None:
    game = registry.get(game_id)
    pyspiel.random_sim_test(load(game_id, min(game.player_counts)), 1, False, False)


@pytest.mark.parametrize("game_id", GAMES)
def test_playthrough(game_id: str) -> None:
    """At the game's first variant (`Game.variants`: Movie Trailer's is its short game), its
    options passed as parameters."""
    game = registry.get(game_id)
    options = "".join(f",{name}={value}" for name, value in game.variants()[0].items())
    text = generate_playthrough.playthrough(
        f"{short_name(game)}(players={min(game.player_counts)},tensor_size=16{options})",
        None,
        seed=1,
    )
    assert "IsTerminal() = True" in text
    assert f"NumDistinctActions() = {len(action_space(game_id))}" in text


def test_options_are_parameters() -> None:
    game = pyspiel.load_game("premiere_movie_tricks(players=3,family=True)")
    assert game.num_players() == 3
    assert game.get_parameters()["family"] is True
    with pytest.raises(ValueError, match="not 9"):
        pyspiel.load_game("premiere_movie_tricks(players=9)")


def _midgame(game: pyspiel.Game, seed: int) -> pyspiel.State:
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(rng.randrange(1, game.max_game_length() // 2)):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    while state.is_terminal():
        state = game.new_initial_state()
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_resampling_keeps_the_information_state(table: tuple[str, int]) -> None:
    game = load(*table, tensor_size=256)
    for seed in range(3):
        state = _midgame(game, seed)
        player = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        for _ in range(3):
            resampled = state.resample_from_infostate(player, sampler)
            assert resampled.current_player() == player
            assert resampled.information_state_string(player) == (
                state.information_state_string(player)
            )
            assert resampled.observation_string(player) == state.observation_string(player)
            assert np.array_equal(
                resampled.information_state_tensor(player),
                state.information_state_tensor(player),
            )
            assert resampled.legal_actions() == state.legal_actions()


def test_tensors_hold_one_shape(table: tuple[str, int]) -> None:
    game = load(*table, tensor_size=512)
    state = _midgame(game, 7)
    for player in range(game.num_players()):
        assert len(state.observation_tensor(player)) == 512
        assert len(state.information_state_tensor(player)) == 512
    assert game.observation_tensor_shape() == [512]


def test_ismcts_plays_movie_tricks() -> None:
    game = load("movie-tricks", 3, tensor_size=64)
    rng = np.random.RandomState(5)
    searcher = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        uct_c=2.0,
        max_simulations=10,
        max_world_samples=ismcts.UNLIMITED_NUM_WORLD_SAMPLES,
        random_state=rng,
    )
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == 0:
            action = searcher.step(state)
        else:
            action = int(rng.choice(state.legal_actions()))
        assert action in state.legal_actions()
        state.apply_action(action)
    assert len(state.returns()) == 3


@pytest.mark.parametrize("game_id", GAMES)
def test_legal_actions_asked_from_python_are_openspiels(game_id: str) -> None:
    """`legal_actions` answered in Python agrees with OpenSpiel's own (through C++), for the
    player asked, the others and at the end."""
    game = load(game_id, max(registry.get(game_id).player_counts), tensor_size=16)
    state = game.new_initial_state()
    rng = random.Random(2)
    while True:
        for player in [None, *range(game.num_players())]:
            asked = [] if player is None else [player]
            assert state.legal_actions(*asked) == pyspiel.State.legal_actions(state, *asked)
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.legal_actions() == []
