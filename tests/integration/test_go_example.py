"""The Go bot copied out of the repository with the .proto files and built as its README says
(build.sh with PREMIERE_PROTO, Debian's Go toolchain, nothing downloaded), run with -example
against a real arbiter: the worked example strategy (example.go, Movie Trailer's guesser)
fetches the game's data and beats random seats, and every other game is played at random
without a fault. One bot process plays the games together (heuristic_matches.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.heuristic_matches import IN_FLIGHT, MATCHES, every_game, play
from tests.integration.services import ROOT, Arbiter

GO_CLIENT = ROOT / "clients" / "go"
EXAMPLE_GAME = "movie-trailer"
"""The game example.go plays."""

OTHER_MATCHES = 4
"""Matches of each other game: played at random, they only need to finish cleanly."""
TOOLS = ("go", "protoc", "protoc-gen-go", "protoc-gen-go-grpc")


@pytest.fixture(scope="module")
def go_binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.fail(f"{missing} not on PATH: scripts/prerequisites.sh installs them")
    base = tmp_path_factory.mktemp("go-outside")
    folder = base / "my-bot"
    shutil.copytree(GO_CLIENT, folder, ignore=shutil.ignore_patterns("build"))
    shutil.copytree(ROOT / "proto" / "premiere", base / "protos" / "premiere")
    assert not folder.resolve().is_relative_to(ROOT)
    result = subprocess.run(
        ["./build.sh"],
        cwd=folder,
        env=os.environ | {"PREMIERE_PROTO": str(base / "protos")},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    binary = folder / "build" / "premiere-bot-go"
    assert binary.is_file()
    return binary


@pytest.fixture
def go_bot(go_binary: Path, arbiter: Arbiter, tmp_path: Path) -> Iterator[Path]:
    log = tmp_path / "go.log"
    process = subprocess.Popen(
        [str(go_binary), "-example", "-max-matches", str(IN_FLIGHT), "-arbiter", arbiter.address],
        env=os.environ | {"PREMIERE_BOT_TOKEN": arbiter.add_bot("gopher")},
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )
    try:
        yield log
    finally:
        process.terminate()
        process.wait(10)


def test_the_go_example_beats_random_seats_and_plays_every_game(
    arbiter: Arbiter, go_bot: Path
) -> None:
    (example,) = play(arbiter, "gopher", [EXAMPLE_GAME], MATCHES)
    others = play(arbiter, "gopher", [g for g in every_game() if g != EXAMPLE_GAME], OTHER_MATCHES)
    log = go_bot.read_text()
    report = "\n".join(f"go {tally}" for tally in [example, *others])
    print(report)
    assert "no game data" not in log, log[-4000:]
    assert all(tally.faults == 0 for tally in [example, *others]), report + "\n" + log[-4000:]
    assert example.beats_random, report
