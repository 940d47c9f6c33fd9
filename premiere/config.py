"""Settings from the environment (PREMIERE_*), shared by every Premiere process."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator
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
        default="127.0.0.1:50051",
        description="Where workers and the ladder (live pages) reach the arbiter's gRPC API.",
    )
    worker_metrics_port: int = Field(default=9102, description="Port of the workers' /metrics.")
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
    max_outbox: int = Field(
        default=256,
        ge=8,
        description="Messages queued for one bot stream; a stream that lets more pile up (it"
        " does not read) is closed with RESOURCE_EXHAUSTED.",
    )
    max_streams_per_bot: int = Field(
        default=16, ge=1, description="Open BotGateway streams per bot token."
    )
    max_watchers_per_match: int = Field(
        default=64, ge=1, description="Concurrent WatchMatch streams on one match."
    )
    max_watchers_per_peer: int = Field(
        default=8, ge=1, description="Concurrent WatchMatch streams from one network peer."
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
    max_refusals_per_minute: int = Field(
        default=600,
        ge=1,
        description="Refused (stale, unknown, illegal) answers one stream may send per minute;"
        " past it the stream is closed with RESOURCE_EXHAUSTED.",
    )
    max_request_id_bytes: int = Field(
        default=128, ge=16, description="Longest request_id an answer may quote."
    )
    max_connection_idle_s: float = Field(
        default=300.0, gt=0, description="Idle gRPC connections (no open call) are closed after."
    )
    min_move_time_ms: int = Field(
        default=50, ge=1, description="Smallest per-move limit a match may ask for."
    )
    max_move_time_ms: int = Field(
        default=60_000, ge=1, description="Largest per-move limit a match may ask for."
    )
    max_time_bank_ms: int = Field(
        default=600_000, ge=0, description="Largest time bank a match may ask for."
    )
    max_strike_limit: int = Field(default=20, ge=0, description="Largest strike limit.")
    resume_grace_s: float = Field(
        default=120.0,
        description="After a restart, how long a match waits for its bots to return.",
    )
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
    challenges: Literal["off", "casual", "rated"] = Field(
        default="casual",
        description="What BotGateway.Challenge lets a bot ask for: nothing (off), casual"
        " matches, or rated ones too.",
    )
    max_open_challenges: int = Field(
        default=4,
        ge=1,
        description="Unfinished matches one bot may have created with Challenge at a time.",
    )
    arbiter_name: str | None = Field(
        default=None,
        description="This arbiter's name in match leases (default: the host name; a Pod's"
        " name under Kubernetes). A process id and a random suffix are added.",
    )
    lease_s: float = Field(
        default=5.0,
        gt=0,
        description="How long a match's lease lasts unless renewed: after an arbiter dies,"
        " another one takes its matches over within about this long plus lease_renew_s.",
    )
    relay: bool = Field(
        default=False,
        description="Forward decision requests between arbiters through Redis (redis_url), so"
        " a bot connected to any arbiter plays matches hosted by any other. Needed when more"
        " than one arbiter shares the database.",
    )
    lease_renew_s: float = Field(
        default=1.5,
        gt=0,
        description="How often an arbiter renews its leases and adopts matches nobody holds.",
    )

    @model_validator(mode="after")
    def _renew_before_lapse(self) -> Settings:
        if self.lease_renew_s >= self.lease_s:
            raise ValueError(
                f"PREMIERE_LEASE_RENEW_S ({self.lease_renew_s:g}) must be shorter than"
                f" PREMIERE_LEASE_S ({self.lease_s:g}), or arbiters lose their matches' leases"
            )
        return self


def metrics_host(settings: Settings) -> str:
    """Where /metrics binds: the configured host, else the arbiter's own host."""
    if settings.metrics_host:
        return settings.metrics_host
    host = settings.arbiter_address.rpartition(":")[0].strip("[]")
    return host or "0.0.0.0"


def settings() -> Settings:
    return Settings()
