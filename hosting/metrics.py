"""The runner's metrics, on its /metrics (PREMIERE_RUNNER_METRICS_PORT)."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

RUNNING = Gauge("premiere_runner_hosted_bots", "Hosted bots running now.")
STARTS = Counter("premiere_runner_starts_total", "Hosted bots started.")
STOPS = Counter(
    "premiere_runner_stops_total",
    "Hosted bots stopped, by why: idle, retired, crashed, crash-loop, runner (it stopped).",
    ["reason"],
)
START_SECONDS = Histogram(
    "premiere_runner_start_seconds",
    "From the decision to start a hosted bot to its sandbox running (bundle unpacked, token"
    " drawn, socket and cgroups made).",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
CPU_SECONDS = Counter(
    "premiere_runner_cpu_seconds_total", "CPU time of every hosted bot, by the kernel's count."
)
DROPPED_LINES = Counter(
    "premiere_runner_dropped_lines_total", "Output lines of hosted bots dropped (floods)."
)
