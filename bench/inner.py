"""The search's inner loop per game (`games.search`), next to OpenSpiel's oh_hell, and the CPU
of a search decision next to issue #29's budget.

The determinised search draws `State.indistinguishable` worlds, clones one per playout, and
plays it out with `legal_moves` and `_apply` (a move taken from the legal ones skips the gate
of `State.apply`). Each of the three is measured on states met along random matches of the
game (its table of `bench.search`), next to OpenSpiel's oh_hell (3 players) doing the same
on states met along random oh_hell games: ``clone``, ``legal_actions`` + ``apply_action``,
``resample_from_infostate`` (its counterpart of `indistinguishable`). Subjects take turns in
short slices timed by the process's own CPU time (`bench.engines.interleaved`).

A search decision is timed on positions of one heuristic self-play match per game, evenly
spread over its decisions of more than one legal move, each decided as the built-in decides
it (`games.search.search_choice`, seeded by match and decision).
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable
from typing import Any

from bench import openspiel
from bench.engines import interleaved
from bench.openspiel import Slice
from bench.rows import Row, quick, row
from bench.search import PLAYERS
from games import get
from games.bots import builtin_choice
from games.interface import State
from games.play import step
from games.rng import Rng, derive_seed
from games.search import LEVELS, search_choice

POOL_MATCHES = 2 if quick() else 12
"""Random matches whose states make a game's pool of sampled states."""
POSITIONS = 1 if quick() else 6
"""Search decisions timed per game and level."""
BUDGET_MS = 1000
"""Issue #29: a search:1000 decision in at most a second of CPU."""

Sampled = list[tuple[Any, int]]
"""States met along random play and the seat to move in each."""


def _pool(game_id: str) -> Sampled:
    game = get(game_id)
    chooser = random.Random(7)
    pool: Sampled = []
    for index in range(POOL_MATCHES):
        state = game.new(PLAYERS[game_id], f"bench/inner/{index}")
        while movers := state.to_move():
            pool.append((state.clone(), movers[0]))
            legal = state.legal_moves(movers[0])
            state.apply(movers[0], legal[chooser.randrange(len(legal))])
    return pool


def _cycling(pool: list[Any], work: Callable[[Any], int]) -> Callable[[float], tuple[int, float]]:
    """A slice that hands the pool's items to ``work`` in turn (``work`` says how many
    operations it did)."""
    items = itertools.cycle(pool)

    def run(seconds: float) -> tuple[int, float]:
        count = 0
        started = time.process_time()
        while time.process_time() - started < seconds:
            for _ in range(50):
                count += work(next(items))
        return count, time.process_time() - started

    return run


def _subjects(game_id: str) -> dict[str, Slice]:
    game = get(game_id)
    pool = _pool(game_id)
    chooser = random.Random(1)
    rng = Rng(derive_seed("bench/inner", game_id))
    starts = [game.new(PLAYERS[game_id], f"bench/inner/start/{i}") for i in range(8)]

    def clone(item: tuple[State, int]) -> int:
        item[0].clone()
        return 1

    def playout(start: State) -> int:
        state = start.clone()
        moves = 0
        while movers := state.to_move():
            legal = state.legal_moves(movers[0])
            state._apply(movers[0], legal[chooser.randrange(len(legal))])
            moves += 1
        return moves

    def indistinguishable(item: tuple[State, int]) -> int:
        item[0].indistinguishable(item[1], rng)
        return 1

    return {
        f"{game_id}/clone": _cycling(pool, clone),
        f"{game_id}/apply": _cycling(starts, playout),
        f"{game_id}/indistinguishable": _cycling(pool, indistinguishable),
    }


