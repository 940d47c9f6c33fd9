"""The arbiter's own settings (PREMIERE_*): its ports, default time controls and their bounds,
per-client limits, challenges, and the leases by which several arbiters share the matches."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from premiere.config import Settings


class ArbiterSettings(Settings):
    """What `premiere arbiter` reads, beside the shared settings."""

    arbiter_metrics_port: int = Field(default=9101, description="Port of the arbiter's /metrics.")
    move_time_ms: int = Field(default=2000, description="Default per-move limit.")
    time_bank_ms: int = Field(default=30000, description="Default time bank per seat and match.")
    strike_limit: int = Field(default=3, description="Strikes a seat may take; one more forfeits.")
    start_grace_s: float = Field(
        default=600.0, description="How long a new match waits for its bots before it is voided."
    )
    max_outbox: int = Field(
        default=256,
        ge=8,
        description="Messages queued for one bot stream; a stream that lets more pile up (it"
        " does not read) is closed with RESOURCE_EXHAUSTED.",
    )
    max_streams_per_bot: int = Field(
        default=16,
        ge=1,
        description="Open BotGateway streams per bot token (every version of the bot counts),"
        " across every arbiter.",
    )
    max_streams_per_account: int = Field(
        default=32,
        ge=1,
        description="Open BotGateway streams of all the bots of one account, across every arbiter.",
    )
    signup: Literal["open", "invite", "closed"] = Field(
        default="invite",
        description="Who may make an account (AuthorService.CreateAccount): anyone (open),"
        " whoever holds an invite from `premiere invites create` (invite), or nobody (closed)."
        " `premiere up` uses open.",
    )
    max_bots_per_account: int = Field(
        default=20, ge=1, description="Bots one account may have (removed ones do not count)."
    )
    max_versions_per_day: int = Field(
        default=20,
        ge=1,
        description="New versions one bot may announce in a day (a Hello naming a new version,"
        " or the CLI).",
    )
    max_watchers_per_match: int = Field(
        default=64, ge=1, description="Concurrent WatchMatch streams on one match."
    )
    max_watchers_per_peer: int = Field(
        default=8, ge=1, description="Concurrent WatchMatch streams from one network peer."
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
    author_events: Literal["off", "on"] = Field(
        default="off",
        description="Whether authors may propose events (AuthorService.CreateEvent, `premiere-bot"
        " events create`); off: only the operator creates them (`premiere event create`).",
    )
    challenges: Literal["off", "casual", "rated"] = Field(
        default="casual",
        description="What BotGateway.Challenge lets a bot ask for: nothing (off), casual"
        " matches, or rated ones too.",
    )
    max_open_challenges: int = Field(
        default=4,
        ge=1,
        description="Unfinished matches the bots of one account may have created with Challenge"
        " at a time, across every arbiter.",
    )
    max_challenges_per_minute: int = Field(
        default=30,
        ge=1,
        description="Challenges the bots of one account may make in any minute, across every"
        " arbiter.",
    )
    max_rated_challenges_per_day: int = Field(
        default=200,
        ge=0,
        description="Rated challenges the bots of one account may make in a day, across every"
        " arbiter.",
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
    peer_token: str | None = Field(
        default=None,
        description="With the relay on, the secret every arbiter shares to link up with the"
        " others: one stream per pair of arbiters on the peer port (peer_address) carries the"
        " decisions between them, Redis only what a dropped link was carrying. Unset or empty:"
        " every forwarded decision goes through Redis. Keep it out of bots' reach, like the"
        " operator token.",
    )
    peer_address: str | None = Field(
        default=None,
        description="host:port the peer port binds (plaintext and token-checked: keep it on"
        " the arbiters' private network). Default: arbiter_address's host, any free port.",
    )
    peer_advertise: str | None = Field(
        default=None,
        description="host:port the other arbiters dial to reach this one's peer port (a Pod's"
        " IP under Kubernetes). Default: peer_address's host and the port it got.",
    )
    placement_wait_s: float = Field(
        default=2.0,
        ge=0,
        description="With the relay on, a match whose seats' bots hold more streams on another"
        " arbiter is handed to that arbiter (its decisions then cross no Redis); it has this"
        " long to take the match up before any arbiter does. 0 hosts every match where it is"
        " created or adopted.",
    )
    retire_check_s: float = Field(
        default=0.5,
        gt=0,
        description="How often an arbiter looks for streams that may play no more (token"
        " rotated, bot or version removed or disabled, account disabled) and closes them.",
    )
    lease_renew_s: float = Field(
        default=1.5,
        gt=0,
        description="How often an arbiter renews its leases and adopts matches nobody holds.",
    )

    hosted: bool = Field(
        default=False,
        description="Take hosted bots' bundles (AuthorService.UploadBundle). Turn it on where a"
        " runner (`premiere runner`) runs them; `premiere up` does when the machine has a"
        " sandbox (bubblewrap).",
    )
    arbiter_socket: str | None = Field(
        default=None,
        description="Also serve gRPC, in plaintext, on this Unix socket (made readable and"
        " writable by every local user), for hosted bots on this machine: the runner mounts it"
        " into their sandboxes (PREMIERE_RUNNER_ARBITER_SOCKET) instead of relaying.",
    )
    bundle_max_mb: int = Field(
        default=32, ge=1, le=1024, description="Largest bundle archive an upload may send."
    )
    bundle_unpacked_mb: int = Field(
        default=128, ge=1, le=8192, description="Largest size a bundle may unpack to."
    )
    bundle_max_files: int = Field(
        default=4000, ge=1, description="Most files and folders one bundle may hold."
    )
    bundle_quota_mb: int = Field(
        default=256, ge=1, description="Bundle storage one account may use, every bot together."
    )

    @model_validator(mode="after")
    def _renew_before_lapse(self) -> ArbiterSettings:
        if self.lease_renew_s >= self.lease_s:
            raise ValueError(
                f"PREMIERE_LEASE_RENEW_S ({self.lease_renew_s:g}) must be shorter than"
                f" PREMIERE_LEASE_S ({self.lease_s:g}), or arbiters lose their matches' leases"
            )
        return self
