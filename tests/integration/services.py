"""Real services for integration tests: a scratch database, an arbiter process, bot processes."""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import psycopg
from grpc_health.v1 import health_pb2, health_pb2_grpc
from psycopg import sql

from premiere.db import MIGRATIONS, create_database, drop_database, upgrade
from premiere.services import PrivatePostgres, PrivateRedis
from premiere.stack import PROMPT_RECONNECT
from premiere_wire import match_pb2, match_pb2_grpc
from tests.processes import spawn

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


_private: dict[str, Any] = {}


def _private_folder() -> Path:
    """Under /tmp and world-traversable: the private servers may run as an unprivileged user."""
    folder = Path(tempfile.mkdtemp(prefix="premiere-test-services-"))
    folder.chmod(0o755)
    atexit.register(shutil.rmtree, folder, True)
    return folder


def _private_server(kind: str, make: Callable[[Path], PrivatePostgres | PrivateRedis]) -> Any:
    """One private server of a kind per test process, started on first use."""
    if kind not in _private:
        server = make(_private_folder() / kind)
        server.start()
        atexit.register(server.stop)
        _private[kind] = server
    return _private[kind]


def admin_url() -> str:
    """Where scratch databases are made: PREMIERE_DATABASE_URL's server when it is set, else a
    private PostgreSQL started for this test process (and gone with it)."""
    url = (
        os.environ.get("PREMIERE_DATABASE_URL")
        or _private_server("postgres", PrivatePostgres).admin_url
    )
    base, _, _ = url.rpartition("/")
    return f"{base}/postgres"


def redis_url() -> str:
    """PREMIERE_REDIS_URL when set, else a private Redis for this test process."""
    return os.environ.get("PREMIERE_REDIS_URL") or str(_private_server("redis", PrivateRedis).url)


def _migrations_digest() -> str:
    """The migrations this process would apply (under `make mutants`, the scratch copy's)."""
    digest = hashlib.sha256()
    for path in sorted(MIGRATIONS.iterdir()):
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


_templates: dict[str, str] = {}


def migrated_template(admin: str) -> str:
    """A database migrated once per server and set of migrations, which scratch databases are
    copied from (CREATE DATABASE ... TEMPLATE: a file copy, where running every migration
    takes seconds). Built under a name of its own and renamed when complete, so nobody copies
    a half-migrated one or connects to the finished one (a template must have no sessions);
    a name is never rebuilt: any change to a migration makes another name."""
    name = f"premiere_template_{_migrations_digest()}"
    if _templates.get(admin) == name:
        return name
    with psycopg.connect(admin, autocommit=True) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
    if not found:
        building = f"premiere_building_{uuid.uuid4().hex[:12]}"
        create_database(admin, building)
        try:
            upgrade(admin.rpartition("/")[0] + f"/{building}")
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                    (building,),
                )
                # Another process may have finished the same template first.
                with contextlib.suppress(psycopg.errors.DuplicateDatabase):
                    conn.execute(
                        sql.SQL("ALTER DATABASE {} RENAME TO {}").format(
                            sql.Identifier(building), sql.Identifier(name)
                        )
                    )
        finally:
            drop_database(admin, building)
    _templates[admin] = name
    return name


@contextmanager
def scratch_database() -> Iterator[str]:
    """A fresh database with every migration applied, dropped afterwards."""
    name = f"premiere_test_{uuid.uuid4().hex[:12]}"
    admin = admin_url()
    template = migrated_template(admin)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(template)
            )
        )
    url = admin.rpartition("/")[0] + f"/{name}"
    try:
        yield url
    finally:
        drop_database(admin, name)


