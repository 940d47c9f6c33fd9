"""The ladder's Prometheus metrics, shared by `premiere ladder` and any worker that rates."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

MATCHES_RATED = Counter(
    "premiere_ladder_matches_rated_total",
    "Matches whose live Elo was applied (each match once, whoever applied it), by game.",
    ["game"],
)
RATING_FAILURES = Counter(
    "premiere_ladder_rating_failures_total",
    "Attempts to rate a match that raised (the match stays queued and is retried).",
)
RATING_SECONDS = Histogram(
    "premiere_ladder_rating_seconds",
    "Applying one match's live Elo: from reading the match to the commit.",
    buckets=(0.0005, 0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256, 0.512, 1, 2),
)
RATING_QUEUE = Gauge(
    "premiere_ladder_rating_queue", "Finished matches waiting to be rated, at the last look."
)
STANDINGS_FIT_SECONDS = Histogram(
    "premiere_ladder_standings_fit_seconds",
    "Refitting a game's official standings, loading the new matches included; start is "
    "'cold' (whole log) or 'warm' (new matches on top of the previous fit).",
    ["game", "start"],
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120),
)
