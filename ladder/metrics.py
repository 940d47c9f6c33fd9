"""The ladder's Prometheus metrics, shared by `premiere ladder` and any worker that rates."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from prometheus_client import REGISTRY, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

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
    "Applying one match's live Elo: from reading the match to the commit (in a batch, its "
    "share of the batch).",
    buckets=(0.0005, 0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256, 0.512, 1, 2),
)
RATING_QUEUE = Gauge(
    "premiere_ladder_rating_queue", "Finished matches waiting to be rated, at the last look."
)
STANDINGS_FIT_SECONDS = Histogram(
    "premiere_ladder_standings_fit_seconds",
    "Refitting a game's official standings, loading the new matches included; start is "
    "'cold' (whole log), 'warm' (whole log, compiled further and warm-started), 'fold' (new "
    "matches folded into the previous fit) or 'snapshot' (the stored fit, plus the matches "
    "rated since, on a start).",
    ["game", "start"],
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120),
)


class PlayerCollector(Collector):
    """Per-game and per-player gauges from the ladder's last ``MetricsSnapshot``, refreshed by
    `premiere ladder` every PREMIERE_LADDER_METRICS_REFRESH_S. Cardinality is bounded by
    PREMIERE_LADDER_METRICS_TOP_PLAYERS: that many players per game (best live Elo first), and
    faults and latency only for them; a scrape never touches the database."""

    def __init__(self) -> None:
        self.snapshot: Any = None

    def collect(self) -> Iterator[Metric]:
        snapshot = self.snapshot
        rated = GaugeMetricFamily(
            "premiere_ladder_game_rated_matches",
            "Rated matches of each game (voided ones excluded).",
            labels=["game"],
        )
        players = GaugeMetricFamily(
            "premiere_ladder_game_players", "Players with a rated match, by game.", labels=["game"]
        )
        rating = GaugeMetricFamily(
            "premiere_ladder_player_rating",
            "Live Elo of the top players of each game (PREMIERE_LADDER_METRICS_TOP_PLAYERS).",
            labels=["game", "player"],
        )
        games = GaugeMetricFamily(
            "premiere_ladder_player_games",
            "Rated matches of the top players of each game.",
            labels=["game", "player"],
        )
        faults = GaugeMetricFamily(
            "premiere_ladder_player_faults_day",
            "Faults charged to each top player over its matches of the last day, by kind.",
            labels=["player", "kind"],
        )
        latency = GaugeMetricFamily(
            "premiere_ladder_player_latency_ms_day",
            "Decision latency quantiles of each top player over the last day, milliseconds.",
            labels=["player", "quantile"],
        )
        if snapshot is not None:
            for game, count, people in snapshot.games:
                rated.add_metric([game], count)
                players.add_metric([game], people)
            for entry in snapshot.players:
                rating.add_metric([entry.game, entry.player], entry.rating)
                games.add_metric([entry.game, entry.player], entry.games)
            for player, kind, count in snapshot.faults:
                faults.add_metric([player, kind], count)
            for player, quantile, value in snapshot.latency_ms:
                latency.add_metric([player, quantile], value)
        yield from (rated, players, rating, games, faults, latency)


PLAYERS = PlayerCollector()
REGISTRY.register(PLAYERS)
