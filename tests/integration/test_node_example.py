"""The Node bot copied out of the repository and installed as its README says (`npm ci`), run
with --example against a real arbiter: the worked example strategy (example.js, Movie Trailer's
guesser) fetches the game's data and beats random seats, and every other game is played at
random without a fault. One bot process plays the games together (heuristic_matches.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.heuristic_matches import IN_FLIGHT, MATCHES, every_game, play
from tests.integration.services import ROOT, Arbiter
from tests.integration.test_node_bot import node_package_files

NODE_CLIENT = ROOT / "clients" / "node"
EXAMPLE_GAME = "movie-trailer"
"""The game example.js plays."""

OTHER_MATCHES = 4
"""Matches of each other game: played at random, they only need to finish cleanly."""


@pytest.fixture(scope="module")
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.fail("node and npm are not on PATH: install Node.js 20 to test clients/node")
    folder = tmp_path_factory.mktemp("node-outside") / "my-bot"
    folder.mkdir()
    for name in [*node_package_files(), "package-lock.json"]:
        shutil.copy(NODE_CLIENT / name, folder / name)
    shutil.copytree(NODE_CLIENT / "proto", folder / "proto")
    assert not folder.resolve().is_relative_to(ROOT)
    result = subprocess.run(
        [npm, "ci", "--omit=dev", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return folder


@pytest.fixture
def node_bot(outside: Path, arbiter: Arbiter, tmp_path: Path) -> Iterator[Path]:
    log = tmp_path / "node.log"
    slots = str(IN_FLIGHT)
    process = subprocess.Popen(
        ["node", "bot.js", "--example", "--max-matches", slots, "--arbiter", arbiter.address],
        env=os.environ | {"PREMIERE_BOT_TOKEN": arbiter.add_bot("node")},
        cwd=outside,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )
    try:
        yield log
    finally:
        process.terminate()
        process.wait(10)


def test_the_node_example_beats_random_seats_and_plays_every_game(
    arbiter: Arbiter, node_bot: Path
) -> None:
    (example,) = play(arbiter, "node", [EXAMPLE_GAME], MATCHES)
    others = play(arbiter, "node", [g for g in every_game() if g != EXAMPLE_GAME], OTHER_MATCHES)
    log = node_bot.read_text()
    report = "\n".join(f"node {tally}" for tally in [example, *others])
    print(report)
    assert "strategy failed" not in log and "no game data" not in log, log[-4000:]
    assert all(tally.faults == 0 for tally in [example, *others]), report + "\n" + log[-4000:]
    assert example.beats_random, report
