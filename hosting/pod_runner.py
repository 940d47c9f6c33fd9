"""``premiere runner --backend kubernetes``: the runner's loop (hosting/runner.py: which
versions have work, tokens, idle stops, crash loops, logs, events) with a Pod per hosted bot
(hosting/pods.py) in place of a bubblewrap process.

``PodRunner`` is ``Runner`` with its four process-bound steps replaced: ``run`` opens the
cluster client and the bundle server instead of building a local runtime, ``start`` creates
the Pod and its Secret instead of unpacking, relaying and spawning, ``_watch`` waits for the
Pod's end, and ``_end`` deletes the Pod and Secret. Everything else is the runner's own.
A Pod has no local process or relay: its ``Running`` carries ``pod`` instead, and its output
(the kubelet's log of the bot's container) is fed through the runner's own capture, so the
same line cap and flood limit apply.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import time
from dataclasses import dataclass
from typing import Any, cast

import psycopg

from hosting.config import RunnerSettings
from hosting.pods import KubernetesBackend, PodConfig, PodExit, PodRun
from hosting.runner import (
    CRASH_WINDOW_S,
    CRASHES,
    LINE_CHARS,
    History,
    Runner,
    RunnerConfig,
    Running,
)
from hosting.sandbox import Unavailable, limits_for
from premiere_wire.bundle import Limits as Asked

__all__ = ["PodRunner", "backend_from_settings", "serve"]

log = logging.getLogger("premiere.runner")


@dataclass
class PodRunning(Running):
    pod: PodRun | None = None


def backend_from_settings(settings: RunnerSettings, arbiter: str) -> KubernetesBackend:
    """The Kubernetes backend the ``runner_*`` settings describe; ``arbiter`` is host:port of
    the arbiter Service (resolved to its cluster IP at each start)."""
    from server.bundles import bundle_data

    host, _, port = settings.runner_fetch_address.rpartition(":")
    fetch_host = settings.runner_fetch_host or socket.gethostbyname(socket.gethostname())
    config = PodConfig(
        image=settings.runner_image,
        arbiter=arbiter,
        fetch_url=f"http://{fetch_host}:{int(port)}",
        runner=settings.runner_name,
        namespace=settings.runner_namespace,
        uid=settings.runner_pod_uid,
    )
    database_url = settings.database_url
    return KubernetesBackend(
        config,
        lambda sha256: bundle_data(database_url, sha256),
        gvisor=settings.runner_gvisor,
        fetch_bind=f"{host or '0.0.0.0'}:{int(port)}",
    )


class PodRunner(Runner):
    def __init__(self, config: RunnerConfig, backend: KubernetesBackend) -> None:
        super().__init__(config)
        self.backend = backend
        self.root = False
        self.cgroups.available = False

    async def run(self) -> None:
        await self.backend.open()
        log.info("runner: Kubernetes backend, pool %s", self.config.pool)
        try:
            await self._loop()
        finally:
            await self.backend.close()

    async def start(self, row: dict[str, Any]) -> None:
        from kubernetes.client.exceptions import ApiException

        bot_id, name = int(row["bot_id"]), str(row["name"])
        manifest = row["manifest"]
        history = self.history.setdefault(bot_id, History())
        limits = limits_for(self.config.pool, Asked(**manifest.get("limits", {})))
        token = await asyncio.to_thread(self._credential, bot_id)
        try:
            pod = await self.backend.start(
                bot_id,
                name,
                manifest["language"],
                manifest["entry"],
                tuple(manifest.get("games", ())),
                str(row["sha256"]),
                token,
                limits,
            )
        except Unavailable as error:
            await asyncio.to_thread(self._forget_credential, bot_id)
            history.stopped = str(error)
            await self.event(bot_id, "hosting-failed", history.stopped)
            return
        except (ApiException, OSError) as error:
            await asyncio.to_thread(self._forget_credential, bot_id)
            history.next_start = time.monotonic() + 30
            log.warning("runner: could not create the Pod of %s: %s", name, error)
            await self.log_line(bot_id, "runner", "the cluster did not take its Pod; retrying")
            return
        now = time.monotonic()
        running = PodRunning(
            bot_id,
            name,
            pod.name,
            process=cast(Any, None),
            relay=cast(Any, None),
            started=now,
            uid=None,
            last_work=now,
            pod=pod,
        )
        self.running[bot_id] = running
        output = asyncio.StreamReader(limit=LINE_CHARS * 4)
        running.readers = [
            asyncio.create_task(self._follow(pod, output)),
            asyncio.create_task(self._capture(running, output, "stdout")),
            asyncio.create_task(self._watch(running)),
        ]
        await asyncio.to_thread(self._starts, bot_id)
        await self.log_line(bot_id, "runner", f"started {name} ({manifest['language']}) as a Pod")
        log.info("runner: started %s (Pod %s)", name, pod.name)

    async def _follow(self, pod: PodRun, output: asyncio.StreamReader) -> None:
        try:
            async for line in self.backend.lines(pod, LINE_CHARS):
                output.feed_data(line.encode() + b"\n")
        except Exception as error:  # the log stream is best effort; the Pod's end is watched
            log.info("runner: output of Pod %s ended: %s", pod.name, error)
        finally:
            output.feed_eof()

    async def _end(self, running: Running) -> None:
        pod = running.pod if isinstance(running, PodRunning) else None
        if pod is not None:
            await self.backend.stop(pod)
        for task in running.readers:
            if task is not asyncio.current_task():
                task.cancel()
        with contextlib.suppress(psycopg.Error):
            await asyncio.to_thread(self._forget_credential, running.bot_id)

    async def _watch(self, running: Running) -> None:
        assert isinstance(running, PodRunning) and running.pod is not None
        ended: PodExit = await self.backend.wait(running.pod)
        if self.running.get(running.bot_id) is not running:
            return  # stopped on purpose
        self.running.pop(running.bot_id, None)
        await self._end(running)
        history = self.history.setdefault(running.bot_id, History())
        now = time.monotonic()
        history.exits = [t for t in history.exits if now - t < CRASH_WINDOW_S] + [now]
        reason = f"exit status {ended.code}" + (f", {ended.reason}" if ended.reason else "")
        await self.log_line(running.bot_id, "runner", f"exited: {reason}")
        if len(history.exits) >= CRASHES:
            history.stopped = (
                f"crash loop: it exited {len(history.exits)} times within"
                f" {CRASH_WINDOW_S / 60:g} minutes (last: {reason}); upload a new version"
            )
            await self.event(running.bot_id, "crash-loop", history.stopped)
            return
        delay = min(60.0, 2.0 ** len(history.exits))
        history.next_start = now + delay
        await self.event(
            running.bot_id, "crashed", f"it exited ({reason}); started again in {delay:g} s"
        )


def serve(
    config: RunnerConfig,
    backend: KubernetesBackend,
    stop_signals: tuple[int, ...] = (signal.SIGINT, signal.SIGTERM),
) -> None:
    """Run until SIGINT or SIGTERM, then delete every hosted Pod."""

    async def main() -> None:
        runner = PodRunner(config, backend)
        loop = asyncio.get_running_loop()
        for sig in stop_signals:
            loop.add_signal_handler(sig, runner.stopping.set)
        await runner.run()

    asyncio.run(main())
