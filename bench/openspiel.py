"""The OpenSpiel reference: oh_hell (C++ engine driven from Python), 3 players, random play.

OpenSpiel is a bench-only extra (``pip install -e '.[bench]'``); when it is missing the
functions here return None and the rows say so. Chance nodes (the deal) are sampled but not
counted: the figures are player decisions, as ours are.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Any

GAME = "oh_hell"
PLAYERS = 3

Slice = Callable[[float], tuple[int, float]]
"""Plays for about the given CPU seconds; returns (decisions, CPU seconds used)."""


def load() -> Any | None:
    """The oh_hell game, or None when OpenSpiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game(GAME, {"players": PLAYERS})


def available() -> bool:
    return load() is not None


def random_walk(game: Any, chooser: random.Random) -> Iterator[Any]:
    """One random match of ``game``: each state where a player is to move, before its random
    move is applied (chance outcomes sampled with ``chooser`` too, and not yielded)."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[chooser.randrange(len(outcomes))][0])
            continue
        yield state
        legal = state.legal_actions()
        state.apply_action(legal[chooser.randrange(len(legal))])


def playout(tensor: bool) -> Slice | None:
    """Random playouts; with ``tensor`` the mover's information-state tensor is fetched
    before every decision (what an agent reads to decide)."""
    game = load()
    if game is None:
        return None
    chooser = random.Random(1)

    def run(seconds: float) -> tuple[int, float]:
        decisions = 0
        started = time.process_time()
        while time.process_time() - started < seconds:
            for state in random_walk(game, chooser):
                if tensor:
                    state.information_state_tensor(state.current_player())
                decisions += 1
        return decisions, time.process_time() - started

    return run
