"""The Go bot copied out of the repository with the .proto files and built as its README says
(build.sh with PREMIERE_PROTO, Debian's Go toolchain, nothing downloaded), run with -heuristic
against a real arbiter: it fetches each game's data and beats random seats on mean rank."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.heuristic_matches import every_game, play
from tests.integration.services import ROOT, Arbiter

GO_CLIENT = ROOT / "clients" / "go"
TOOLS = ("go", "protoc", "protoc-gen-go", "protoc-gen-go-grpc")
GAMES: dict[str, object] = {
    "motion-pictures": pytest.param(
        "motion-pictures",
        marks=pytest.mark.xfail(
            reason="its simple strategy does not beat random play at Motion Pictures yet"
            " (mean rank about 1.54 over 200 matches, random 1.5)"
        ),
    )
}
MATCHES = int(os.environ.get("PREMIERE_HEURISTIC_MATCHES", "200"))


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
        [str(go_binary), "-arbiter", arbiter.address, "-heuristic", "-max-matches", "16"],
        env=os.environ | {"PREMIERE_BOT_TOKEN": arbiter.add_bot("gopher")},
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )
    try:
        yield log
    finally:
        process.terminate()
        process.wait(10)


@pytest.mark.parametrize("game_id", [GAMES.get(game, game) for game in every_game()])
def test_the_go_bot_beats_random_seats(game_id: str, arbiter: Arbiter, go_bot: Path) -> None:
    tally = play(arbiter, "gopher", game_id, MATCHES)
    log = go_bot.read_text()
    assert "no game data" not in log, log[-4000:]
    assert tally.faults == 0, log[-4000:]
    print(f"go {tally}")
    assert tally.mean_rank < tally.random_rank, tally
