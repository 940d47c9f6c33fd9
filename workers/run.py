"""Starting a worker (with its multiprocess /metrics) and beat."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from premiere.config import metrics_host
from workers.config import WorkerSettings


def run_worker(concurrency: int, metrics_port: int | None) -> None:
    settings = WorkerSettings()
    folder = Path(tempfile.mkdtemp(prefix="premiere-worker-metrics-"))
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(folder)
    from prometheus_client import CollectorRegistry, start_http_server
    from prometheus_client.multiprocess import MultiProcessCollector

    from workers.app import app
    from workers.metrics import QueueDepth

    registry = CollectorRegistry()
    MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    registry.register(QueueDepth(settings.redis_url, settings.queue))
    start_http_server(
        metrics_port or settings.worker_metrics_port, addr=metrics_host(settings), registry=registry
    )
    try:
        app.worker_main(
            [
                "worker",
                "--loglevel=INFO",
                f"--concurrency={concurrency}",
                "-Q",
                settings.queue,
                "--without-gossip",
                "--without-mingle",
            ]
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run_beat() -> None:
    from workers.app import app

    schedule = Path(tempfile.gettempdir()) / f"premiere-beat-{os.getpid()}"
    app.start(["beat", "--loglevel=INFO", f"--schedule={schedule}"])
