"""The workers' own settings (PREMIERE_*): the Celery queue, the workers' metrics port, and the
validation gate and probation rules they apply."""

from __future__ import annotations

from pydantic import Field

from premiere.config import Settings


class WorkerSettings(Settings):
    """What `premiere worker` and `premiere beat` read, beside the shared settings."""

    queue: str = Field(default="premiere", description="Celery queue the workers consume.")
    visibility_timeout_s: int = Field(
        default=60,
        description="Seconds before a task taken by a worker that vanished is delivered again.",
    )
    worker_metrics_port: int = Field(default=9102, description="Port of the workers' /metrics.")
    validation_matches: int = Field(
        default=2,
        ge=0,
        le=20,
        description="Unrated validation matches a new bot or version plays against the"
        " built-ins in each game it claims before rated play (0: no validation).",
    )
    probation_window: int = Field(
        default=20, ge=1, le=1000, description="Finished matches a bot's fault rate is taken over."
    )
    probation_threshold: float = Field(
        default=0.25,
        ge=0.0,
        lt=1.0,
        description="Share of the window's matches with a fault beyond which a bot goes on"
        " probation (unrated, fewer games).",
    )
    probation_recover: int = Field(
        default=10, ge=1, le=1000, description="Clean matches in a row that end a probation."
    )
