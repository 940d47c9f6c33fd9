"""The search player: legal, deterministic per match seed and decision, leaves the real state
alone, and beats random play."""

from __future__ import annotations

import pytest

from games import all_games, get
from games.bots import bot_names, builtin_choice
from games.interface import Game, Options, State
from games.play import play_match
from games.rng import Rng
from games.search import LEVELS, SearchPlayer, search_choice

PLAYOUTS = 12
"""Enough to exercise the tree (expansion, selection, several determinisations) quickly."""


def first_real_decision(game: Game, players: int, options: Options) -> tuple[State, int]:
    state = game.new(players, "search", options)
    while True:
        seat = max(state.to_move())
        if len(state.legal_moves(seat)) > 1:
            return state, seat
        state.apply(seat, state.legal_moves(seat)[0])


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_a_legal_choice_the_same_for_the_same_seed_and_decision(game: Game) -> None:
    players = max(min(game.player_counts), 2)
    for options in game.golden_variants():
        state, seat = first_real_decision(game, players, options)
        before = state.clone()
        choices = [
            SearchPlayer(Rng(b"same seed and decision"), PLAYOUTS).choose_in(state, seat)
            for _ in range(2)
        ]
        assert choices[0] == choices[1]
        assert choices[0] in state.legal_moves(seat)
        assert state == before, "searching leaves the real state alone"


def test_search_levels_are_builtins_of_play_match() -> None:
    """One match: that the same seed and decision give the same choice is the tests above."""
    game = get("movie-fight")
    record = play_match(game, 2, "search level", ["search:100", "random"])
    assert record.illegal == 0 and record.outcome is not None
    assert set(LEVELS) == {"search:100", "search:1000"}


GUARD_MATCHES = 1
GUARD_OPTIONS: dict[str, Options] = {"movie-trailer": {"rounds": 1}}
"""Movie Trailer with one round (each seat directs once): the guard stays seconds long."""


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_search_100_beats_random_seats(game: Game) -> None:
    """A guard, not a strength measurement (that is `bench.search`): at the smallest table of
    two or more, ``search:100`` in a rotating seat finishes first against random seats."""
    players = min(n for n in game.player_counts if n >= 2)
    for index in range(GUARD_MATCHES):
        seat = index % players
        bots = ["random"] * players
        bots[seat] = "search:100"
        options = GUARD_OPTIONS.get(game.id)
        outcome = play_match(game, players, f"guard/{index}", bots, options).outcome
        assert outcome.ranks[seat] == 1, (index, outcome.scores)


def test_search_choice_is_seeded_by_match_and_decision() -> None:
    game = get("movie-tricks")
    state, seat = first_real_decision(game, 3, {})
    move = search_choice(game, "search:100", "match", seat, 7, state)
    assert move == search_choice(game, "search:100", "match", seat, 7, state)
    assert move in state.legal_moves(seat)


def test_search_levels_are_built_ins_that_decide_from_the_state() -> None:
    game = get("movie-fight")
    assert all(set(LEVELS) <= set(bot_names(g)) for g in all_games())
    state, seat = first_real_decision(game, 2, {})
    observation, legal = state.observe(seat), state.legal_moves(seat)
    with pytest.raises(ValueError, match="state"):
        builtin_choice(game, "search:100", "s", seat, 3, observation, legal)
    move = builtin_choice(game, "search:100", "s", seat, 3, observation, legal, state)
    assert move == search_choice(game, "search:100", "s", seat, 3, state) and move in legal
