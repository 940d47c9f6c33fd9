"""Each language's ten-minute tutorial (clients/*/README.md), followed literally in a fresh clone
of the committed repository, ends with a rated match on the ladder.

The commands are the README's fenced `sh` blocks, run in order in one shell; only the stack's
addresses (this test's own arbiter and ladder instead of `make demo`'s fixed ports) and the
location of the virtual environment (this test's, as `make demo` would have made it) differ.
The arbiter allows rated challenges, as `premiere up` does. The toolchain installs of the Go
tutorial are what scripts/prerequisites.sh does for `make test`, so that line is not run here.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from premiere_wire import ladder_pb2
from tests.integration.services import BIN, ROOT, Arbiter, Workers, free_port
from tests.ladder.test_api import Ladder

BLOCK = re.compile(r"```(\w+)\n(.*?)```", re.DOTALL)
LONG_RUNNING = ("premiere-bot run ", "premiere-bot-go ", "node bot.js ")


@pytest.fixture
def stack(database_url: str, tmp_path: Path) -> Iterator[tuple[Arbiter, Ladder]]:
    arbiter = Arbiter(
        database_url,
        free_port(),
        free_port(),
        settings={"PREMIERE_CHALLENGES": "rated", "PREMIERE_SIGNUP": "open"},
    )
    arbiter.start(tmp_path / "arbiter.log")
    workers = Workers(arbiter, tmp_path)  # the validation gate, as `premiere up` runs it
    workers.start_worker()
    workers.start_beat()
    ladder = Ladder(database_url, tmp_path / "ladder.log")
    try:
        ladder.wait_serving()
        yield arbiter, ladder
    finally:
        workers.stop()
        ladder.process.terminate()
        ladder.process.wait(10)
        arbiter.stop()


def tutorial(readme: Path) -> tuple[str | None, list[str]]:
    """The tutorial's Python code (the first python block, if any) and its shell commands."""
    text = readme.read_text().split("## Ten minutes from install to a rated match", 1)[1]
    text = text.split("\n## ", 1)[0]
    code = None
    commands = []
    for language, body in BLOCK.findall(readme.read_text().split("## Ten minutes")[0]):
        if language == "python" and code is None:
            code = body
    for language, body in BLOCK.findall(text):
        if language == "sh":
            commands += [line.strip() for line in body.splitlines() if line.strip()]
    return code, commands


def script(commands: list[str], arbiter: Arbiter, ladder: Ladder, log: Path) -> str:
    http = ladder.http.removeprefix("http://")
    lines = ["set -euo pipefail"]
    for command in commands:
        if command.startswith("sudo apt-get install"):
            continue
        command = re.sub(r"(\.\./)*\.venv/bin/", f"{BIN}/", command)
        command = command.replace("127.0.0.1:50051", arbiter.address)
        command = command.replace("127.0.0.1:50061", ladder.grpc_address)
        command = command.replace("127.0.0.1:8080", http)
        if any(marker in command for marker in LONG_RUNNING):
            lines.append(f"{command} >{log} 2>&1 &")
            lines.append(f"echo $! >{log}.pid")
            lines.append(
                f"for _ in $(seq 300); do grep -q 'connected to' {log} && break; sleep 0.2; done"
            )
            lines.append(f"grep -q 'connected to' {log}")
        else:
            lines.append(command)
    return "\n".join(lines) + "\n"


def follow(readme: Path, stack: tuple[Arbiter, Ladder], tmp_path: Path) -> tuple[str, Path]:
    arbiter, ladder = stack
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    code, commands = tutorial(readme)
    if code is not None:
        (clone / "mybot.py").write_text(code)
    log = tmp_path / "bot.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREMIERE_")}
    env["PREMIERE_DATABASE_URL"] = arbiter.database_url
    env["PREMIERE_ARBITER"] = arbiter.address  # the stack's address: where `make demo` listens
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")  # the author's stored account token
    result = subprocess.run(
        ["bash", "-c", script(commands, arbiter, ladder, log)],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stdout + result.stderr + log.read_text()
    return result.stdout, log


def rated_match(ladder: Ladder, player: str, timeout: float = 60) -> ladder_pb2.LadderMatch:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        page = ladder.stub.ListMatches(ladder_pb2.ListMatchesRequest(game="magic-trick"))
        for match in page.matches:
            if any(seat.player == player and seat.rated for seat in match.seats):
                return match
        time.sleep(0.5)
    raise AssertionError(f"no rated match of {player}:\n{ladder.log()}")


def stop(log: Path) -> None:
    pid = Path(f"{log}.pid")
    if pid.exists():
        subprocess.run(["kill", pid.read_text().strip()], check=False)


def wait_for(log: Path, pattern: str, timeout: float = 60) -> re.Match[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = re.search(pattern, log.read_text())
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"{pattern!r} never appeared:\n{log.read_text()[-3000:]}")


def test_the_python_tutorial_ends_with_a_rated_match(
    stack: tuple[Arbiter, Ladder], tmp_path: Path
) -> None:
    try:
        out, log = follow(ROOT / "clients" / "python" / "README.md", stack, tmp_path)
        assert "MyBot at magic-trick, 3 players, vs heuristic, random:" in out
        assert "over 100 matches" in out and "nothing here would cost a strike" in out
        created = re.search(r"match (\S+) magic-trick created \(rated\)", out)
        assert created, out
        rated = wait_for(log, rf"match {created[1]} magic-trick rated: my-bot 1500\.0 -> ")
        assert rated
        assert re.search(rf"match {created[1]} magic-trick finished: rank \d of 3", log.read_text())
    finally:
        stop(tmp_path / "bot.log")
    assert rated_match(stack[1], "my-bot").match_id == created[1]


def test_the_node_tutorial_ends_with_a_rated_match(
    stack: tuple[Arbiter, Ladder], tmp_path: Path
) -> None:
    try:
        out, log = follow(ROOT / "clients" / "node" / "README.md", stack, tmp_path)
        created = re.search(r"match (\S+) magic-trick created \(rated\)", out)
        assert created, out
        wait_for(log, rf"match {created[1]} ended: seat 0 ranked")
    finally:
        stop(tmp_path / "bot.log")
    assert rated_match(stack[1], "my-node-bot").match_id == created[1]


def test_the_go_tutorial_ends_with_a_rated_match(
    stack: tuple[Arbiter, Ladder], tmp_path: Path
) -> None:
    try:
        out, log = follow(ROOT / "clients" / "go" / "README.md", stack, tmp_path)
        created = re.search(r"match (\S+) magic-trick created \(rated\)", out)
        assert created, out
        wait_for(log, rf"match {created[1]} magic-trick finished: rank \d of 3")
    finally:
        stop(tmp_path / "bot.log")
    assert rated_match(stack[1], "my-go-bot").match_id == created[1]
