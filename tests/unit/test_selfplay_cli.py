"""`premiere selfplay`, run as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

KEYS = {
    "game",
    "players",
    "games",
    "completed",
    "moves",
    "seconds",
    "moves_per_second",
    "mean_rank",
    "mean_score",
    "illegal",
    "digest",
}


def selfplay(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "premiere", "selfplay", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def selfplay_json(*args: str) -> dict[str, object]:
    result = selfplay(*args, "--json")
    assert result.returncode == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout)
    return data


@pytest.mark.parametrize("players", [3, 4, 5])
def test_same_seed_same_digest_other_seed_other_digest(players: int) -> None:
    args = ("--game", "magic-trick", "--players", str(players), "--games", "20")
    first = selfplay_json(*args, "--seed", "1")
    assert set(first) == KEYS
    assert first["completed"] == 20
    assert first["illegal"] == 0
    assert isinstance(first["mean_rank"], list) and len(first["mean_rank"]) == players
    assert selfplay_json(*args, "--seed", "1")["digest"] == first["digest"]
    assert selfplay_json(*args, "--seed", "2")["digest"] != first["digest"]


def test_options_change_the_matches() -> None:
    args = ("--game", "magic-trick", "--players", "3", "--games", "5", "--seed", "4")
    plain = selfplay_json(*args)
    without = selfplay_json(*args, "--option", "prestige=false")
    assert plain["digest"] != without["digest"]


def test_human_readable_report() -> None:
    result = selfplay(
        "--game",
        "magic-trick",
        "--players",
        "3",
        "--games",
        "3",
        "--bots",
        "heuristic,random,random",
    )
    assert result.returncode == 0, result.stderr
    assert "3/3 matches" in result.stdout
    assert "heuristic" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "6"], "players"),
        (["--players", "3", "--bots", "random,random"], "bots"),
        (["--players", "3", "--bots", "genius"], "genius"),
        (["--players", "3", "--option", "prestige=perhaps"], "prestige"),
    ],
)
def test_bad_arguments_are_explained(args: list[str], message: str) -> None:
    result = selfplay("--game", "magic-trick", *args)
    assert result.returncode == 2
    assert message in result.stderr
