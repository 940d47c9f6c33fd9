"""The Celery application: Redis broker, at-least-once delivery done right."""

from __future__ import annotations

import os

from celery import Celery

from workers.config import WorkerSettings

TICK_SECONDS = float(os.environ.get("PREMIERE_TICK_SECONDS", "2"))
EXPORT_SECONDS = 3600.0
"""How often beat asks for the last month's export files: written once, when the month is ready
(``workers.exports``); every other time the task finds nothing to do."""


def make_app(settings: WorkerSettings | None = None) -> Celery:
    settings = settings or WorkerSettings()
    app = Celery("premiere", broker=settings.redis_url, include=["workers.tasks"])
    app.conf.update(
        task_default_queue=settings.queue,
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_time_limit=120,
        task_soft_time_limit=100,
        task_ignore_result=True,
        broker_connection_retry_on_startup=True,
        broker_transport_options={"visibility_timeout": settings.visibility_timeout_s},
        worker_hijack_root_logger=False,
        beat_schedule={
            "tick": {"task": "workers.tasks.tick", "schedule": TICK_SECONDS},
            "export": {"task": "workers.tasks.export_month", "schedule": EXPORT_SECONDS},
        },
        timezone="UTC",
    )
    return app


app = make_app()
