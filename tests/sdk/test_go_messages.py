"""The Go client (clients/go) reads every game's messages, moves and data: built from the
repository's .proto files as its README says, with its gamedata.go and the generated
gamedata_tables.go, a small program (go_check/check.go) decodes each observation and legal move
of a played match of every registered game to what Python protobuf reads, and finds every entry
of every table of the game's data by its number or id, through `GameData.Entry` and the table's
typed method. Nothing here names a game."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.integration.services import ROOT
from tests.sdk.client_messages import Case, cases

GO_CLIENT = ROOT / "clients" / "go"
CHECK = Path(__file__).parent / "go_check" / "check.go"
TOOLS = ("go", "protoc", "protoc-gen-go", "protoc-gen-go-grpc")


@pytest.fixture(scope="module")
def checker(tmp_path_factory: pytest.TempPathFactory) -> Path:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.fail(f"{missing} not on PATH: scripts/prerequisites.sh installs them")
    out = tmp_path_factory.mktemp("go-check")
    built = subprocess.run(
        [str(GO_CLIENT / "build.sh"), str(out)], capture_output=True, text=True, timeout=600
    )
    assert built.returncode == 0, built.stdout + built.stderr
    folder = out / "src" / "premierecheck"
    folder.mkdir()
    for name in ("gamedata.go", "gamedata_tables.go"):
        shutil.copy(GO_CLIENT / name, folder / name)
    shutil.copy(CHECK, folder / "check.go")
    env = os.environ | {
        "CGO_ENABLED": "0",
        "GO111MODULE": "off",
        "GOPATH": f"{out}:/usr/share/gocode",
        "GOFLAGS": "",
    }
    binary = out / "check"
    result = subprocess.run(
        ["go", "build", "-o", str(binary), "."],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return binary


@pytest.fixture(scope="module")
def checked(checker: Path) -> list[tuple[Case, object]]:
    made = cases()
    out = subprocess.run(
        [str(checker)],
        input="\n".join(case.line for case in made) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    seen = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(seen) == len(made)
    return list(zip(made, seen, strict=True))


def test_go_reads_every_observation_and_move_of_every_game(
    checked: list[tuple[Case, object]],
) -> None:
    requests = [(case, seen) for case, seen in checked if case.kind == "request"]
    assert {case.game for case, _ in requests} == {case.game for case, _ in checked}
    for case, seen in requests:
        assert seen == case.expected, f"{case.game}: Go read a request differently"


def test_go_finds_every_entry_of_every_game_data(checked: list[tuple[Case, object]]) -> None:
    data = [(case, seen) for case, seen in checked if case.kind == "data"]
    assert data
    for case, seen in data:
        assert seen == case.expected, f"{case.game}: Go read its data differently"
    assert any(case.expected["tables"] for case, _ in data), "no game has a keyed table"
