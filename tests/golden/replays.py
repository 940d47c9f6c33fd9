"""Golden replays: recorded matches per game (and per golden variant), every decision with
what the actor saw. A simultaneous step is asked all at once and applied in seat order."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

from games import all_games
from games.bots import builtin_choice, observing_bots
from games.interface import Game, OptionValue
from games.play import step
from games.values import to_plain

FOLDER = Path(__file__).parent
SEED = "golden"
LONG_LEGAL = 64
"""Longer legal-move lists are recorded as their count and digest, to keep the files small."""


def golden_cases() -> list[tuple[Game, int, dict[str, OptionValue]]]:
    """(game, players, options) of every golden replay."""
    return [
        (game, players, variant)
        for game in all_games()
        for players in game.golden_player_counts()
        for variant in game.golden_variants()
    ]


def golden_path(game: Game, players: int, variant: dict[str, OptionValue] | None = None) -> Path:
    """`<game>[-<option>...][-<N>p].jsonl`: the player count is named unless it is the least."""
    defaults = game.resolve_options(None)
    changed = {k: v for k, v in game.resolve_options(variant).items() if defaults[k] != v}
    label = "".join(f"-{k if v is True else v}" for k, v in sorted(changed.items()))
    count = "" if players == min(game.player_counts) else f"-{players}p"
    return FOLDER / f"{game.id}{label}{count}.jsonl"


def golden_lines(
    game: Game, players: int, variant: dict[str, OptionValue] | None = None
) -> Iterator[str]:
    """A header, one line per decision (step, seat, observation, legal moves, move), the outcome."""
    names = observing_bots(game)
    bots = [names[-1]] + ["random"] * (players - 1)
    options = game.resolve_options(variant)
    yield _dump(
        {"game": game.id, "players": players, "seed": SEED, "options": options, "bots": bots}
    )
    state = game.new(players, SEED, options)
    decision = 0
    steps = 0
    while not state.is_over():
        asked = step(state)
        moves = [
            builtin_choice(game, bots[a.seat], SEED, a.seat, decision + k, a.observation, a.legal)
            for k, a in enumerate(asked)
        ]
        for a, move in zip(asked, moves, strict=True):
            yield _dump(
                {
                    "step": steps,
                    "seat": a.seat,
                    "observation": to_plain(a.observation),
                    "legal": _legal(game, a.legal),
                    "move": game.encode_move(move),
                }
            )
            state.apply(a.seat, move)
            decision += 1
        steps += 1
    yield _dump({"outcome": to_plain(state.outcome())})


def _legal(game: Game, legal: tuple[object, ...]) -> object:
    encoded = [game.encode_move(m) for m in legal]
    if len(encoded) <= LONG_LEGAL:
        return encoded
    digest = hashlib.sha256(_dump(encoded).encode()).hexdigest()
    return {"count": len(encoded), "sha256": digest}


def _dump(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def regenerate() -> list[Path]:
    written = []
    for game, players, variant in golden_cases():
        path = golden_path(game, players, variant)
        path.write_text("".join(line + "\n" for line in golden_lines(game, players, variant)))
        written.append(path)
    return written