def premiere_cli(env: dict[str, str], *args: str) -> str:
    """`premiere ARGS` in ``env``; its output, or RuntimeError with what it said."""
    result = subprocess.run(
        [str(BIN / "premiere"), *args], env=env, capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        raise RuntimeError(f"premiere {' '.join(args)} failed: {result.stderr}")
    return result.stdout


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


OPERATOR_TOKEN = "pmo_test-operator-" + uuid.uuid4().hex


class _Operator(grpc.UnaryUnaryClientInterceptor):  # type: ignore[type-arg]
    """Sends the operator's token with every call that carries no authorization of its own."""

    def __init__(self, token: str) -> None:
        self.token = token

    def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        metadata = list(details.metadata or ())
        if not any(key == "authorization" for key, _ in metadata):
            metadata.append(("authorization", f"Bearer {self.token}"))
        return continuation(details._replace(metadata=metadata), request)


@dataclass
class Arbiter:
    database_url: str
    port: int
    metrics_port: int
    process: subprocess.Popen[bytes] | None = None
    log_path: Path | None = None
    settings: dict[str, str] = field(default_factory=dict)
    tls_ca: bytes | None = None
    """Set when the arbiter serves TLS: the PEM the test clients trust."""

    def channel(self, options: Sequence[tuple[str, Any]] = ()) -> grpc.Channel:
        if self.tls_ca is None:
            return grpc.insecure_channel(self.address, options=options)
        credentials = grpc.ssl_channel_credentials(root_certificates=self.tls_ca)
        return grpc.secure_channel(self.address, credentials, options=options)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def env(self, **extra: str) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            PREMIERE_DATABASE_URL=self.database_url,
            PREMIERE_ARBITER_ADDRESS=self.address,
            PREMIERE_ARBITER_METRICS_PORT=str(self.metrics_port),
            PREMIERE_RESUME_GRACE_S="20",
            PREMIERE_START_GRACE_S="60",
            PREMIERE_OPERATOR_TOKEN=OPERATOR_TOKEN,
            # Tests about other things seat freshly connected bots in rated play at once; the
            # gate's own tests (test_standing.py) set their numbers.
            PREMIERE_VALIDATION_MATCHES="0",
        )
        env.update(self.settings)
        env.update(extra)
        return env

    def start(self, log_path: Path) -> None:
        self.log_path = log_path
        with log_path.open("ab") as log:
            self.process = spawn(
                [str(BIN / "premiere"), "arbiter"],
                env=self.env(),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        try:
            self.wait_healthy()
        except BaseException:
            self.kill()  # a caller whose start failed has nothing to stop
            raise

    def wait_healthy(self, timeout: float = 90.0) -> None:
        """Until the arbiter serves; the time includes its interpreter's start, which takes
        half a minute on two cores shared with other test runs."""
        deadline = time.monotonic() + timeout
        with self.channel(PROMPT_RECONNECT) as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            while time.monotonic() < deadline:
                assert self.process is not None
                if self.process.poll() is not None:
                    raise RuntimeError(f"arbiter exited: {self.log()}")
                try:
                    reply = stub.Check(health_pb2.HealthCheckRequest(), timeout=1)
                    if reply.status == health_pb2.HealthCheckResponse.SERVING:
                        return
                except grpc.RpcError:
                    pass
                time.sleep(0.1)
        raise TimeoutError(f"arbiter not healthy: {self.log()}")

    def healthy(self) -> bool:
        with self.channel() as channel:
            reply = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(), timeout=5
            )
            return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def log(self) -> str:
        return self.log_path.read_text()[-4000:] if self.log_path else ""

    def add_bot(self, name: str) -> str:
        result = subprocess.run(
            [str(BIN / "premiere"), "bots", "add", name],
            env=self.env(),
            capture_output=True,
            text=True,
            check=True,
        )
        return result.stdout.strip()

    def cli(self, *args: str) -> str:
        """`premiere ARGS` on this arbiter's database, as its operator runs it."""
        return premiere_cli(self.env(), *args)

    def admit(self, bot: str, games: Sequence[str], state: str = "rated") -> None:
        """Give ``bot`` the standing the workers would after it passed validation in ``games``
        (for tests that run no workers)."""
        import psycopg

        with psycopg.connect(self.database_url, autocommit=True) as conn:
            conn.execute(
                "INSERT INTO bot_standing (bot, state) VALUES (%s, %s)"
                " ON CONFLICT (bot) DO UPDATE SET state = EXCLUDED.state",
                (bot, state),
            )
            conn.execute(
                "INSERT INTO lineage_validations (family, game, bot)"
                " SELECT l.family, g, %s FROM bot_lineage l, unnest(%s::text[]) g"
                " WHERE l.name = %s ON CONFLICT DO NOTHING",
                (bot, list(games), bot),
            )

    def matches(self) -> match_pb2_grpc.MatchServiceStub:
        """A client holding the operator's token (so it may create matches)."""
        operator = self.settings.get("PREMIERE_OPERATOR_TOKEN", OPERATOR_TOKEN)
        channel = grpc.intercept_channel(self.channel(), _Operator(operator))
        return match_pb2_grpc.MatchServiceStub(channel)

    def anonymous(self) -> match_pb2_grpc.MatchServiceStub:
        """A client with no credentials at all: what anybody on the network can do."""
        return match_pb2_grpc.MatchServiceStub(self.channel())


