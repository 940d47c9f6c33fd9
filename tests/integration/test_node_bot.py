"""The Node.js bot (clients/node) plays full matches against a real arbiter, as a real process."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from premiere_wire import match_pb2
from tests.integration.services import ROOT, Arbiter, create_match, free_port, wait_ended

NODE_CLIENT = ROOT / "clients" / "node"
BOT_JS = NODE_CLIENT / "bot.js"
INSTALL_HINT = "run `cd clients/node && npm ci` (make test does it for you)"

# "match <id> seat <s> decision <n>: move <i> of <k>", logged for every answer under --verbose.
DECISION_LINE = re.compile(r"match (\S+) seat (\d+) decision (\d+): move \d+ of \d+")


def node_package_files() -> list[str]:
    """The files the Node client's package carries (its package.json `files`, without the
    .proto folder) and package.json itself."""
    listed = json.loads((NODE_CLIENT / "package.json").read_text())["files"]
    return [name for name in listed if not name.endswith("/")] + ["package.json"]


def node_executable() -> str:
    """Node and the client's dependencies are required: a missing one fails the test, loudly."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: install Node.js 20 to test clients/node")
    for package in ("@grpc/grpc-js", "@grpc/proto-loader"):
        if not (NODE_CLIENT / "node_modules" / package / "package.json").is_file():
            pytest.fail(f"{package} is not installed in clients/node/node_modules: {INSTALL_HINT}")
    return node


