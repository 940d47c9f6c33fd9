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
MORE_PLAYERS: dict[str, tuple[int, ...]] = {"movie-fight": (4,)}
"""Games recorded at more player counts than their smallest (Movie Fight: solo and 4)."""


def golden_cases() -> list[tuple[Game, int | None]]:
    """(game, players) of every golden replay; None is the game's smallest player count."""
    return [
        (game, players)
        for game in all_games()
        for players in (None, *MORE_PLAYERS.get(game.id, ()))
    ]


def golden_path(game: Game, players: int | None = None) -> Path:
    return FOLDER / (f"{game.id}.jsonl" if players is None else f"{game.id}-{players}p.jsonl")


def golden_lines(game: Game, players: int | None = None) -> Iterator[str]:
    """A header, one line per decision (seat, observation, legal moves, move), the outcome."""
    players = min(game.player_counts) if players is None else players
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
    for game, players in golden_cases():
        path = golden_path(game, players)
        path.write_text("".join(line + "\n" for line in golden_lines(game, players)))
        written.append(path)
    return written