def start_bot(
    arbiter: Arbiter,
    spec: str,
    token: str,
    log_path: Path,
    extra: Sequence[str] = (),
    environment: Mapping[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """A bot process run exactly as a user runs one: `premiere-bot run module:Class`, with
    this process's environment and ``environment`` on top."""
    env = dict(os.environ) | dict(environment or {})
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    return spawn(
        [
            str(BIN / "premiere-bot"),
            "run",
            spec,
            "--arbiter",
            arbiter.address,
            *extra,
        ],
        env=env | {"PREMIERE_BOT_TOKEN": token},
        cwd=ROOT,
        stdout=log_path.open("ab"),
        stderr=subprocess.STDOUT,
    )


def create_match(
    stub: match_pb2_grpc.MatchServiceStub,
    seats: Sequence[str],
    seed: str,
    game: str = "magic-trick",
    move_time_ms: int = 0,
    time_bank_ms: int = 0,
    strike_limit: int = 0,
) -> str:
    """Seats are bot names, or "builtin:<name>"."""
    request = match_pb2.CreateMatchRequest(game=game, seed=seed)
    for seat in seats:
        if seat.startswith("builtin:"):
            request.seats.add(builtin=seat.removeprefix("builtin:"))
        else:
            request.seats.add(bot=seat)
    request.time_control.move_time_ms = move_time_ms
    request.time_control.time_bank_ms = time_bank_ms
    request.time_control.strike_limit = strike_limit
    return str(stub.CreateMatch(request, timeout=10).match_id)


def wait_ended(
    stub: match_pb2_grpc.MatchServiceStub, match_id: str, timeout: float = 120
) -> match_pb2.Match:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        match = stub.GetMatch(match_pb2.GetMatchRequest(match_id=match_id), timeout=10).match
        if match.status in (match_pb2.MATCH_STATUS_FINISHED, match_pb2.MATCH_STATUS_VOID):
            return match
        time.sleep(0.2)
    raise TimeoutError(f"match {match_id} did not end")


@dataclass
class Workers:
    """A Celery worker and beat run as `premiere worker` and `premiere beat` processes."""

    arbiter: Arbiter
    folder: Path
    queue: str = field(default_factory=lambda: f"premiere-test-{uuid.uuid4().hex[:8]}")
    metrics_port: int = field(default_factory=free_port)
    worker: subprocess.Popen[bytes] | None = None
    beat: subprocess.Popen[bytes] | None = None
    ladder: subprocess.Popen[bytes] | None = None
    restarts: int = 0
    ladder_http: str = ""
    """The ladder's HTTP base URL once started, e.g. http://127.0.0.1:8123."""

    def env(self) -> dict[str, str]:
        # What a worker or beat leaves in a temporary folder when it is killed (its metrics
        # folder, beat's schedule) stays in the test's folder, not the run's.
        temp = self.folder / "tmp"
        temp.mkdir(parents=True, exist_ok=True)
        return self.arbiter.env(
            TMPDIR=str(temp),
            PREMIERE_REDIS_URL=redis_url(),
            PREMIERE_QUEUE=self.queue,
            PREMIERE_TICK_SECONDS="1",
            PREMIERE_VISIBILITY_TIMEOUT_S="8",
            PREMIERE_ARBITER_TARGET=self.arbiter.address,
            PREMIERE_WORKER_METRICS_PORT=str(self.metrics_port),
        )

    def _spawn(self, *args: str, log: str) -> subprocess.Popen[bytes]:
        return spawn(
            [str(BIN / "premiere"), *args],
            env=self.env(),
            cwd=self.folder,
            stdout=(self.folder / log).open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def start_worker(self) -> None:
        self.worker = self._spawn("worker", "--concurrency", "2", log=f"worker-{self.restarts}.log")

    def start_beat(self, log: str = "beat.log") -> subprocess.Popen[bytes]:
        self.beat = self._spawn("beat", log=log)
        return self.beat

    def start_ladder(self) -> subprocess.Popen[bytes]:
        """`premiere ladder`: the one process that rates finished matches."""
        http = f"127.0.0.1:{free_port()}"
        self.ladder_http = f"http://{http}"
        self.ladder = self._spawn(
            "ladder",
            "--grpc-address",
            f"127.0.0.1:{free_port()}",
            "--http-address",
            http,
            "--interval",
            "0.5",
            "--no-migrate",
            log="ladder.log",
        )
        return self.ladder

    def kill_worker(self) -> None:
        """kill -9 the worker's whole process group: the main process and its children."""
        import signal

        if self.worker is not None and self.worker.poll() is None:
            os.killpg(self.worker.pid, signal.SIGKILL)
            self.worker.wait(10)
        self.restarts += 1

    def stop(self) -> None:
        import signal

        for process in (self.worker, self.beat, self.ladder):
            if process is not None and process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(15)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)

    def cli(self, *args: str) -> str:
        return premiere_cli(self.env(), *args)
