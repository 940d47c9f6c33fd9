"""``premiere runner``: keeps hosted bots playing.

Every ``poll_s`` it reads which hosted versions have work (an unfinished match seating them:
a league table, a validation, a challenge) and which are retired. A version with work and no
process is started: its bundle fetched by digest and unpacked once (the digest verified, every
rule checked again), a fresh token drawn (only its hash stored, the old one dead), a relay
socket made, then the sandbox. It stays warm while work keeps coming and is stopped after
``idle_s`` without any, so a thousand hosted bots hold processes only for the matches being
played. A process that exits while it has work is started again after a back-off; five exits
within five minutes stop it with a ``crash-loop`` event, until its next version. A retired
version (removed, disabled, its account disabled) is stopped at once.

What it prints goes, line by line and capped, to ``hosted_logs``, which only its owner reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import shutil
import signal
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from psycopg.rows import dict_row

from hosting import metrics
from hosting.relay import Relay
from hosting.runtime import build, readable_by_others
from hosting.sandbox import (
    Cgroups,
    Launch,
    Pool,
    Runtime,
    bwrap_argv,
    limits_for,
    wrapper_argv,
)
from premiere_wire.bundle import BundleError, unpack
from premiere_wire.bundle import Limits as Asked
from server.store import hash_token

__all__ = ["Runner", "RunnerConfig"]

log = logging.getLogger("premiere.runner")

LINE_CHARS = 1000
CRASHES = 5
CRASH_WINDOW_S = 300.0
USAGE_EVERY_S = 5.0
"""How often the CPU time of the running bots is written to ``hosted_usage``."""
MAX_PENDING = 20_000
"""Output lines waiting to be written, every bot together; past it lines are dropped."""
RETIRED = "retired (removed, or disabled)"


@dataclass(frozen=True)
class RunnerConfig:
    database_url: str
    arbiter: str
    """host:port of the arbiter the relays dial."""
    work: Path
    bwrap: str
    pool: Pool = field(default_factory=Pool)
    poll_s: float = 1.0
    idle_s: float = 30.0
    log_kb: int = 256
    max_running: int = 64
    uid_base: int = 300_000
    arbiter_socket: Path | None = None
    """The arbiter's Unix socket on this machine (PREMIERE_ARBITER_SOCKET): mounted into each
    sandbox as is; without it, each bot gets a relay of its own to ``arbiter``."""
    backoff_s: float = 2.0
    """The first restart's delay after an exit; it doubles with each exit (at most a minute)."""
    node_packages: Path | None = None


@dataclass
class Running:
    bot_id: int
    name: str
    slot: str
    process: asyncio.subprocess.Process
    relay: Relay | None
    started: float
    uid: int | None
    last_work: float
    cpu_ns_reported: int = 0
    readers: list[asyncio.Task[None]] = field(default_factory=list)


@dataclass
class History:
    exits: list[float] = field(default_factory=list)
    next_start: float = 0.0
    stopped: str | None = None
    """Why it is not started again (a crash loop) until a new version."""


