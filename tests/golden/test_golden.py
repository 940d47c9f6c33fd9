"""Each game's recorded match must replay decision for decision; `make golden` rewrites them."""

from __future__ import annotations

import difflib

import pytest

from games import all_games
from games.interface import Game
from tests.golden.replays import golden_lines, golden_path


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_golden_replay_matches(game: Game) -> None:
    path = golden_path(game)
    assert path.exists(), f"no golden replay for {game.id}: run `make golden`"
    expected = path.read_text().splitlines()
    actual = list(golden_lines(game))
    if actual != expected:
        diff = difflib.unified_diff(expected, actual, "recorded", "now", n=0, lineterm="")
        pytest.fail(f"{game.id} no longer replays its golden match:\n" + "\n".join(list(diff)[:8]))
