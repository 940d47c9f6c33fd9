"""`premiere-bot run` as an author sees it in the terminal: a line when each match starts, one
when it ends (rank, scores, faults), one when the ladder has rated it; and a clear message,
not a traceback, when the token is refused or the arbiter cannot be reached."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from premiere_wire import match_pb2
from tests.integration.services import BIN, ROOT, Arbiter, create_match, free_port, wait_ended
from tests.ladder.test_api import Ladder

RANDOM = "premiere_bot.examples.random_bot:RandomBot"


def wait_for(path: Path, text: str, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        content = path.read_text() if path.exists() else ""
        if text in content:
            return content
        time.sleep(0.2)
    raise AssertionError(f"{text!r} never appeared in {path}:\n{content[-3000:]}")


def test_run_prints_start_result_faults_and_rating_change(
    arbiter: Arbiter, database_url: str, tmp_path: Path
) -> None:
    ladder = Ladder(database_url, tmp_path / "ladder.log")
    token = arbiter.add_bot("author")
    log = tmp_path / "bot.log"
    bot = subprocess.Popen(
        [str(BIN / "premiere-bot"), "run", RANDOM, "--ladder", ladder.grpc_address],
        env={**os.environ, "PREMIERE_ARBITER": arbiter.address, "PREMIERE_BOT_TOKEN": token},
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        ladder.wait_serving()
        wait_for(log, "connected to")
        request = match_pb2.CreateMatchRequest(game="magic-trick", rated=True)
        for seat in ("author", "builtin:random", "builtin:heuristic"):
            if seat.startswith("builtin:"):
                request.seats.add(builtin=seat.removeprefix("builtin:"))
            else:
                request.seats.add(bot=seat)
        match_id = arbiter.matches().CreateMatch(request, timeout=10).match_id
        match = wait_ended(arbiter.matches(), match_id)
        assert match.status == match_pb2.MATCH_STATUS_FINISHED
        out = wait_for(log, f"match {match_id} magic-trick rated: author ")
    finally:
        bot.terminate()
        bot.wait(10)
        ladder.process.terminate()
        ladder.process.wait(10)
    lines = {line.split(" ", 1)[1] for line in out.splitlines() if match_id in line}
    assert (
        f"match {match_id} magic-trick started: seat 0 of 3"
        " ([author], builtin:random, builtin:heuristic) prestige=true" in lines
    )
    rank, score = match.outcome.ranks[0], match.outcome.scores[0]
    finished = [line for line in lines if " finished: " in line]
    assert finished == [
        f"match {match_id} magic-trick finished: rank {rank} of 3 (scores "
        + " / ".join(str(s) for s in match.outcome.scores)
        + f"; yours {score}); faults: none"
    ]
    (rated,) = [line for line in lines if " rated: " in line]
    assert rated.startswith(f"match {match_id} magic-trick rated: author 1500.0 -> ")


def test_run_counts_decide_exceptions_on_the_finished_line(
    arbiter: Arbiter, tmp_path: Path
) -> None:
    """ClumsyBot raises once per match: answered with the first legal move, which the arbiter
    takes as a sound answer, so only the bot's own count tells the author."""
    token = arbiter.add_bot("clumsy")
    log = tmp_path / "bot.log"
    bot = subprocess.Popen(
        [str(BIN / "premiere-bot"), "run", "tests.sdk.bots:ClumsyBot"],
        env={**os.environ, "PREMIERE_ARBITER": arbiter.address, "PREMIERE_BOT_TOKEN": token},
        cwd=ROOT,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for(log, "connected to")
        stub = arbiter.matches()
        match_id = create_match(stub, ["clumsy", "builtin:random", "builtin:random"], "clumsy")
        assert wait_ended(stub, match_id).status == match_pb2.MATCH_STATUS_FINISHED
        out = wait_for(log, f"match {match_id} magic-trick finished: ")
    finally:
        bot.terminate()
        bot.wait(10)
    (finished,) = [line for line in out.splitlines() if f"{match_id} magic-trick finished" in line]
    assert finished.endswith("; decide raised 1 time"), finished
    assert "RuntimeError: oops" in out


def test_run_says_clearly_when_the_token_is_refused(arbiter: Arbiter, tmp_path: Path) -> None:
    result = subprocess.run(
        [str(BIN / "premiere-bot"), "run", RANDOM, "--arbiter", arbiter.address],
        env={**os.environ, "PREMIERE_BOT_TOKEN": "pmb_not-a-token"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert f"the arbiter at {arbiter.address} refused the token" in result.stderr
    assert "Traceback" not in result.stderr


def test_run_says_clearly_when_the_arbiter_is_unreachable(tmp_path: Path) -> None:
    address = f"127.0.0.1:{free_port()}"
    result = subprocess.run(
        [str(BIN / "premiere-bot"), "run", RANDOM, "--arbiter", address, "--no-reconnect"],
        env={**os.environ, "PREMIERE_BOT_TOKEN": "pmb_anything"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert f"cannot reach the arbiter at {address}" in result.stderr
    assert "is the arbiter running" in result.stderr and "Traceback" not in result.stderr


def test_run_keeps_retrying_an_unreachable_arbiter_and_says_so(tmp_path: Path) -> None:
    address = f"127.0.0.1:{free_port()}"
    log = tmp_path / "bot.log"
    bot = subprocess.Popen(
        [str(BIN / "premiere-bot"), "run", RANDOM, "--arbiter", address],
        env={**os.environ, "PREMIERE_BOT_TOKEN": "pmb_anything"},
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for(log, f"cannot reach the arbiter at {address}", timeout=30)
        assert bot.poll() is None, "it keeps retrying"
    finally:
        bot.terminate()
        bot.wait(10)
