"""Settings of `premiere ladder`, from the environment (PREMIERE_LADDER_*).

The database URL is the shared one, ``premiere.config.Settings.database_url``
(PREMIERE_DATABASE_URL).
"""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class LadderSettings(BaseSettings):
    """Where the ladder serves, and how often it looks for finished matches to rate."""

    model_config = SettingsConfigDict(env_prefix="PREMIERE_LADDER_", extra="ignore")

    grpc_address: str = Field(
        default="127.0.0.1:50061", description="host:port of the gRPC LadderService."
    )
    http_address: str = Field(
        default="127.0.0.1:8080",
        description="host:port of the JSON API and /metrics.",
    )
    rate_interval_s: float = Field(
        default=5.0,
        gt=0,
        description="Seconds between looks for finished, unrated matches (and standings refits).",
    )
    rate_settle_s: float = Field(
        default=1.0,
        ge=0,
        description="The longest a rating pass waits for the transactions running when it"
        " began (one may be committing a match that finished before those already queued, so"
        " waiting keeps finish order); they normally end within milliseconds, and a pass"
        " rates at once when none is running.",
    )
    exact_after_s: float = Field(
        default=10.0,
        ge=0,
        description="Seconds without a newly rated match after which the official standings,"
        " folded match by match while the ladder moves (an approximation), are refitted on"
        " the whole match log and published, so that standings at rest depend on the matches"
        " alone.",
    )
    omniscient_delay_moves: int = Field(
        default=0,
        ge=0,
        description="The live page's omniscient view (every seat's hand) trails the match by"
        " this many decisions; 0 (the default) offers none. Offered only for matches whose every"
        " seat is a built-in bot (ladder/live.py says why).",
    )
    max_live_matches: int = Field(
        default=8,
        ge=1,
        description="Matches the live page follows at once (one WatchMatch stream each; keep it"
        " at most the arbiter's PREMIERE_MAX_WATCHERS_PER_PEER).",
    )
    max_live_viewers: int = Field(
        default=256, ge=1, description="Browsers following live matches at once, in total."
    )
    max_live_viewers_per_address: int = Field(
        default=8,
        ge=1,
        description="Live viewers one client address may hold at once (more get 429), so that"
        " one client cannot take every live-viewer slot. Behind a proxy every client shares the"
        " proxy's address: raise it there, or bound clients at the proxy.",
    )
    max_live_matches_per_address: int = Field(
        default=0,
        ge=0,
        description="Different live matches one client address may follow at once (more get"
        " 429), so that one client cannot take every one of PREMIERE_LADDER_MAX_LIVE_MATCHES;"
        " 0: half of them (at least one).",
    )
    metrics_top_players: int = Field(
        default=25,
        ge=0,
        le=1000,
        description="Players per game exported with per-player metrics (best live Elo first);"
        " bounds the ladder's /metrics cardinality.",
    )
    metrics_refresh_s: float = Field(
        default=15.0, gt=0, description="Seconds between refreshes of the per-player metrics."
    )
