"""Magic Trick and Movie Tricks keep parts of their views and their legal moves between
decisions, updated by the moves that change them. What they hand out must equal what a state
replayed from the same moves, with nothing kept, computes: for every seat and the spectator, at
every player count and variant (a view kept for the wrong seat would show here too)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from games import get
from games.interface import Game, OptionValue
from games.magic_trick.views import SlotView
from games.rng import Rng, derive_seed
from games.values import frozen_record

MATCHES = 3
EVERY = 5
"""Replay afresh every so many steps (a replay is as long as the match so far)."""


def _cases() -> Iterator[Any]:
    for game_id in ("magic-trick", "movie-tricks"):
        game = get(game_id)
        for players in game.player_counts:
            for options in game.variants():
                label = ",".join(f"{k}={v}" for k, v in options.items())
                yield pytest.param(game, players, options, id=f"{game_id}-{players}p-{label}")


@pytest.mark.parametrize(("game", "players", "options"), list(_cases()))
def test_kept_views_and_moves_equal_those_of_a_fresh_replay(
    game: Game, players: int, options: dict[str, OptionValue]
) -> None:
    for match in range(MATCHES):
        seed = f"views/{match}"
        state = game.new(players, seed, options)
        rng = Rng(derive_seed("views", game.id, players, match))
        played: list[tuple[int, Any]] = []
        step = 0
        while not state.is_over():
            seats = state.to_move()
            views = [state.observe(seat) for seat in range(players)]
            spectator = state.spectate()
            if step % EVERY == 0 or len(seats) > 1:
                fresh = game.new(players, seed, options)
                for seat, move in played:
                    fresh.apply(seat, move)
                assert fresh.to_move() == seats
                assert [fresh.observe(seat) for seat in range(players)] == views
                assert fresh.spectate() == spectator
                for seat in range(players):
                    assert fresh.legal_moves(seat) == state.legal_moves(seat)
            answers = [(seat, rng.choice(state.legal_moves(seat))) for seat in seats]
            for seat, move in answers:
                state.apply(seat, move)
                played.append((seat, move))
            step += 1


@pytest.mark.parametrize("game_id", ["magic-trick", "movie-tricks"])
def test_a_clone_keeps_its_own_views_once_the_two_play_on_differently(game_id: str) -> None:
    game = get(game_id)
    rng = Rng(derive_seed("clone-views", game_id))
    state = game.new(3, "clone-views")
    shared = _play(state, rng, 40)
    twin = state.clone()
    for one in (state, twin):
        played = shared + _play(one, rng, 30)
        fresh = game.new(3, "clone-views")
        for seat, move in played:
            fresh.apply(seat, move)
        assert [one.observe(seat) for seat in range(3)] == [
            fresh.observe(seat) for seat in range(3)
        ]


def _play(state: Any, rng: Rng, decisions: int) -> list[tuple[int, Any]]:
    """Random moves, every seat observing before each; the moves played."""
    played = []
    for _ in range(decisions):
        if state.is_over():
            break
        for seat in range(state.players):
            state.observe(seat)
        seat = state.to_move()[0]
        move = rng.choice(state.legal_moves(seat))
        state.apply(seat, move)
        played.append((seat, move))
    return played


def test_a_frozen_record_equals_the_one_its_constructor_makes() -> None:
    made = frozen_record(SlotView, {"suit": "red", "rank": None, "place": "hand"})
    built = SlotView("red", None, "hand")
    assert made == built and hash(made) == hash(built) and repr(made) == repr(built)
    assert dataclasses.asdict(made) == dataclasses.asdict(built)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.rank = 3  # type: ignore[misc]
