"""A newcomer's first run: clone the repository into a scratch folder, type the README's
`make demo`, and watch every demo league close a round; then use the CLI from a subfolder
while the stack runs, try a second start, and stop with Ctrl-C.

The clone is of the committed HEAD (CI runs from a fresh clone, so that is everything). The
install runs as the README's command does, quietly, into the clone's own .venv.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import games
from premiere.stack import DEMO_BOTS, EXAMPLE_BOT, HOSTED_EXAMPLE
from tests.integration.services import ROOT, free_port
from tests.integration.test_stack import alive, leaderboard_players

ANNOUNCED = "every demo league has finished a round"


def test_a_fresh_clone_installs_and_runs_the_demo(tmp_path: Path) -> None:
    # Not under tmp_path: as root the private servers run as an unprivileged user, who must be
    # able to reach the clone's .venv (pytest's folders are private to their owner).
    folder = Path(tempfile.mkdtemp(prefix="premiere-newcomer-"))
    folder.chmod(0o755)
    clone = folder / "premiere"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    http = f"127.0.0.1:{free_port()}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREMIERE_", "VIRTUAL_ENV"))}
    env.update(
        PREMIERE_ARBITER_ADDRESS=f"127.0.0.1:{free_port()}",
        PREMIERE_ARBITER_METRICS_PORT=str(free_port()),
        PREMIERE_WORKER_METRICS_PORT=str(free_port()),
        PREMIERE_RUNNER_METRICS_PORT=str(free_port()),
        PREMIERE_LADDER_GRPC_ADDRESS=f"127.0.0.1:{free_port()}",
        PREMIERE_LADDER_HTTP_ADDRESS=http,
        PREMIERE_QUEUE=f"premiere-newcomer-{free_port()}",
        PREMIERE_TICK_SECONDS="1",
    )
    env["PREMIERE_ARBITER_TARGET"] = env["PREMIERE_ARBITER_ADDRESS"]
    output = tmp_path / "make-demo.out"
    demo = subprocess.Popen(
        ["make", "demo"],
        cwd=clone,
        env=env,
        stdout=output.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    state = clone / ".state"
    try:
        deadline = time.monotonic() + 600
        while ANNOUNCED not in output.read_text():
            assert demo.poll() is None, output.read_text()
            assert time.monotonic() < deadline, output.read_text()
            time.sleep(1)
        text = output.read_text()
        install = text[: text.index("starting PostgreSQL")]
        assert len(install.splitlines()) <= 4, f"install output is not quiet:\n{install}"
        assert "Warning" not in install and "deprecated" not in install

        # The machine has a sandbox (make test installs bubblewrap): the demo hosts a bot.
        assert "hosted bots: on" in text and f"hosted example bot: {HOSTED_EXAMPLE}" in text
        assert f"started {HOSTED_EXAMPLE}" in (state / "logs" / "runner.log").read_text()

        names = [f"demo-{game}" for game in games.ids()]
        for game in games.ids():
            players = leaderboard_players(http, game)
            assert len(players) >= 2, f"{game}: {players}"
            assert players <= {*DEMO_BOTS, EXAMPLE_BOT, HOSTED_EXAMPLE}

        # From a subfolder, with nothing configured, the CLI finds the running stack.
        premiere = str(clone / ".venv" / "bin" / "premiere")
        subfolder = clone / "clients" / "python"
        listed = subprocess.run(
            [premiere, "league", "list"], cwd=subfolder, env=env, capture_output=True, text=True
        )
        assert listed.returncode == 0, listed.stderr
        assert all(name in listed.stdout for name in names), listed.stdout

        # A second start says so and touches nothing.
        described = (state / "stack.json").read_text()
        again = subprocess.run(
            [premiere, "up"], cwd=subfolder, env=env, capture_output=True, text=True, timeout=60
        )
        assert again.returncode == 1 and "already running" in again.stderr, again.stderr
        assert (state / "stack.json").read_text() == described

        stack = json.loads(described)
        pids = stack["pids"]
        assert {
            "arbiter",
            "ladder",
            "worker",
            "beat",
            "runner",
            "PrivatePostgres",
            "PrivateRedis",
        } <= set(pids)
        os.kill(stack["launcher"], signal.SIGINT)  # Ctrl-C, as `premiere up` receives it
        assert demo.wait(60) == 0, output.read_text()
        time.sleep(1)
        assert [name for name, pid in pids.items() if alive(pid)] == []
        assert not (state / "stack.json").exists()
    finally:
        if demo.poll() is None:
            os.killpg(demo.pid, signal.SIGKILL)
            demo.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
