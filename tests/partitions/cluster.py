"""Premiere's processes, each in a namespace of its own: PostgreSQL, Redis, arbiters, a worker
with beat, the ladder, and recording bots.

Services listen on their node's address only. The test process itself sits outside every
namespace: it reads the database through PostgreSQL's Unix socket (a file, not a network
link, so no cut reaches the observer) and reads the bots' records from files.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from psycopg.rows import dict_row

from premiere.children import UNPRIVILEGED, chown_tree
from premiere.db import create_database, upgrade
from premiere.services import postgres_bin, redis_server
from server.store import add_bot
from tests.guard import KEPT_TMPDIR, MARKER
from tests.partitions.net import Network, in_namespace

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PG_PORT = 5432
REDIS_PORT = 6379
GRPC_PORT = 50051
RECORDING_BOT = "tests.partitions.recording_bot:RecordingBot"
OPERATOR_TOKEN = "pmo_partitions-" + uuid.uuid4().hex
PEER_TOKEN = "partitions-peer-" + uuid.uuid4().hex
"""The arbiters link up on their peer ports (node address, a free port): the relay's
decisions between them cross those links, Redis only what a dropped link was carrying."""


@dataclass
class Proc:
    """One process of the cluster, on one node."""

    name: str
    node: str
    command: list[str]
    env: dict[str, str]
    log: Path
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                self.command,
                env=self.env,
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        self.starts += 1

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def send(self, signum: int) -> None:
        if self.running():
            assert self.process is not None
            os.killpg(self.process.pid, signum)

    def pause(self) -> None:
        self.send(signal.SIGSTOP)

    def resume(self) -> None:
        self.send(signal.SIGCONT)

    def stop(self, signum: int = signal.SIGTERM, grace: float = 10.0) -> None:
        if not self.running():
            return
        assert self.process is not None
        self.resume()
        self.send(signum)
        try:
            self.process.wait(grace)
        except subprocess.TimeoutExpired:
            self.send(signal.SIGKILL)
            self.process.wait(10)

    def tail(self, chars: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""


@dataclass
class Cluster:
    """The whole cast. `arbiter_settings` go to every arbiter (PREMIERE_* names)."""

    network: Network
    folder: Path
    arbiters: int = 2
    bots: Sequence[str] = ("alpha", "beta")
    arbiter_settings: dict[str, str] = field(default_factory=dict)
    weakness: str = ""
    """When set, the arbiters, the worker, beat and the ladder run weakened
    (`tests.partitions.weakened`): to show that a check fails without the code it guards."""
    procs: dict[str, Proc] = field(default_factory=dict)
    database: str = "partitions"
    tokens: dict[str, str] = field(default_factory=dict)

    # --- addresses -----------------------------------------------------------------------

    def address(self, node: str) -> str:
        return self.network.nodes[node].address

    @property
    def pg_sockets(self) -> Path:
        return self.folder / "pg" / "run"

    @property
    def observer_url(self) -> str:
        """The database through its Unix socket: the observer's own way in, never cut."""
        return f"postgresql://postgres@/{self.database}?host={self.pg_sockets}&port={PG_PORT}"

    @property
    def database_url(self) -> str:
        return f"postgresql://postgres@{self.address('pg')}:{PG_PORT}/{self.database}"

    @property
    def redis_url(self) -> str:
        return f"redis://{self.address('redis')}:{REDIS_PORT}/0"

    def arbiter_names(self) -> list[str]:
        return [f"arbiter{i}" for i in range(1, self.arbiters + 1)]

    def grpc_target(self, arbiter: str) -> str:
        return f"{self.address(arbiter)}:{GRPC_PORT}"

    # --- starting ------------------------------------------------------------------------

    def premiere_command(self, *args: str) -> list[str]:
        """`premiere ARGS`, weakened when the cluster is."""
        if self.weakness:
            return [sys.executable, "-m", "tests.partitions.weakened", *args]
        return [str(BIN / "premiere"), *args]

    def base_env(self) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith("PREMIERE_") or k in (MARKER, KEPT_TMPDIR)
        }
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
        # What the cluster's processes leave in a temporary folder (a killed worker's metrics,
        # beat's schedule) goes with the cluster's folder.
        temp = self.folder / "tmp"
        temp.mkdir(exist_ok=True)
        temp.chmod(0o1777)
        env["TMPDIR"] = str(temp)
        env.update(
            PREMIERE_DATABASE_URL=self.database_url,
            PREMIERE_REDIS_URL=self.redis_url,
            PREMIERE_OPERATOR_TOKEN=OPERATOR_TOKEN,
            PREMIERE_VALIDATION_MATCHES="0",
            PREMIERE_PLAINTEXT="true",
        )
        if self.weakness:
            env["PARTITIONS_WEAKEN"] = self.weakness
        return env

    def _proc(
        self, name: str, node: str, command: list[str], env: dict[str, str], user: str | None = None
    ) -> Proc:
        proc = Proc(
            name,
            node,
            in_namespace(self.network, node, command, user),
            env,
            self.folder / f"{name}.log",
        )
        self.procs[name] = proc
        return proc

    def start(self) -> None:
        """Every node, the database and Redis, the bots' tokens, and the arbiters (started,
        not yet awaited: `wait_serving_all`)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o755)
        for node in ("pg", "redis", *self.arbiter_names(), "workers", "ladder", *self.bots):
            self.network.add(node)
        self._prepare_database()
        self.start_redis()
        for name in self.bots:
            self.tokens[name] = add_bot(self.observer_url, name)
        for arbiter in self.arbiter_names():
            self.start_arbiter(arbiter)

    def wait_serving_all(self) -> None:
        for arbiter in self.arbiter_names():
            self.wait_serving(arbiter)

    def _prepare_database(self) -> None:
        """A migrated database: copied from a template made by the first run for these
        migrations (initdb and the migrations are most of a short scenario's start-up)."""
        data = self.folder / "pg" / "data"
        template = _template()
        if (template / "PG_VERSION").exists():
            shutil.copytree(template, data, symlinks=True)
            self.start_postgres()
            return
        self.start_postgres()
        create_database(self.observer_admin_url, self.database)
        upgrade(self.observer_url)
        self.procs["pg"].stop(signal.SIGINT)
        partial = template.with_name(f"{template.name}.{os.getpid()}")
        shutil.copytree(data, partial, symlinks=True, ignore=shutil.ignore_patterns("*.pid"))
        with contextlib.suppress(OSError):
            partial.rename(template)
        shutil.rmtree(partial, ignore_errors=True)
        self.start_postgres()

    @property
    def observer_admin_url(self) -> str:
        return f"postgresql://postgres@/postgres?host={self.pg_sockets}&port={PG_PORT}"

    def start_postgres(self) -> None:
        folder = self.folder / "pg"
        data = folder / "data"
        self.pg_sockets.mkdir(parents=True, exist_ok=True)
        chown_tree(folder, UNPRIVILEGED)
        if not (data / "PG_VERSION").exists():
            subprocess.run(
                in_namespace(
                    self.network,
                    "pg",
                    [str(postgres_bin() / "initdb"), "-D", str(data), "-U", "postgres",
                     "--auth=trust", "--encoding=UTF8", "--no-sync"],
                    UNPRIVILEGED,
                ),
                check=True, capture_output=True,
            )  # fmt: skip
            with (data / "pg_hba.conf").open("a") as hba:
                hba.write("host all all 10.77.0.0/16 trust\n")
        proc = self.procs.get("pg") or self._proc(
            "pg",
            "pg",
            [str(postgres_bin() / "postgres"), "-D", str(data), "-p", str(PG_PORT),
             "-h", self.address("pg"), "-k", str(self.pg_sockets), "-c", "fsync=off",
             "-c", "synchronous_commit=off", "-c", "max_connections=200"],
            dict(os.environ),
            UNPRIVILEGED,
        )  # fmt: skip
        proc.start()
        self._wait(
            lambda: psycopg.connect(self.observer_admin_url, connect_timeout=2).close(), proc
        )

    def restart_postgres(self, down_s: float = 1.5) -> None:
        self.procs["pg"].stop(signal.SIGINT)
        time.sleep(down_s)
        self.start_postgres()

    def start_redis(self) -> None:
        folder = self.folder / "redis"
        folder.mkdir(exist_ok=True)
        chown_tree(folder, UNPRIVILEGED)
        socket_path = folder / "redis.sock"
        proc = self._proc(
            "redis",
            "redis",
            [str(redis_server()), "--port", str(REDIS_PORT), "--bind", self.address("redis"),
             "--save", "", "--appendonly", "no", "--dir", str(folder),
             "--unixsocket", str(socket_path), "--unixsocketperm", "777"],
            dict(os.environ),
            UNPRIVILEGED,
        )  # fmt: skip
        proc.start()

        def ready() -> None:
            import redis

            redis.Redis(unix_socket_path=str(socket_path), socket_connect_timeout=1).ping()

        self._wait(ready, proc)

    def start_arbiter(self, name: str) -> Proc:
        proc = self.procs.get(name)
        if proc is None:
            env = (
                self.base_env()
                | {
                    "PREMIERE_ARBITER_NAME": name,
                    "PREMIERE_ARBITER_ADDRESS": self.grpc_target(name),
                    "PREMIERE_ARBITER_METRICS_PORT": "9100",
                    "PREMIERE_RELAY": "true",
                    "PREMIERE_PEER_TOKEN": PEER_TOKEN,
                    "PREMIERE_LEASE_S": "3",
                    "PREMIERE_LEASE_RENEW_S": "0.5",
                    "PREMIERE_MOVE_TIME_MS": "400",
                    "PREMIERE_TIME_BANK_MS": "2000",
                    "PREMIERE_RESUME_GRACE_S": "20",
                    "PREMIERE_START_GRACE_S": "30",
                }
                | self.arbiter_settings
            )
            proc = self._proc(name, name, self.premiere_command("arbiter"), env)
        proc.start()
        return proc

    def wait_serving(self, arbiter: str, timeout: float = 120) -> None:
        """Until the arbiter's log says it serves (the observer has no route to its port)."""
        proc = self.procs[arbiter]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not proc.running():
                raise RuntimeError(f"{arbiter} exited:\n{proc.tail()}")
            if self._port_open(arbiter, GRPC_PORT):
                return
            time.sleep(0.2)
        raise TimeoutError(f"{arbiter} does not serve:\n{proc.tail()}")

    def _port_open(self, node: str, port: int) -> bool:
        probe = "import socket,sys; socket.create_connection((sys.argv[1], int(sys.argv[2])), 1)"
        command = [sys.executable, "-c", probe, self.address(node), str(port)]
        result = subprocess.run(
            in_namespace(self.network, node, command), capture_output=True, check=False
        )
        return result.returncode == 0

    def start_bot(
        self, name: str, arbiter: str, answer_s: float = 0.0, late_s: float = 0.0
    ) -> Proc:
        """A recording bot on its own node, connected to `arbiter`, answering after
        `answer_s` seconds (one decision a match after `late_s`, when set)."""
        proc = self.procs.get(name)
        if proc is None:
            env = self.base_env() | {
                "PREMIERE_BOT_TOKEN": self.tokens[name],
                "PARTITIONS_RECORD": str(self.folder / f"{name}.jsonl"),
                "PARTITIONS_BOT": name,
                "PARTITIONS_ANSWER_S": str(answer_s),
                "PARTITIONS_LATE_S": str(late_s),
            }
            command = [str(BIN / "premiere-bot"), "run", RECORDING_BOT, "--arbiter",
                       self.grpc_target(arbiter)]  # fmt: skip
            proc = self._proc(name, name, command, env)
        proc.start()
        return proc

    def start_workers(self, arbiter: str) -> None:
        """A worker and beat (one node: they share a host in a deployment too), and the
        ladder on a node of its own; matches are created on `arbiter`."""
        env = self.base_env() | {
            "PREMIERE_QUEUE": f"partitions-{uuid.uuid4().hex[:6]}",
            "PREMIERE_TICK_SECONDS": "1",
            "PREMIERE_VISIBILITY_TIMEOUT_S": "8",
            "PREMIERE_ARBITER_TARGET": self.grpc_target(arbiter),
            "PREMIERE_WORKER_METRICS_PORT": "9101",
        }
        self.workers_env = env
        premiere = self.premiere_command
        self._proc("worker", "workers", premiere("worker", "--concurrency", "2"), env).start()
        self._proc("beat", "workers", premiere("beat"), env).start()
        ladder = premiere("ladder", "--grpc-address", f"{self.address('ladder')}:50052",
                          "--http-address", f"{self.address('ladder')}:8080", "--interval",
                          "0.5", "--no-migrate")  # fmt: skip
        self._proc("ladder", "ladder", ladder, env).start()

    def _premiere(self, *args: str) -> str:
        """`premiere ARGS` from the observer, on the database's Unix socket."""
        env = self.base_env() | {"PREMIERE_DATABASE_URL": self.observer_url}
        result = subprocess.run(
            [str(BIN / "premiere"), *args], env=env, capture_output=True, text=True, check=False
        )
        if result.returncode != 0:
            raise RuntimeError(f"premiere {' '.join(args)}: {result.stderr}")
        return result.stdout

    def create_league(self, name: str, bots: Sequence[str], rounds: int = 1) -> None:
        self._premiere(
            "league", "create", "--name", name, "--game", "magic-trick", "--format", "duplicate",
            "--players", "3", "--rounds", str(rounds), "--bots", ",".join(bots),
        )  # fmt: skip

    # --- reading -------------------------------------------------------------------------

    def rows(self, sql: str, *params: Any) -> list[dict[str, Any]]:
        with psycopg.connect(self.observer_url, row_factory=dict_row, connect_timeout=5) as conn:
            return conn.execute(sql, params).fetchall()

    def owner_of(self, arbiter: str) -> str:
        return f"{arbiter}/"

    def wait_for(self, what: str, check: Any, timeout: float, poll: float = 0.2) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = check()
            if value:
                return value
            time.sleep(poll)
        logs = "\n".join(f"--- {p.name}\n{p.tail(1500)}" for p in self.procs.values())
        raise TimeoutError(f"{what} (after {timeout:g} s)\n{logs}")

    def streams_on(self, arbiter: str) -> list[str]:
        """The bots holding a live stream on `arbiter` (their presence in Redis, read through
        its Unix socket, which no cut reaches)."""
        import redis

        client = redis.Redis(unix_socket_path=str(self.folder / "redis" / "redis.sock"))
        try:
            present = [
                key.decode().rsplit(":", 1)[-1]
                for key in client.scan_iter(match="*:bot:*", _type="hash")
                if any(f.decode().startswith(f"{arbiter}/") for f in client.hkeys(key))
            ]
        finally:
            client.close()
        names = {str(r["id"]): r["name"] for r in self.rows("SELECT id, name FROM bots")}
        return sorted(names[bot_id] for bot_id in present if bot_id in names)

    def hosted_by(self, arbiter: str) -> list[str]:
        """The running matches whose lease `arbiter` holds now."""
        return [
            r["id"]
            for r in self.rows(
                "SELECT m.id::text AS id FROM matches m JOIN match_leases l ON l.match_id = m.id"
                " WHERE m.status = 'running' AND l.owner LIKE %s AND l.expires_at > now()",
                f"{arbiter}/%",
            )
        ]

    def stop(self, grace: float = 5.0) -> None:
        """Every process asked to stop at once (PostgreSQL with a fast shutdown), then killed
        once `grace` has passed."""
        running = [p for p in self.procs.values() if p.running()]
        for proc in running:
            proc.resume()
            proc.send(signal.SIGINT if proc.name == "pg" else signal.SIGTERM)
        deadline = time.monotonic() + grace
        for proc in running:
            assert proc.process is not None
            try:
                proc.process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.send(signal.SIGKILL)
                proc.process.wait(10)

    @staticmethod
    def _wait(check: Any, proc: Proc, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not proc.running():
                raise RuntimeError(f"{proc.name} exited at start:\n{proc.tail()}")
            try:
                check()
                return
            except Exception:
                time.sleep(0.1)
        raise TimeoutError(f"{proc.name} not ready:\n{proc.tail()}")


def _template() -> Path:
    """Where the migrated data directory for this tree's migrations is kept between runs."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "premiere" / "migrations").iterdir()):
        digest.update(path.name.encode() + path.read_bytes())
    digest.update(str(postgres_bin()).encode())
    # Kept between runs: not in a guarded run's own temporary folder (tests/guard.py).
    kept = os.environ.get(KEPT_TMPDIR) or tempfile.gettempdir()
    return Path(kept) / f"premiere-partitions-pg-{digest.hexdigest()[:16]}"


@contextmanager
def running_cluster(folder: Path, **options: Any) -> Iterator[Cluster]:
    network = Network()
    network.start()
    cluster = Cluster(network, folder, **options)
    try:
        cluster.start()
        yield cluster
    finally:
        network.heal_all()
        for proc in cluster.procs.values():
            proc.resume()
        cluster.stop()
        network.close()
