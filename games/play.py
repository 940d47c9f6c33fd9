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


@dataclass(frozen=True)
class Request:
    """What one awaited seat is asked: everything is taken before any answer is applied."""

    seat: int
    observation: Any
    legal: tuple[Any, ...]


def step(state: State) -> list[Request]:
    """Every seat awaited now, in seat order, with what it sees and may do.

    A simultaneous step (several seats in `to_move`) is asked all at once from one state, so
    no seat's request can carry another's answer; drivers then apply the answers in seat
    order, which keeps replays exact.
    """
    return [
        Request(seat, state.observe(seat), state.legal_moves(seat))
        for seat in sorted(state.to_move())
    ]


def play_match(
    game: Game,
    players: int,
    seed: Seed,
    bots: Sequence[str],
    options: Options | None = None,
) -> MatchRecord:
    """Play one match with a built-in bot per seat (or a search player, `games.search`); a
    refused move is replaced by the first legal move and counted, as the arbiter would."""
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
        asked = step(state)
        answers = [
            builtin_choice(
                game, bots[a.seat], seed, a.seat, len(moves) + k, a.observation, a.legal, state
            )
            for k, a in enumerate(asked)
        ]
        for a, move in zip(asked, answers, strict=True):
            try:
                state.apply(a.seat, move)
            except MoveError:
                illegal += 1
                move = a.legal[0]
                state.apply(a.seat, move)
            moves.append((a.seat, move))
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
