"""The OpenSpiel reference: oh_hell (C++ engine driven from Python), 3 players, random play.

OpenSpiel is a bench-only extra (``pip install -e '.[bench]'``); when it is missing every
function here returns None and the rows say so. Chance nodes (the deal) are sampled but not
counted: the figures are player decisions per second, as ours are.
"""

from __future__ import annotations

import random
import time
from typing import Any

GAME = "oh_hell"
PLAYERS = 3


def _load() -> Any | None:
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game(GAME, {"players": PLAYERS})


def available() -> bool:
    return _load() is not None


def decisions_per_second(seconds: float, tensor: bool) -> float | None:
    """Random playouts; with ``tensor`` the mover's information-state tensor is fetched
    before every decision (what an agent reads to decide)."""
    game = _load()
    if game is None:
        return None
    chooser = random.Random(1)
    decisions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[chooser.randrange(len(outcomes))][0])
                continue
            if tensor:
                state.information_state_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[chooser.randrange(len(legal))])
            decisions += 1
    return decisions / (time.perf_counter() - started)
