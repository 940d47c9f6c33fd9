"""A real stack for the spectator-page tests: a scratch database, the arbiter, Celery worker and
beat, and `premiere ladder` dialling the arbiter for its live pages."""

from __future__ import annotations

import json
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.integration.services import (
    BIN,
    Arbiter,
    Workers,
    create_match,
    free_port,
    scratch_database,
)


@dataclass
class Stack:
    arbiter: Arbiter
    workers: Workers
    ladder: subprocess.Popen[bytes]
    http: str
    folder: Path

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.http + path, timeout=10) as reply:
            return json.loads(reply.read())

    def status(self, path: str) -> int:
        try:
            with urllib.request.urlopen(self.http + path, timeout=10) as reply:
                return int(reply.status)
        except urllib.error.HTTPError as error:
            return int(error.code)

    def match(self, game: str, seats: list[str], **clock: int) -> str:
        return create_match(self.arbiter.matches(), seats, "", game=game, **clock)

    def log(self, name: str) -> str:
        path = self.folder / name
        return path.read_text()[-4000:] if path.exists() else ""


def _wait_http(url: str, process: subprocess.Popen[bytes], log: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"premiere ladder exited: {log.read_text()[-4000:]}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"ladder not serving: {log.read_text()[-4000:]}")


@contextmanager
def running_stack(folder: Path, workers: bool = True, **ladder_env: str) -> Iterator[Stack]:
    folder.mkdir(parents=True, exist_ok=True)
    with scratch_database() as url:
        arbiter = Arbiter(url, free_port(), free_port())
        arbiter.start(folder / "arbiter.log")
        crew = Workers(arbiter, folder)
        ladder = None
        try:
            if workers:
                crew.start_worker()
                crew.start_beat()
            http = f"127.0.0.1:{free_port()}"
            env = crew.env() | ladder_env
            log = folder / "ladder.log"
            ladder = subprocess.Popen(
                [
                    str(BIN / "premiere"),
                    "ladder",
                    "--grpc-address",
                    f"127.0.0.1:{free_port()}",
                    "--http-address",
                    http,
                    "--interval",
                    "0.3",
                    "--no-migrate",
                ],
                env=env,
                cwd=folder,
                stdout=log.open("ab"),
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            _wait_http(f"http://{http}", ladder, log)
            yield Stack(arbiter, crew, ladder, f"http://{http}", folder)
        finally:
            if ladder is not None and ladder.poll() is None:
                ladder.terminate()
                try:
                    ladder.wait(15)
                except subprocess.TimeoutExpired:
                    ladder.kill()
            crew.stop()
            arbiter.stop()
