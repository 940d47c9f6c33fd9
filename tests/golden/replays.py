"""Golden replays: one recorded match per game, every decision with what the actor saw."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from games import all_games
from games.bots import bot_names, builtin_choice
from games.interface import Game
from games.values import to_plain

FOLDER = Path(__file__).parent
SEED = "golden"


def golden_path(game: Game) -> Path:
    return FOLDER / f"{game.id}.jsonl"


def golden_lines(game: Game) -> Iterator[str]:
    """A header, one line per decision (seat, observation, legal moves, move), the outcome."""
    players = min(game.player_counts)
    names = bot_names(game)
    bots = [names[-1]] + ["random"] * (players - 1)
    options = game.resolve_options(None)
    yield _dump(
        {"game": game.id, "players": players, "seed": SEED, "options": options, "bots": bots}
    )
    state = game.new(players, SEED, options)
    decision = 0
    while not state.is_over():
        seat = state.to_move()[0]
        observation = state.observe(seat)
        legal = state.legal_moves(seat)
        move = builtin_choice(game, bots[seat], SEED, seat, decision, observation, legal)
        yield _dump(
            {
                "seat": seat,
                "observation": to_plain(observation),
                "legal": [game.encode_move(m) for m in legal],
                "move": game.encode_move(move),
            }
        )
        state.apply(seat, move)
        decision += 1
    yield _dump({"outcome": to_plain(state.outcome())})


def _dump(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def regenerate() -> list[Path]:
    written = []
    for game in all_games():
        path = golden_path(game)
        path.write_text("".join(line + "\n" for line in golden_lines(game)))
        written.append(path)
    return written
