from __future__ import annotations

import fcntl
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.services import ROOT, Arbiter, free_port, scratch_database

GO_TOOLS = ("go", "protoc", "protoc-gen-go", "protoc-gen-go-grpc")


@pytest.fixture
def database_url() -> Iterator[str]:
    with scratch_database() as url:
        yield url


@pytest.fixture
def arbiter(database_url: str, tmp_path: Path) -> Iterator[Arbiter]:
    server = Arbiter(database_url, free_port(), free_port())
    server.start(tmp_path / "arbiter.log")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def go_bot_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Go bot built by clients/go/build.sh as its README says, once per test run: the
    first test process to need it builds it, under a lock in the folder every xdist worker's
    temporary folders share, and the others (test_go_bot.py, test_hosted.py's bundle) reuse
    it. test_go_heuristic.py builds its own, from a copy outside the tree."""
    missing = [tool for tool in GO_TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.fail(f"{missing} not on PATH: scripts/prerequisites.sh installs them")
    shared = tmp_path_factory.getbasetemp().parent
    out = shared / "go-bot-build"
    binary = out / "premiere-bot-go"
    with (shared / "go-bot-build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not binary.is_file():
            result = subprocess.run(
                ["bash", str(ROOT / "clients" / "go" / "build.sh"), str(out)],
                capture_output=True,
                text=True,
                timeout=600,
                cwd=shared,
            )
            assert result.returncode == 0, result.stdout + result.stderr[-2000:]
    assert binary.is_file()
    return binary
