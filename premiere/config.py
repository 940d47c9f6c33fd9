"""Settings from the environment (PREMIERE_*), shared by every Premiere process."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Every knob, with the default that suits one laptop."""

    model_config = SettingsConfigDict(env_prefix="PREMIERE_", extra="ignore")

    database_url: str = Field(
        default="postgresql://postgres@127.0.0.1:5432/premiere",
        description="PostgreSQL connection URL (libpq form).",
    )
    arbiter_address: str = Field(
        default="127.0.0.1:50051", description="host:port the arbiter's gRPC server binds."
    )
    arbiter_metrics_port: int = Field(default=9101, description="Port of the arbiter's /metrics.")
    move_time_ms: int = Field(default=2000, description="Default per-move limit.")
    time_bank_ms: int = Field(default=30000, description="Default time bank per seat and match.")
    strike_limit: int = Field(default=3, description="Strikes a seat may take; one more forfeits.")
    start_grace_s: float = Field(
        default=600.0, description="How long a new match waits for its bots before it is voided."
    )
    redis_url: str = Field(
        default="redis://127.0.0.1:6379/0", description="Redis URL of the Celery broker."
    )
    queue: str = Field(default="premiere", description="Celery queue the workers consume.")
    visibility_timeout_s: int = Field(
        default=60,
        description="Seconds before a task taken by a worker that vanished is delivered again.",
    )
    arbiter_target: str = Field(
        default="127.0.0.1:50051", description="Where workers reach the arbiter's gRPC API."
    )
    worker_metrics_port: int = Field(default=9102, description="Port of the workers' /metrics.")
    operator_token: str | None = Field(
        default=None,
        description="When set, MatchService.CreateMatch needs 'authorization: Bearer <it>'"
        " (the workers send it); unset, anyone who reaches the arbiter may create matches.",
    )
    resume_grace_s: float = Field(
        default=120.0,
        description="After a restart, how long a match waits for its bots to return.",
    )


def settings() -> Settings:
    return Settings()
