"""`premiere up`: nothing outlives it, and Prometheus itself scrapes its metrics. The demo from
a fresh clone, its clean exit and the CLI beside it: tests/integration/test_newcomer.py."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.integration.services import BIN, ROOT, free_port


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return status.exists() and "State:\tZ" not in status.read_text()


class Up:
    """`premiere up` in a process group of its own, on free ports, with its own state folder."""

    def __init__(self, *args: str, private: bool, **extra: str) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="premiere-up-"))
        self.folder.chmod(0o755)
        self.http = f"127.0.0.1:{free_port()}"
        self.ports = {
            "arbiter": free_port(),
            "arbiter_metrics": free_port(),
            "worker_metrics": free_port(),
            "runner_metrics": free_port(),
        }
        env = dict(os.environ)
        if private:
            env.pop("PREMIERE_DATABASE_URL", None)
            env.pop("PREMIERE_REDIS_URL", None)
        env.update(
            PREMIERE_STATE_DIR=str(self.folder),
            PREMIERE_ARBITER_ADDRESS=f"127.0.0.1:{self.ports['arbiter']}",
            PREMIERE_ARBITER_TARGET=f"127.0.0.1:{self.ports['arbiter']}",
            PREMIERE_ARBITER_METRICS_PORT=str(self.ports["arbiter_metrics"]),
            PREMIERE_WORKER_METRICS_PORT=str(self.ports["worker_metrics"]),
            PREMIERE_RUNNER_METRICS_PORT=str(self.ports["runner_metrics"]),
            PREMIERE_LADDER_GRPC_ADDRESS=f"127.0.0.1:{free_port()}",
            PREMIERE_LADDER_HTTP_ADDRESS=self.http,
            PREMIERE_QUEUE=f"premiere-up-{free_port()}",
            PREMIERE_TICK_SECONDS="1",
            **extra,
        )
        self.output = self.folder / "up.out"
        self.process = subprocess.Popen(
            [str(BIN / "premiere"), "up", *args],
            env=env,
            cwd=ROOT,
            stdout=self.output.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_for(self, text: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.output.read_text():
                return
            assert self.process.poll() is None, self.output.read_text() + self.logs()
            time.sleep(0.5)
        raise TimeoutError(
            f"no {text!r} after {timeout} s:\n{self.output.read_text()}{self.logs()}"
        )

    def logs(self) -> str:
        return "".join(
            f"\n--- {p.name}\n{p.read_text()[-1500:]}" for p in (self.folder / "logs").glob("*.log")
        )

    def description(self) -> dict[str, Any]:
        self.wait_for("logs and stack.json", 120)
        data: dict[str, Any] = json.loads((self.folder / "stack.json").read_text())
        return data

    def close(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        shutil.rmtree(self.folder, ignore_errors=True)


def leaderboard_players(http: str, game: str, timeout: float = 30) -> set[str]:
    """The players on a game's ladder, once the ladder has rated what has finished."""
    deadline = time.monotonic() + timeout
    while True:
        url = f"http://{http}/api/games/{game}/leaderboard"
        with urllib.request.urlopen(url, timeout=10) as reply:
            players = {entry["player"] for entry in json.load(reply)["entries"]}
        if len(players) >= 2 or time.monotonic() > deadline:
            return players
        time.sleep(1)


@pytest.fixture
def up_factory() -> Iterator[list[Up]]:
    stacks: list[Up] = []
    yield stacks
    for stack in stacks:
        stack.close()


def test_nothing_outlives_a_killed_launcher(up_factory: list[Up]) -> None:
    stack = Up("--no-demo", private=True)
    up_factory.append(stack)
    pids = stack.description()["pids"]
    stack.process.kill()
    stack.process.wait(10)
    deadline = time.monotonic() + 20
    while any(alive(pid) for pid in pids.values()) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert [name for name, pid in pids.items() if alive(pid)] == []


def test_prometheus_scrapes_every_service(up_factory: list[Up], tmp_path: Path) -> None:
    binary = shutil.which("prometheus")
    assert binary, "Debian's prometheus is needed: apt-get install prometheus (make test does)"
    stack = Up("--no-demo", private="PREMIERE_DATABASE_URL" not in os.environ)
    up_factory.append(stack)
    stack.description()
    targets = {
        "arbiter": f"127.0.0.1:{stack.ports['arbiter_metrics']}",
        "worker": f"127.0.0.1:{stack.ports['worker_metrics']}",
        "ladder": stack.http,
        # make test installs bubblewrap, so premiere up starts the runner.
        "runner": f"127.0.0.1:{stack.ports['runner_metrics']}",
    }
    config = tmp_path / "prometheus.yml"
    config.write_text(
        "global:\n  scrape_interval: 1s\nscrape_configs:\n"
        + "".join(
            f"  - job_name: {job}\n    static_configs:\n      - targets: ['{target}']\n"
            for job, target in targets.items()
        )
    )
    port = free_port()
    prometheus = subprocess.Popen(
        [
            binary,
            f"--config.file={config}",
            f"--storage.tsdb.path={tmp_path / 'data'}",
            f"--web.listen-address=127.0.0.1:{port}",
        ],
        stdout=(tmp_path / "prometheus.log").open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        api = f"http://127.0.0.1:{port}/api/v1"
        deadline = time.monotonic() + 60
        healthy: dict[str, str] = {}
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{api}/targets", timeout=5) as reply:
                    active = json.load(reply)["data"]["activeTargets"]
                healthy = {t["labels"]["job"]: t["health"] for t in active}
                if healthy == dict.fromkeys(targets, "up"):
                    break
            except OSError:
                pass
            time.sleep(0.5)
        assert healthy == dict.fromkeys(targets, "up"), (tmp_path / "prometheus.log").read_text()
        for job, metric in (
            ("arbiter", "premiere_arbiter_connected_bots"),
            ("worker", "premiere_worker_queue_depth"),
            ("ladder", "premiere_ladder_rating_queue"),
            ("runner", "premiere_runner_hosted_bots"),
        ):
            query = urllib.parse.quote(f'{metric}{{job="{job}"}}')
            deadline = time.monotonic() + 30
            while True:
                with urllib.request.urlopen(f"{api}/query?query={query}", timeout=5) as reply:
                    result = json.load(reply)["data"]["result"]
                if result or time.monotonic() > deadline:
                    break
                time.sleep(1)
            assert result, f"{metric} not scraped from {job}"
    finally:
        prometheus.terminate()
        prometheus.wait(10)
