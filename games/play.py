"""Playing and replaying whole matches in-process, with built-in bots."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.bots import bot_names, builtin_choice
from games.errors import MoveError
from games.interface import Game, Options, Outcome, State
from games.rng import Seed


@dataclass(frozen=True)
class MatchRecord:
    """Everything needed to replay a match: (game, options, players, seed, moves)."""

    game_id: str
    players: int
    seed: Seed
    options: dict[str, Any]
    moves: tuple[tuple[int, Any], ...]
    outcome: Outcome
    illegal: int


def play_match(
    game: Game,
    players: int,
    seed: Seed,
    bots: Sequence[str],
    options: Options | None = None,
) -> MatchRecord:
    """Play one match with a built-in bot per seat; a refused move is replaced by the first
    legal move and counted, as the arbiter would."""
    if len(bots) != players:
        raise ValueError(f"{len(bots)} bots for {players} seats")
    resolved = game.resolve_options(options)
    state = game.new(players, seed, resolved)
    unknown = sorted(set(bots) - set(bot_names(game)))
    if unknown:
        raise KeyError(f"no built-in bot {unknown} for {game.id}; choose from {bot_names(game)}")
    moves: list[tuple[int, Any]] = []
    illegal = 0
    limit = game.max_decisions(players, resolved)
    while not state.is_over():
        if len(moves) >= limit:
            raise RuntimeError(f"{game.id} exceeded its declared bound of {limit} decisions")
        seat = state.to_move()[0]
        legal = state.legal_moves(seat)
        move = builtin_choice(game, bots[seat], seed, seat, len(moves), state.observe(seat), legal)
        try:
            state.apply(seat, move)
        except MoveError:
            illegal += 1
            move = legal[0]
            state.apply(seat, move)
        moves.append((seat, move))
    outcome = state.outcome()
    assert outcome is not None
    return MatchRecord(game.id, players, seed, dict(resolved), tuple(moves), outcome, illegal)


def replay(
    game: Game,
    players: int,
    seed: Seed,
    moves: Sequence[tuple[int, Any]],
    options: Options | None = None,
) -> State:
    """Re-execute a match from its seed and moves; raises `MoveError` on a bad log."""
    state = game.new(players, seed, options)
    for seat, move in moves:
        state.apply(seat, move)
    return state
