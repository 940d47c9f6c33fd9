"""`premiere selfplay --game motion-pictures` completes and replays to the same digest."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def selfplay_json(*args: str) -> dict[str, object]:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "premiere",
            "selfplay",
            "--game",
            "motion-pictures",
            *args,
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout)
    return data


@pytest.mark.parametrize("players", [2, 3, 4])
def test_selfplay_is_deterministic(players: int) -> None:
    bots = ",".join(["heuristic"] + ["random"] * (players - 1))
    args = ("--players", str(players), "--games", "5", "--seed", "1", "--bots", bots)
    first = selfplay_json(*args)
    assert first["completed"] == 5 and first["illegal"] == 0
    assert selfplay_json(*args)["digest"] == first["digest"]