class Runner:
    def __init__(self, config: RunnerConfig) -> None:
        self.config = config
        self.cgroups = Cgroups()
        self.root = os.geteuid() == 0
        self.running: dict[int, Running] = {}
        self.history: dict[int, History] = {}
        self.free_uids = list(range(config.uid_base + config.max_running, config.uid_base, -1))
        self.runtime: Runtime | None = None
        self.stopping = asyncio.Event()
        self.pending: list[tuple[int, str, str, float]] = []
        self.flusher: asyncio.Task[None] | None = None
        self.reported = 0.0
        self.writing = asyncio.Lock()

    # --- the loop ------------------------------------------------------------------------

    async def run(self) -> None:
        self.config.work.mkdir(parents=True, exist_ok=True)
        os.chmod(self.config.work, 0o755)
        if self.root and not readable_by_others(self.config.work):
            raise PermissionError(
                f"{self.config.work}: the sandbox users cannot reach this folder (a folder on"
                " its path is its owner's only); set PREMIERE_RUNNER_WORK to a folder others"
                " may search"
            )
        self.runtime = await asyncio.to_thread(
            build, self.config.work / "runtime", self.root, self.config.node_packages
        )
        log.info(
            "runner: sandbox %s, cgroups %s, pool %s",
            self.config.bwrap,
            "yes" if self.cgroups.available else "no (rlimits)",
            self.config.pool,
        )
        await self._loop()

    async def _loop(self) -> None:
        """Tick every poll until stopped; then stop every hosted bot and write their output."""
        try:
            while not self.stopping.is_set():
                try:
                    await self.tick()
                except psycopg.OperationalError as error:
                    log.warning("runner: database unreachable (%s); retrying", error)
                except psycopg.errors.UndefinedTable:
                    log.warning(
                        "runner: the database has no hosted bots' tables yet (the arbiter"
                        " migrates it when it starts); retrying"
                    )
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self.stopping.wait(), self.config.poll_s)
        finally:
            await asyncio.gather(
                *(self.stop(bot_id, "the runner stopped") for bot_id in list(self.running))
            )
            await self.flush_logs()

    async def tick(self) -> None:
        wanted, retired = await asyncio.to_thread(self._work)
        now = time.monotonic()
        for bot_id in list(self.running):
            running = self.running[bot_id]
            if bot_id in retired:
                await self.stop(bot_id, RETIRED)
            elif bot_id in wanted:
                running.last_work = now
            elif now - running.last_work > self.config.idle_s:
                await self.stop(bot_id, f"idle for {self.config.idle_s:g} s")
        for bot_id, row in wanted.items():
            if bot_id in self.running or bot_id in retired:
                continue
            history = self.history.setdefault(bot_id, History())
            if history.stopped is not None or now < history.next_start:
                continue
            if len(self.running) >= self.config.max_running:
                break
            await self.start(row)
        if now - self.reported >= USAGE_EVERY_S:
            self.reported = now
            await asyncio.to_thread(self._report_usage, list(self.running.values()))

    def _retired(self, bot_id: int) -> bool:
        with psycopg.connect(self.config.database_url) as conn:
            row = conn.execute(
                "SELECT retired FROM hosted_versions WHERE bot_id = %s", (bot_id,)
            ).fetchone()
        return row is None or bool(row[0])

    def _work(self) -> tuple[dict[int, dict[str, Any]], set[int]]:
        with psycopg.connect(self.config.database_url, row_factory=dict_row) as conn:
            rows = conn.execute(
                "SELECT bot_id, name, sha256, manifest, retired, busy FROM hosted_versions"
            ).fetchall()
        wanted = {r["bot_id"]: r for r in rows if r["busy"] and not r["retired"]}
        retired = {r["bot_id"] for r in rows if r["retired"]}
        return wanted, retired

    # --- starting and stopping ------------------------------------------------------------

    def _bundle(self, sha256: str) -> Path:
        """The unpacked bundle, made once per digest; its digest checked before unpacking."""
        target = self.config.work / "bundles" / sha256
        if target.is_dir():
            return target
        from server.bundles import bundle_data

        data = bundle_data(self.config.database_url, sha256)
        if data is None:
            raise BundleError(f"bundle {sha256[:12]} is not stored")
        partial = self.config.work / "bundles" / f".{sha256}.{os.getpid()}"
        if partial.exists():
            _remove(partial)
        partial.parent.mkdir(parents=True, exist_ok=True)
        os.chmod(partial.parent, 0o755)
        unpack(data, sha256, partial)
        os.chmod(partial, 0o555)
        partial.rename(target)
        return target

    def _credential(self, bot_id: int) -> str:
        token = "hosted-" + secrets.token_urlsafe(32)
        with psycopg.connect(self.config.database_url) as conn:
            conn.execute(
                "INSERT INTO hosted_credentials (bot_id, token_hash) VALUES (%s, %s)"
                " ON CONFLICT (bot_id) DO UPDATE SET token_hash = excluded.token_hash,"
                " issued_at = now()",
                (bot_id, hash_token(token)),
            )
        return token

    def _forget_credential(self, bot_id: int) -> None:
        with psycopg.connect(self.config.database_url) as conn:
            conn.execute("DELETE FROM hosted_credentials WHERE bot_id = %s", (bot_id,))

    async def start(self, row: dict[str, Any]) -> None:
        began = time.monotonic()
        bot_id, name = int(row["bot_id"]), str(row["name"])
        manifest = row["manifest"]
        history = self.history.setdefault(bot_id, History())
        assert self.runtime is not None
        try:
            bundle = await asyncio.to_thread(self._bundle, row["sha256"])
            token = await asyncio.to_thread(self._credential, bot_id)
        except (BundleError, OSError) as error:
            history.stopped = f"its bundle could not be unpacked: {error}"
            await self.event(bot_id, "hosting-failed", history.stopped)
            return
        limits = limits_for(self.config.pool, Asked(**manifest.get("limits", {})))
        uid = self.free_uids.pop() if self.root and self.free_uids else None
        slot = f"bot-{bot_id}"
        sockets = self.config.work / "sockets" / slot
        sockets.mkdir(parents=True, exist_ok=True)
        os.chmod(self.config.work / "sockets", 0o711)
        os.chmod(sockets, 0o711)
        direct = self.config.arbiter_socket
        relay = None
        if direct is None or not direct.is_socket():
            relay = Relay(sockets / "arbiter.sock", *_host_port(self.config.arbiter))
            await relay.start(uid)
        launch = Launch(
            bot_id=bot_id,
            name=name,
            language=manifest["language"],
            entry=manifest["entry"],
            games=tuple(manifest.get("games", ())),
            bundle=bundle,
            socket_dir=sockets,
            token=token,
            limits=limits,
            runtime=self.runtime,
            uid=uid,
            arbiter_socket=direct if relay is None else None,
        )
        procs = self.cgroups.make(slot, limits) if self.cgroups.available else []
        argv = [
            *wrapper_argv(procs, limits, uid, self.cgroups.available),
            *bwrap_argv(launch, self.config.bwrap),
        ]
        process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
            env={"PATH": "/usr/bin:/bin"},
            limit=LINE_CHARS * 4,
        )
        now = time.monotonic()
        running = Running(bot_id, name, slot, process, relay, now, uid, now)
        self.running[bot_id] = running
        running.readers = [
            asyncio.create_task(self._capture(running, process.stdout, "stdout")),
            asyncio.create_task(self._capture(running, process.stderr, "stderr")),
            asyncio.create_task(self._watch(running)),
        ]
        metrics.START_SECONDS.observe(time.monotonic() - began)
        metrics.STARTS.inc()
        metrics.RUNNING.set(len(self.running))
        await asyncio.to_thread(self._starts, bot_id)
        await self.log_line(bot_id, "runner", f"started {name} ({manifest['language']})")
        log.info("runner: started %s (pid %d, uid %s)", name, process.pid, uid)

    async def stop(self, bot_id: int, why: str) -> None:
        running = self.running.pop(bot_id, None)
        if running is None:
            return
        reason = "retired" if why == RETIRED else "idle" if why.startswith("idle") else "runner"
        metrics.STOPS.labels(reason).inc()
        await self._end(running)
        await self.log_line(bot_id, "runner", f"stopped: {why}")
        log.info("runner: stopped %s: %s", running.name, why)

    async def _end(self, running: Running) -> None:
        process = running.process
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), 2)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                await process.wait()
        if self.cgroups.available:
            self.cgroups.kill(running.slot)
        await asyncio.to_thread(self._report_usage, [running])
        if self.cgroups.available:
            await asyncio.sleep(0.05)
            self.cgroups.remove(running.slot)
        if running.relay is not None:
            await running.relay.close()
        for task in running.readers:
            if task is not asyncio.current_task():
                task.cancel()
        with contextlib.suppress(psycopg.Error):
            await asyncio.to_thread(self._forget_credential, running.bot_id)
        if running.uid is not None:
            self.free_uids.append(running.uid)
        metrics.RUNNING.set(len(self.running))

    async def _watch(self, running: Running) -> None:
        code = await running.process.wait()
        if self.running.get(running.bot_id) is not running:
            return  # stopped on purpose
        self.running.pop(running.bot_id, None)
        await self._end(running)
        if await asyncio.to_thread(self._retired, running.bot_id):
            # The arbiter closed its stream when it was retired, and it exited: not a crash.
            await self.log_line(running.bot_id, "runner", f"stopped: {RETIRED}")
            log.info("runner: stopped %s: %s", running.name, RETIRED)
            metrics.STOPS.labels("retired").inc()
            return
        history = self.history.setdefault(running.bot_id, History())
        now = time.monotonic()
        history.exits = [t for t in history.exits if now - t < CRASH_WINDOW_S] + [now]
        reason = _exit_reason(code)
        await self.log_line(running.bot_id, "runner", f"exited: {reason}")
        if len(history.exits) >= CRASHES:
            history.stopped = (
                f"crash loop: it exited {len(history.exits)} times within"
                f" {CRASH_WINDOW_S / 60:g} minutes (last: {reason}); upload a new version"
            )
            metrics.STOPS.labels("crash-loop").inc()
            await self.event(running.bot_id, "crash-loop", history.stopped)
            return
        metrics.STOPS.labels("crashed").inc()
        delay = min(60.0, self.config.backoff_s * 2.0 ** (len(history.exits) - 1))
        history.next_start = now + delay
        await self.event(
            running.bot_id, "crashed", f"it exited ({reason}); started again in {delay:g} s"
        )

    # --- output, events and usage ---------------------------------------------------------

    async def _capture(
        self, running: Running, stream: asyncio.StreamReader | None, source: str
    ) -> None:
        """Its output, a line at a time, each cut at LINE_CHARS; at most 50 lines a second
        are kept (a flood is read and dropped, so the bot never blocks on a full pipe)."""
        if stream is None:
            return
        window = time.monotonic()
        kept = dropped = 0
        while True:
            try:
                raw = await stream.readuntil(b"\n")
            except asyncio.IncompleteReadError as end:
                raw = end.partial
                if not raw:
                    break
            except asyncio.LimitOverrunError as over:
                raw = await stream.readexactly(over.consumed)
            now = time.monotonic()
            if now - window >= 1.0:
                if dropped:
                    await self.log_line(
                        running.bot_id, "runner", f"{dropped} lines of {source} dropped (flood)"
                    )
                window, kept, dropped = now, 0, 0
            if kept >= 50:
                dropped += 1
                metrics.DROPPED_LINES.inc()
                continue
            kept += 1
            line = raw.decode(errors="replace").rstrip("\n")[:LINE_CHARS]
            await self.log_line(running.bot_id, source, line)

    async def log_line(self, bot_id: int, source: str, line: str) -> None:
        """Queue a line; one task writes the queue every half second in one transaction, so
        a bot's output never waits on the database, and the database is never asked once
        per line."""
        if len(self.pending) < MAX_PENDING:
            self.pending.append((bot_id, source, line.replace("\x00", ""), time.time()))
        if self.flusher is None or self.flusher.done():
            self.flusher = asyncio.create_task(self._flush_every())

    async def _flush_every(self) -> None:
        while self.pending:
            await self.flush_logs()
            await asyncio.sleep(0.5)

    async def flush_logs(self) -> None:
        """Write what is queued; returns once every line queued before the call is written
        (a write already under way included)."""
        async with self.writing:
            batch, self.pending = self.pending, []
            if batch:
                try:
                    await asyncio.to_thread(self._write_logs, batch)
                except psycopg.Error as error:
                    log.warning("runner: %d output lines lost: %s", len(batch), error)

    def _write_logs(self, batch: list[tuple[int, str, str, float]]) -> None:
        keep = max(10, self.config.log_kb * 1024 // 200)
        with psycopg.connect(self.config.database_url) as conn, conn.transaction():
            with conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO hosted_logs (bot_id, source, line, at)"
                    " VALUES (%s, %s, %s, to_timestamp(%s))",
                    batch,
                )
            for bot_id in {row[0] for row in batch}:
                conn.execute(
                    "DELETE FROM hosted_logs WHERE bot_id = %s AND id <= (SELECT id FROM"
                    " hosted_logs WHERE bot_id = %s ORDER BY id DESC OFFSET %s LIMIT 1)",
                    (bot_id, bot_id, keep),
                )

    async def event(self, bot_id: int, kind: str, message: str) -> None:
        def write() -> None:
            with psycopg.connect(self.config.database_url) as conn:
                conn.execute(
                    "INSERT INTO hosted_events (bot_id, kind, message) VALUES (%s, %s, %s)",
                    (bot_id, kind, message),
                )

        with contextlib.suppress(psycopg.Error):
            await asyncio.to_thread(write)
        await self.log_line(bot_id, "runner", f"{kind}: {message}")

    def _starts(self, bot_id: int) -> None:
        with psycopg.connect(self.config.database_url) as conn:
            conn.execute(
                "INSERT INTO hosted_usage (bot_id, starts, pool) VALUES (%s, 1, %s)"
                " ON CONFLICT (bot_id) DO UPDATE SET starts = hosted_usage.starts + 1,"
                " pool = excluded.pool, updated_at = now()",
                (bot_id, self.config.pool.name),
            )

    def _report_usage(self, every: list[Running]) -> None:
        """Adds the kernel's count of each bot's CPU time since the last report, and sets its
        decisions to the moves the version has made; one connection for them all."""
        if not self.cgroups.available or not every:
            return
        rows = []
        for running in every:
            used = self.cgroups.cpu_ns(running.slot)
            if used <= running.cpu_ns_reported:
                continue
            metrics.CPU_SECONDS.inc((used - running.cpu_ns_reported) / 1e9)
            added = used // 1_000_000 - running.cpu_ns_reported // 1_000_000
            running.cpu_ns_reported = used
            rows.append((added, running.bot_id, running.bot_id))
        if not rows:
            return
        with (
            contextlib.suppress(psycopg.Error),
            psycopg.connect(self.config.database_url) as conn,
            conn.cursor() as cursor,
        ):
            cursor.executemany(
                "UPDATE hosted_usage SET cpu_ms = cpu_ms + %s, decisions = (SELECT"
                " decisions FROM hosted_versions WHERE bot_id = %s), updated_at = now()"
                " WHERE bot_id = %s",
                rows,
            )


def _exit_reason(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    if code == 137:
        return "killed (out of memory, or SIGKILL)"
    return f"exit status {code}"


def _host_port(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    return host.strip("[]") or "127.0.0.1", int(port)


def _remove(path: Path) -> None:
    for root, dirs, _files in os.walk(path):
        for name in dirs:
            os.chmod(Path(root) / name, 0o755)
    os.chmod(path, 0o755)
    shutil.rmtree(path)


def serve(
    config: RunnerConfig, stop_signals: Sequence[int] = (signal.SIGINT, signal.SIGTERM)
) -> None:
    """Run until SIGINT or SIGTERM, then stop every hosted bot."""

    async def main() -> None:
        runner = Runner(config)
        loop = asyncio.get_running_loop()
        for sig in stop_signals:
            loop.add_signal_handler(sig, runner.stopping.set)
        await runner.run()

    asyncio.run(main())
