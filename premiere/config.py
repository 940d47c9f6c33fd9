"""Settings from the environment (PREMIERE_*) that more than one process reads: where the
database, Redis and the arbiter are, TLS, the operator token, and the limits every gRPC port
applies. Each service adds its own in its package: `server.config.ArbiterSettings`,
`workers.config.WorkerSettings` and `ladder.config.LadderSettings`."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """The shared knobs, with the defaults that suit one laptop."""

    model_config = SettingsConfigDict(env_prefix="PREMIERE_", extra="ignore")

    database_url: str = Field(
        default="postgresql://postgres@127.0.0.1:5432/premiere",
        description="PostgreSQL connection URL (libpq form).",
    )
    arbiter_address: str = Field(
        default="127.0.0.1:50051", description="host:port the arbiter's gRPC server binds."
    )
    redis_url: str = Field(
        default="redis://127.0.0.1:6379/0",
        description="Redis URL of the Celery broker and of the ladder's HTTP rate limits.",
    )
    arbiter_target: str = Field(
        default="127.0.0.1:50051",
        description="Where workers and the ladder (live pages) reach the arbiter's gRPC API.",
    )
    operator_token: str | None = Field(
        default=None,
        description="MatchService.CreateMatch needs 'authorization: Bearer <it>' (the workers"
        " send it). Unset or empty, nobody may create matches over the network; `premiere up`"
        " generates one.",
    )
    tls_cert: str | None = Field(
        default=None,
        description="PEM certificate chain file of the arbiter's and the ladder's ports; with"
        " tls_key, they speak TLS only.",
    )
    tls_key: str | None = Field(default=None, description="PEM private key for tls_cert.")
    plaintext: bool = Field(
        default=False,
        description="Serve the arbiter's and the ladder's ports without TLS on a non-loopback"
        " address (behind a TLS proxy). Without it and without tls_cert/tls_key, such ports"
        " refuse to start; loopback addresses may always be plaintext.",
    )
    tls_ca: str | None = Field(
        default=None,
        description="PEM CA bundle the workers and the ladder trust when dialling the arbiter"
        " over TLS"
        " (default: the system's roots).",
    )
    arbiter_tls: bool = Field(
        default=False,
        description="Workers and the ladder dial the arbiter (arbiter_target) over TLS.",
    )
    arbiter_tls_name: str | None = Field(
        default=None,
        description="The name the arbiter's certificate carries, when workers reach it by"
        ' another (arbiter_target "arbiter:50051" for a certificate of arena.example.org).',
    )
    metrics_host: str | None = Field(
        default=None,
        description="Address the arbiter's and workers' /metrics bind (default: the host of"
        " arbiter_address, so a loopback arbiter keeps its metrics on loopback too).",
    )
    max_streams_per_peer: int = Field(
        default=32, ge=1, description="Concurrent BotGateway streams from one network peer."
    )
    hello_timeout_s: float = Field(
        default=10.0, gt=0, description="Seconds a new bot stream has to send its Hello."
    )
    max_message_bytes: int = Field(
        default=256 * 1024,
        ge=4096,
        description="Largest gRPC message accepted (bigger ones: RESOURCE_EXHAUSTED).",
    )
    max_connection_idle_s: float = Field(
        default=300.0, gt=0, description="Idle gRPC connections (no open call) are closed after."
    )
    export_dir: str = Field(
        default="exports",
        description="Folder of the monthly export files and their manifest.json: the workers"
        " write it, the ladder's web process serves it at /exports (relative to the process's"
        " working folder; `premiere up` runs its processes in its state folder).",
    )


def metrics_host(settings: Settings) -> str:
    """Where /metrics binds: the configured host, else the arbiter's own host."""
    if settings.metrics_host:
        return settings.metrics_host
    host = settings.arbiter_address.rpartition(":")[0].strip("[]")
    return host or "0.0.0.0"


def settings() -> Settings:
    return Settings()
