"""The arbiter's Prometheus metrics."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

DECISIONS = Counter(
    "premiere_arbiter_decisions_total",
    "Decisions applied, by game and result (ok, timeout, illegal, malformed, disconnect, "
    "unreachable, forfeited, builtin).",
    ["game", "result"],
)
DECISION_LATENCY = Histogram(
    "premiere_arbiter_decision_seconds",
    "Round trip of remote decisions, from request sent to answer received.",
    ["game"],
    buckets=(
        0.00025,
        0.0005,
        0.00075,
        0.001,
        0.0015,
        0.002,
        0.003,
        0.004,
        0.005,
        0.0075,
        0.01,
        0.015,
        0.02,
        0.03,
        0.05,
        0.075,
        0.1,
        0.25,
        0.5,
        1,
        2.5,
        5,
        10,
    ),
)
TIMEOUTS = Counter("premiere_arbiter_timeouts_total", "Decisions that ran out of time.", ["game"])
ILLEGAL = Counter(
    "premiere_arbiter_illegal_moves_total", "Answers refused as illegal or malformed.", ["game"]
)
STRIKES = Counter("premiere_arbiter_strikes_total", "Strikes recorded, by kind.", ["kind"])
FORFEITS = Counter("premiere_arbiter_forfeits_total", "Seats forfeited.", ["game"])
LIVE_MATCHES = Gauge("premiere_arbiter_live_matches", "Matches being hosted now.")
CONNECTED_BOTS = Gauge("premiere_arbiter_connected_bots", "Bot streams connected now.")
STALE_ANSWERS = Counter(
    "premiere_arbiter_refused_answers_total", "Answers refused before validation.", ["reason"]
)
COMMIT_BATCH = Histogram(
    "premiere_arbiter_commit_batch_size",
    "Log records written per database commit (group commit).",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256),
)
MATCHES_FINISHED = Counter(
    "premiere_arbiter_matches_total", "Matches ended, by game and status.", ["game", "status"]
)
ADOPTED = Counter(
    "premiere_arbiter_adopted_matches_total",
    "Unfinished matches this arbiter took over from their logs (lease lapsed, or none).",
)
LOST_LEASES = Counter(
    "premiere_arbiter_lost_leases_total",
    "Matches this arbiter stopped hosting because another arbiter took them over.",
)
PLACED = Counter(
    "premiere_arbiter_placed_matches_total",
    "Matches created here and handed to the arbiter holding most of their bots' streams.",
)
CLAIMED = Counter(
    "premiere_arbiter_claimed_matches_total",
    "Matches another arbiter created and placed here, taken up by this arbiter.",
)
RELAYED = Counter(
    "premiere_arbiter_relayed_decisions_total",
    "Decision requests forwarded through Redis to the arbiter holding the bot's stream (sent"
    " again there after a peer link dropped included).",
)
PEERED = Counter(
    "premiere_arbiter_peer_decisions_total",
    "Decision requests forwarded on a peer link (one stream per pair of arbiters) to the"
    " arbiter holding the bot's stream.",
)
RESENT = Counter(
    "premiere_arbiter_peer_resent_total",
    "Decision requests sent again through Redis because the peer link carrying them dropped.",
)
DECISION_BATCH = Histogram(
    "premiere_arbiter_decision_batch_size",
    "Decision requests per write on streams that take batches (1: a plain DecisionRequest).",
    buckets=(1, 2, 4, 8, 16, 32, 64),
)
