"""Each game's recorded matches must replay decision for decision; `make golden` rewrites them."""

from __future__ import annotations

import difflib

import pytest

from games.interface import Game, OptionValue
from tests.golden.replays import golden_cases, golden_lines, golden_path


@pytest.mark.parametrize(
    ("game", "players", "variant"),
    golden_cases(),
    ids=lambda v: getattr(v, "id", None) or (f"{v}p" if isinstance(v, int) else str(v or "")),
)
def test_golden_replay_matches(game: Game, players: int, variant: dict[str, OptionValue]) -> None:
    path = golden_path(game, players, variant)
    assert path.exists(), f"no golden replay {path.name}: run `make golden`"
    expected = path.read_text().splitlines()
    actual = list(golden_lines(game, players, variant))
    if actual != expected:
        diff = difflib.unified_diff(expected, actual, "recorded", "now", n=0, lineterm="")
        pytest.fail(f"{path.name} no longer replays:\n" + "\n".join(list(diff)[:8]))