def _spiel_subjects() -> dict[str, Slice | None]:
    game = openspiel.load()
    if game is None:
        return {"spiel/clone": None, "spiel/apply": None, "spiel/indistinguishable": None}
    import pyspiel

    chooser = random.Random(1)
    pool: list[Any] = []
    for _ in range(POOL_MATCHES):
        pool.extend(state.clone() for state in openspiel.random_walk(game, chooser))
    sampler = pyspiel.UniformProbabilitySampler(1, 0.0, 1.0)

    def clone(state: Any) -> int:
        state.clone()
        return 1

    def playout(start: Any) -> int:
        state = start.clone()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[chooser.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[chooser.randrange(len(legal))])
            decisions += 1
        return decisions

    def resample(state: Any) -> int:
        state.resample_from_infostate(state.current_player(), sampler)
        return 1

    return {
        "spiel/clone": _cycling(pool, clone),
        "spiel/apply": _cycling([game.new_initial_state()], playout),
        "spiel/indistinguishable": _cycling(pool, resample),
    }


def _positions(game_id: str) -> list[tuple[State, int, int]]:
    """(state, seat, decision number) along one heuristic self-play match."""
    game = get(game_id)
    seed = f"bench/inner/{game_id}"
    state = game.new(PLAYERS[game_id], seed)
    found: list[tuple[State, int, int]] = []
    ply = 0
    while not state.is_over():
        asked = step(state)
        found.extend((state.clone(), a.seat, ply) for a in asked if len(a.legal) > 1)
        answers = [
            builtin_choice(game, "heuristic", seed, a.seat, ply + k, a.observation, a.legal)
            for k, a in enumerate(asked)
        ]
        for a, move in zip(asked, answers, strict=True):
            state.apply(a.seat, move)
        ply += len(asked)
    stride = max(1, len(found) // POSITIONS)
    return found[::stride][:POSITIONS]


def _search_ms(game_id: str, level: str, positions: list[tuple[State, int, int]]) -> float:
    game = get(game_id)
    started = time.process_time()
    for state, seat, ply in positions:
        search_choice(game, level, f"bench/inner/{game_id}", seat, ply, state)
    return 1000 * (time.process_time() - started) / len(positions)


OPERATIONS = {
    "clone": ("clone", "clones/CPU-s", "clone"),
    "apply": (
        "random playout with legal moves + apply per decision (the search's rollout)",
        "decisions/CPU-s",
        "random playout with legal_actions + apply_action per decision",
    ),
    "indistinguishable": (
        "indistinguishable (a determinisation for the seat to move)",
        "states/CPU-s",
        "resample_from_infostate for the player to move",
    ),
}


def run() -> list[Row]:
    games = sorted(PLAYERS)
    subjects: dict[str, Slice | None] = dict(_spiel_subjects())
    for game_id in games:
        subjects.update(_subjects(game_id))
    rates = interleaved(subjects, *((1, 0.05) if quick() else (6, 0.3)))
    spiel = f"OpenSpiel {openspiel.GAME}, {openspiel.PLAYERS} players"
    missing = "OpenSpiel not installed (pip install -e '.[bench]'): no reference"
    rows: list[Row] = []
    for game_id in games:
        for key, (what, unit, theirs) in OPERATIONS.items():
            rows.append(
                row(
                    f"{game_id} {what}, {PLAYERS[game_id]} players",
                    rates[f"{game_id}/{key}"],
                    unit,
                    f"{spiel}, {theirs}" if f"spiel/{key}" in rates else missing,
                    rates.get(f"spiel/{key}", 0.0),
                )
            )
    levels = ("search:100",) if quick() else tuple(LEVELS)
    for game_id in games:
        positions = _positions(game_id)
        for level in levels:
            rows.append(
                row(
                    f"{game_id} {level} CPU per decision ({PLAYERS[game_id]}p, "
                    f"{len(positions)} positions of a heuristic self-play match)",
                    _search_ms(game_id, level, positions),
                    "ms",
                    "issue #29's budget",
                    BUDGET_MS,
                )
            )
    return rows


if __name__ == "__main__":
    from bench.rows import print_rows

    print_rows(run())
