"""`premiere up`: the whole local stack as child processes, plus a demo league per game.

Services named by PREMIERE_DATABASE_URL / PREMIERE_REDIS_URL are used as they are; whichever
is not named is started privately (premiere.services). Every process started here is our
child with a parent-death signal, so none outlives `premiere up`, even after a SIGKILL; and
`premiere up` adopts its descendants' orphans and ends every descendant left when it stops
(`shut_down`), so an interrupt at any moment of the start-up leaves nothing running.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

import games
from premiere.children import end_descendants, reap_orphans, spawn, stop
from premiere.config import Settings
from premiere.db import create_database, upgrade
from premiere.services import PrivatePostgres, PrivateRedis
from premiere.state import MARKER, running_stack

DEMO_BOTS = ("builtin:random", "builtin:heuristic", "builtin:first", "builtin:search:100")
"""The demo's opponents for the example bot: from a random player up to the lighter search level,
a bot worth beating (a second or two of CPU a match in every game)."""
EXAMPLE_BOT = "demo-example"
EXAMPLE_CLASS = "premiere_bot.examples.random_bot:RandomBot"
HOSTED_EXAMPLE = "demo-hosted"
HOSTED_EXAMPLE_GAMES = ("magic-trick", "movie-tricks")
"""The games clients/python/hosted/premiere-bot.toml claims."""


PROMPT_RECONNECT = (
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 500),
)
"""Channel options for waiting on a server that is starting: by default gRPC waits a second,
then longer, before it dials a refused address again, so a server that came up just after the
first try was found a second or more late (every `premiere up`, every test's arbiter)."""


@dataclass
class Stack:
    """The stack's configuration: this process's environment as it was when the stack was
    made, completed by the stack (database, Redis, operator token) and handed to its children.

    A copy, not ``os.environ`` itself: what one stack adds must not leak into anything else
    this process starts afterwards (a second stack, a test's own servers)."""

    folder: Path
    private: list[PrivatePostgres | PrivateRedis] = field(default_factory=list)
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    example_bot: str = EXAMPLE_BOT
    hosting: str | None = "not started"
    """None when hosted bots run (the runner is started); else why not."""
    env: dict[str, str] = field(default_factory=lambda: dict(os.environ))

    @property
    def settings(self) -> Settings:
        """The shared settings as the stack's children read them: from ``env``."""
        given = {
            name: self.env[variable]
            for name in Settings.model_fields
            if (variable := f"PREMIERE_{name.upper()}") in self.env
        }
        return Settings.model_validate(given)

    def start_services(self) -> None:
        """Use the configured PostgreSQL and Redis, or start private ones."""
        self.folder.mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o755)
        (self.folder / MARKER).write_text("Premiere's local stack: data, logs, stack.json\n")
        if "PREMIERE_DATABASE_URL" not in self.env:
            postgres = PrivatePostgres(self.folder / "postgres")
            self.private.append(postgres)  # before it starts: an interrupt there stops it too
            postgres.start()
            create_database(postgres.admin_url, "premiere")
            self.env["PREMIERE_DATABASE_URL"] = postgres.url("premiere")
        if "PREMIERE_REDIS_URL" not in self.env:
            cache = PrivateRedis(self.folder / "redis")
            self.private.append(cache)
            cache.start()
            self.env["PREMIERE_REDIS_URL"] = cache.url
        upgrade(self.env["PREMIERE_DATABASE_URL"])

    def start_processes(self) -> None:
        logs = self.folder / "logs"
        logs.mkdir(exist_ok=True)
        # The services' temporary files (a worker's metrics, beat's schedule) in the state
        # folder, emptied at every start: even a killed stack's are gone at the next.
        temp = self.folder / "tmp"
        shutil.rmtree(temp, ignore_errors=True)
        temp.mkdir()
        temp.chmod(0o1777)
        self.env["TMPDIR"] = str(temp)
        premiere = str(Path(sys.executable).parent / "premiere")
        self.env.setdefault("PREMIERE_ARBITER_TARGET", self.settings.arbiter_address)
        # Fail closed: the arbiter creates matches only for this token, which its workers get
        # through the environment (never a command line) and nobody else is told.
        if not self.env.get("PREMIERE_OPERATOR_TOKEN"):
            self.env["PREMIERE_OPERATOR_TOKEN"] = "pmo_" + secrets.token_urlsafe(32)
        # One machine is a bot author's own stack: their bots may ask for rated matches.
        self.env.setdefault("PREMIERE_CHALLENGES", "rated")
        self.env.setdefault("PREMIERE_SIGNUP", "open")
        self.hosting = self._hosting()
        services = [
            ("arbiter", ["arbiter", "--no-migrate"]),
            ("ladder", ["ladder"]),
            ("worker", ["worker"]),
            ("beat", ["beat"]),
        ]
        if self.hosting is None:
            self.env.setdefault("PREMIERE_HOSTED", "true")
            self.env.setdefault("PREMIERE_RUNNER_WORK", str(self.folder / "runner"))
            # One machine: hosted bots reach the arbiter's own socket, with no relay between.
            self.env.setdefault("PREMIERE_ARBITER_SOCKET", str(self.folder / "arbiter.sock"))
            self.env.setdefault(
                "PREMIERE_RUNNER_ARBITER_SOCKET", self.env["PREMIERE_ARBITER_SOCKET"]
            )
            services.append(("runner", ["runner"]))
        for name, args in services:
            log = (logs / f"{name}.log").open("ab")
            self.processes[name] = spawn([premiere, *args], env=self.env, log=log, cwd=self.folder)
        self._wait_for_arbiter()

    def _hosting(self) -> str | None:
        """None when hosted bots can run here (a sandbox works, the state folder is reachable
        by the sandbox users); otherwise the one line saying why not and what to install."""
        from hosting.runtime import readable_by_others
        from hosting.sandbox import Unavailable, detect

        if self.env.get("PREMIERE_HOSTED", "").lower() in ("0", "false", "no", "off"):
            return "hosted bots are off (PREMIERE_HOSTED)"
        try:
            detect(self.env.get("PREMIERE_RUNNER_BWRAP"))
        except Unavailable as error:
            return str(error)
        if os.geteuid() == 0 and not readable_by_others(self.folder):
            return (
                f"hosted bots are off: the sandbox users cannot reach {self.folder} (a folder"
                " above it is its owner's only)"
            )
        return None

    def start_hosted_example(self) -> str | None:
        """Upload the SDK's example bundle (clients/python/hosted) once, as the demo
        account's bot, so the demo leagues of the games it plays seat a hosted bot; its
        name, or None when hosted bots cannot run here."""
        if self.hosting is not None:
            return None
        from premiere_wire.bundle import Caps, pack
        from server import accounts, bundles

        folder = Path(__file__).resolve().parents[1] / "clients" / "python" / "hosted"
        saved = self.folder / "hosted-example.json"
        if saved.exists():
            return str(json.loads(saved.read_text())["name"])
        if not folder.is_dir():
            return None
        url = self.env["PREMIERE_DATABASE_URL"]
        name = HOSTED_EXAMPLE
        try:
            token = accounts.create_account(url, name, "open")
        except accounts.Exists:  # another state folder's demo on the same database
            name = f"{HOSTED_EXAMPLE}-{secrets.token_hex(3)}"
            token = accounts.create_account(url, name, "open")
        account = accounts.account_by_token(url, token)
        assert account is not None
        accounts.create_bot(url, account, name, 1)
        bundles.store(url, account, name, "", pack(folder), Caps(), 256 << 20, None)
        fd = os.open(saved, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(json.dumps({"name": name, "account_token": token}))
        return name

    def _wait_for_arbiter(self, timeout: float = 60) -> None:
        import grpc
        from grpc_health.v1 import health_pb2, health_pb2_grpc

        deadline = time.monotonic() + timeout
        with grpc.insecure_channel(self.settings.arbiter_address, PROMPT_RECONNECT) as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            while time.monotonic() < deadline:
                self.check_alive()
                try:
                    stub.Check(health_pb2.HealthCheckRequest(), timeout=1)
                    return
                except grpc.RpcError:
                    time.sleep(0.2)
        raise TimeoutError("the arbiter did not become healthy; see .state/logs/arbiter.log")

    def check_alive(self) -> None:
        reap_orphans()  # `premiere up` adopts them: their exits are ours to collect
        for name, process in self.processes.items():
            if process.poll() is not None:
                raise RuntimeError(
                    f"{name} exited with {process.returncode}; see {self.folder}/logs/{name}.log"
                )

    def start_example_bot(self) -> None:
        """Register the SDK example bot once (name and token stay in the state folder), run it."""
        from server.store import add_bot

        saved = self.folder / "example-bot.json"
        if saved.exists():
            known = json.loads(saved.read_text())
            self.example_bot, token = known["name"], known["token"]
        else:
            url = self.env["PREMIERE_DATABASE_URL"]
            with psycopg.connect(url) as conn:
                taken = conn.execute(
                    "SELECT 1 FROM bot_directory WHERE name = %s", (EXAMPLE_BOT,)
                ).fetchone()
            self.example_bot = EXAMPLE_BOT if not taken else f"{EXAMPLE_BOT}-{secrets.token_hex(3)}"
            token = add_bot(url, self.example_bot)
            fd = os.open(saved, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as out:
                out.write(json.dumps({"name": self.example_bot, "token": token}))
        bot = str(Path(sys.executable).parent / "premiere-bot")
        log = (self.folder / "logs" / "example-bot.log").open("ab")
        self.processes["example-bot"] = spawn(
            [
                bot,
                "run",
                EXAMPLE_CLASS,
                "--arbiter",
                self.settings.arbiter_address,
            ],
            env={
                **{k: v for k, v in self.env.items() if k != "PREMIERE_OPERATOR_TOKEN"},
                "PREMIERE_BOT_TOKEN": token,
            },
            log=log,
            cwd=self.folder,
        )

    def create_demo_leagues(self, hosted: str | None = None) -> list[str]:
        """A round robin per game at its smallest table (leagues seat two or more): three built-in
        bots and the example bot over gRPC.

        Created once per database and reused by every later start; a demo league that has
        finished plays one more cycle (with fresh deals)."""
        from workers import leagues
        from workers.planning import default_rounds

        names = []
        with leagues.connect(self.env["PREMIERE_DATABASE_URL"]) as conn:
            for game in games.all_games():
                name = f"demo-{game.id}"
                names.append(name)
                existing = leagues.get_league(conn, name)
                if existing is not None:
                    if existing.status == "finished":
                        cycle = default_rounds(
                            existing.format, len(existing.bots), existing.players
                        )
                        leagues.extend_league(conn, existing.id, cycle or 1)
                    continue
                extra = [hosted] if hosted and game.id in HOSTED_EXAMPLE_GAMES else []
                leagues.create_league(
                    conn,
                    name=name,
                    game=game.id,
                    format="round-robin",
                    players=min(n for n in game.player_counts if n >= 2),
                    bots=[*DEMO_BOTS, self.example_bot, *extra],
                )
        return names

    def describe(self) -> dict[str, Any]:
        settings = self.settings
        return {
            "launcher": os.getpid(),
            "database_url": self.env["PREMIERE_DATABASE_URL"],
            "redis_url": self.env["PREMIERE_REDIS_URL"],
            "arbiter": settings.arbiter_address,
            "ladder_api": f"http://{ladder_http()}/api/games",
            "pids": {name: p.pid for name, p in self.processes.items()}
            | {type(s).__name__: s.process.pid for s in self.private if s.process},
        }

    def stop(self) -> None:
        for name in ("beat", "worker", "runner", "example-bot", "ladder", "arbiter"):
            if name in self.processes:
                stop(self.processes[name])
        for service in reversed(self.private):
            service.stop()
        if self.env.get("TMPDIR") == str(self.folder / "tmp"):
            shutil.rmtree(self.folder / "tmp", ignore_errors=True)
        described = running_stack(self.folder)
        if described is not None and described.get("launcher") == os.getpid():
            (self.folder / "stack.json").unlink(missing_ok=True)


def shut_down(stack: Stack) -> None:
    """`premiere up`'s end, however it came (Ctrl-C, a failure, an interrupt halfway through
    the start-up): a second Ctrl-C cannot cut it short; the stack stops in order, then
    anything still running below us (a process started but not yet recorded, PostgreSQL's
    backends, a pool's workers, orphans we adopted) is ended before we exit."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        stack.stop()
    finally:
        end_descendants()


def ladder_http() -> str:
    from ladder.config import LadderSettings

    return LadderSettings().http_address


def write_description(stack: Stack) -> Path:
    """stack.json holds the database URL (with any password): readable by its owner only."""
    path = stack.folder / "stack.json"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(json.dumps(stack.describe(), indent=2))
    return path
