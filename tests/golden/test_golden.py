"""Each game's recorded match must replay decision for decision; `make golden` rewrites them."""

from __future__ import annotations

import difflib

import pytest

from games.interface import Game
from tests.golden.replays import golden_cases, golden_lines, golden_path


@pytest.mark.parametrize(
    ("game", "players"), golden_cases(), ids=lambda c: c.id if isinstance(c, Game) else str(c)
)
def test_golden_replay_matches(game: Game, players: int | None) -> None:
    path = golden_path(game, players)
    assert path.exists(), f"no golden replay {path.name}: run `make golden`"
    expected = path.read_text().splitlines()
    actual = list(golden_lines(game, players))
    if actual != expected:
        diff = difflib.unified_diff(expected, actual, "recorded", "now", n=0, lineterm="")
        pytest.fail(f"{game.id} no longer replays its golden match:\n" + "\n".join(list(diff)[:8]))
