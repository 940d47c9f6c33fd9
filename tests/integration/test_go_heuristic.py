"""The Go bot copied out of the repository with the .proto files and built as its README says
(build.sh with PREMIERE_PROTO, Debian's Go toolchain, nothing downloaded), run with -heuristic
against a real arbiter: it fetches each game's data and beats random seats on mean rank in every
game. One bot process plays the five games together (heuristic_matches.py)."""

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
        [str(go_binary), "-heuristic", "-max-matches", str(IN_FLIGHT), "-arbiter", arbiter.address],
        env=os.environ | {"PREMIERE_BOT_TOKEN": arbiter.add_bot("gopher")},
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )
    try:
        yield log
    finally:
        process.terminate()
        process.wait(10)


def test_the_go_bot_beats_random_seats_in_every_game(arbiter: Arbiter, go_bot: Path) -> None:
    tallies = play(arbiter, "gopher", every_game(), MATCHES)
    log = go_bot.read_text()
    report = "\n".join(f"go {tally}" for tally in tallies)
    print(report)
    assert "no game data" not in log, log[-4000:]
    assert all(tally.faults == 0 for tally in tallies), report + "\n" + log[-4000:]
    assert all(tally.beats_random for tally in tallies), report
