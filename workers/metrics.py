"""Worker metrics. Prefork children write to PROMETHEUS_MULTIPROC_DIR; the worker's main
process serves them all on one /metrics, with the queue depth read from Redis at scrape time."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from prometheus_client import Counter, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

TASKS = Counter("premiere_worker_tasks_total", "Tasks by name and final state.", ["task", "state"])
DISPATCHED = Counter("premiere_worker_matches_dispatched_total", "League matches created.")
ROUND_SECONDS = Histogram(
    "premiere_worker_round_seconds",
    "Time from a round's opening to its closing.",
    buckets=(1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200, 86400),
)


class QueueDepth(Collector):
    """Messages waiting in the Celery queue (a Redis list), read when scraped."""

    def __init__(self, redis_url: str, queue: str) -> None:
        self.redis_url = redis_url
        self.queue = queue

    def collect(self) -> Iterator[Any]:
        import redis

        gauge = GaugeMetricFamily(
            "premiere_worker_queue_depth", "Tasks waiting in the queue.", labels=["queue"]
        )
        try:
            depth = redis.Redis.from_url(self.redis_url).llen(self.queue)
        except redis.RedisError:
            return
        gauge.add_metric([self.queue], float(depth))
        yield gauge
