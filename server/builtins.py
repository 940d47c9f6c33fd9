"""Built-in seats' decisions on the arbiter: the cheap ones inline, the search levels in a pool of
worker processes, so a decision that costs a second of CPU never stalls the other matches the
arbiter hosts (their decisions keep flowing on the event loop meanwhile).

A search level gets a copy of the match's state (pickled into the worker); it reads it only
through `State.indistinguishable` and its seat's observation, so it knows no more than any
other bot in that seat. Nothing the worker computes leaves it but the chosen move.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

import games
from games.bots import builtin_choice, needs_state
from games.interface import State
from games.rng import Seed

_pool: Executor | None = None


def _workers() -> int:
    """``PREMIERE_SEARCH_WORKERS`` processes, one per core by default."""
    return max(1, int(os.environ.get("PREMIERE_SEARCH_WORKERS") or os.cpu_count() or 1))


def pool() -> Executor:
    """The arbiter's search processes, started on first use ("spawn": the arbiter runs gRPC
    threads, which a forked child must not inherit)."""
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(_workers(), mp_context=multiprocessing.get_context("spawn"))
    return _pool


def shutdown() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=True, cancel_futures=True)
        _pool = None


def _search(game_id: str, name: str, seed: Seed, seat: int, ply: int, state: State) -> Any:
    game = games.get(game_id)
    legal = state.legal_moves(seat)
    return builtin_choice(game, name, seed, seat, ply, None, legal, state)


async def choose(
    game_id: str,
    name: str,
    seed: Seed,
    seat: int,
    ply: int,
    observation: Any,
    legal: tuple[Any, ...],
    state: State,
) -> Any:
    """The built-in's move; a search level runs in `pool` on a copy of ``state``."""
    if not needs_state(name):
        return builtin_choice(games.get(game_id), name, seed, seat, ply, observation, legal)
    loop = asyncio.get_running_loop()
    copy = state.clone()
    move = await loop.run_in_executor(pool(), _search, game_id, name, seed, seat, ply, copy)
    # The move comes back unpickled: hand the engine its own equal object, as a bot's is.
    return legal[legal.index(move)]