@contextmanager
def node_bot(
    arbiter: Arbiter,
    token: str,
    log_path: Path,
    max_matches: int = 4,
    extra: tuple[str, ...] = (),
) -> Iterator[subprocess.Popen[bytes]]:
    """The bot run exactly as its README says: `PREMIERE_BOT_TOKEN=... node clients/node/bot.js
    --arbiter ...` (the token by environment, never on a command line)."""
    process = subprocess.Popen(
        [
            node_executable(),
            str(BOT_JS),
            "--arbiter",
            arbiter.address,
            "--max-matches",
            str(max_matches),
            "--verbose",
            *extra,
        ],
        env=os.environ | {"PREMIERE_BOT_TOKEN": token},
        cwd=ROOT,
        stdout=log_path.open("ab"),
        stderr=subprocess.STDOUT,
    )
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def wait_for_log(log_path: Path, text: str, after: int = 0, timeout: float = 30) -> int:
    """Wait until `text` appears in the log past offset `after`; return the offset after it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        content = log_path.read_text() if log_path.exists() else ""
        found = content.find(text, after)
        if found >= 0:
            return found + len(text)
        time.sleep(0.1)
    raise TimeoutError(f"{text!r} not in the bot's log:\n{log_path.read_text()[-4000:]}")


def logged_decisions(log_path: Path) -> dict[str, set[tuple[int, int]]]:
    """(decision number, seat) of every answer the Node bot logged, per match."""
    decisions: dict[str, set[tuple[int, int]]] = {}
    for match_id, seat, number in DECISION_LINE.findall(log_path.read_text()):
        decisions.setdefault(match_id, set()).add((int(number), int(seat)))
    return decisions


def test_node_bot_plays_full_matches_alongside_builtin_bots(
    arbiter: Arbiter, tmp_path: Path
) -> None:
    token = arbiter.add_bot("node")
    log_path = tmp_path / "node.log"
    seatings = [
        ["node", "builtin:random", "builtin:random"],
        ["builtin:random", "node", "builtin:heuristic", "builtin:random"],
        ["builtin:random", "builtin:random", "builtin:random", "builtin:random", "node"],
        ["node", "builtin:random", "node", "builtin:heuristic"],
    ]
    with node_bot(arbiter, token, log_path) as bot:
        stub = arbiter.matches()
        ids = [create_match(stub, seats, f"node-{i}") for i, seats in enumerate(seatings)]
        ended = [wait_ended(stub, match_id) for match_id in ids]
        # The Node bot picks from what it sees, so the same seed plays out the same way again.
        again = wait_ended(stub, create_match(stub, seatings[3], "node-3"))
        assert bot.poll() is None, f"the Node bot exited:\n{log_path.read_text()[-4000:]}"
        metrics = (
            urllib.request.urlopen(f"http://127.0.0.1:{arbiter.metrics_port}/metrics", timeout=5)
            .read()
            .decode()
        )

    played = logged_decisions(log_path)
    log = log_path.read_text()
    for match_id, seats, match in zip(ids, seatings, ended, strict=True):
        assert match.status == match_pb2.MATCH_STATUS_FINISHED, arbiter.log()
        assert list(match.faults) == [], match.faults
        assert [s.player for s in match.seats] == seats
        assert not any(s.strikes or s.forfeited for s in match.seats)
        assert match.decisions > 0
        assert len(match.outcome.ranks) == len(seats)
        # Every decision of the Node bot's seats was answered by the Node bot, and nothing else.
        node_seats = {i for i, player in enumerate(seats) if player == "node"}
        replay = stub.GetReplay(match_pb2.GetReplayRequest(match_id=match_id), timeout=10)
        assert len(replay.steps) == match.decisions
        expected = {(n, s.seat) for n, s in enumerate(replay.steps) if s.seat in node_seats}
        assert expected, f"the Node bot never decided in {match_id}"
        assert played.get(match_id) == expected
        for seat in node_seats:
            assert f"match {match_id} started: magic-trick, seat {seat} of {len(seats)}" in log
        assert f"match {match_id} ended: seat" in log
    assert "refused" not in log
    assert again.status == match_pb2.MATCH_STATUS_FINISHED
    assert again.decisions == ended[3].decisions
    assert list(again.outcome.scores) == list(ended[3].outcome.scores)
    assert "premiere_arbiter_connected_bots 1.0" in metrics
    assert 'premiere_arbiter_decisions_total{game="magic-trick",result="ok"}' in metrics


def test_node_bot_reconnects_after_the_arbiter_restarts(arbiter: Arbiter, tmp_path: Path) -> None:
    token = arbiter.add_bot("node")
    log_path = tmp_path / "node.log"
    assert arbiter.log_path is not None
    with node_bot(arbiter, token, log_path) as bot:
        seen = wait_for_log(log_path, "connected to")
        arbiter.kill()
        seen = wait_for_log(log_path, "lost", after=seen)
        arbiter.start(arbiter.log_path)
        # Backoff doubles up to 10 s while the arbiter is down, so allow a few rounds of it.
        wait_for_log(log_path, "connected to", after=seen, timeout=60)
        stub = arbiter.matches()
        match_id = create_match(stub, ["builtin:random", "node", "builtin:random"], "again")
        match = wait_ended(stub, match_id)
        assert bot.poll() is None
    assert match.status == match_pb2.MATCH_STATUS_FINISHED, arbiter.log()
    assert list(match.faults) == []
    assert match_id in logged_decisions(log_path)


def test_node_bot_exits_with_a_clear_error_on_a_bad_token(arbiter: Arbiter) -> None:
    result = subprocess.run(
        [node_executable(), str(BOT_JS), "--arbiter", arbiter.address, "--token", "not-a-token"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 3, result.stdout + result.stderr
    assert "UNAUTHENTICATED" in result.stderr
    assert "premiere bots add" in result.stderr


def test_node_bot_runs_outside_the_repository_and_challenges_for_a_rated_match(
    database_url: str, tmp_path: Path
) -> None:
    """The package alone (its files, proto/; `npm ci` gives node_modules) plays: here
    it asks for a rated match against the built-ins, as an author's first match would be."""
    node = node_executable()
    outside = tmp_path / "my-bot"
    outside.mkdir()
    for name in node_package_files():
        shutil.copy(NODE_CLIENT / name, outside / name)
    shutil.copytree(NODE_CLIENT / "proto", outside / "proto")
    (outside / "node_modules").symlink_to(NODE_CLIENT / "node_modules")
    arbiter = Arbiter(
        database_url, free_port(), free_port(), settings={"PREMIERE_CHALLENGES": "rated"}
    )
    arbiter.start(tmp_path / "arbiter.log")
    token = arbiter.add_bot("node")
    arbiter.admit("node", ["magic-trick"])  # validated already: a rated challenge is rated
    log_path = tmp_path / "node.log"
    process = subprocess.Popen(
        [
            node,
            "bot.js",
            "--arbiter",
            arbiter.address,
            "--challenge",
            "magic-trick",
            "--vs",
            "builtin:random,builtin:heuristic",
            "--rated",
        ],
        env=os.environ | {"PREMIERE_BOT_TOKEN": token},
        cwd=outside,
        stdout=log_path.open("ab"),
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for_log(log_path, "challenge accepted: match ")
        match_id = log_path.read_text().split("challenge accepted: match ")[1].split()[0]
        match = wait_ended(arbiter.matches(), match_id)
        wait_for_log(log_path, f"match {match_id} ended: seat 0 ranked")
    finally:
        process.terminate()
        process.wait(10)
        arbiter.stop()
    assert match.status == match_pb2.MATCH_STATUS_FINISHED and match.rated
    assert [s.player for s in match.seats] == ["node", "builtin:random", "builtin:heuristic"]
    assert "(rated)" in log_path.read_text()
