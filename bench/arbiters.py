"""Decisions with one arbiter and with two: the cost of forwarding a decision request through
Redis to the arbiter that holds the bot's stream (PREMIERE_RELAY), and what placing a match on
the arbiter holding its bots' streams (PREMIERE_PLACEMENT_WAIT_S) wins back.

Every run uses four arbiters with the relay on, on one scratch database, and three remote
Python bot processes connected to `home`. "One arbiter": the matches are created on `home`,
so every decision is asked directly. "Two arbiters, via Redis": they are created on an arbiter
with placement off and no peer token, which hosts them itself, so every decision request and
answer crosses Redis. "Two arbiters, peer link": the same on an arbiter sharing the peer token
with `home`, so every decision request and answer crosses their one peer stream. "Two
arbiters, placed": they are created on an arbiter with placement on, which hands each to
`home` (the hand-over is inside the measured time). Latency is the decision round trip
histogram (ask to answer) of every arbiter together, wherever the matches were hosted.
"""

from __future__ import annotations

import urllib.request
from pathlib import Path

from bench.arbiter import _delta, _histogram, _quantile
from bench.rows import print_rows, quick, row

RANDOM = "premiere_bot.examples.random_bot:RandomBot"
LOGS = Path("/tmp/premiere-bench")
HISTOGRAM = "premiere_arbiter_decision_seconds"
ROUNDS = 1 if quick() else 8


def _scrape(metrics_ports: list[int]) -> list[tuple[float, float]]:
    """The decision histogram summed over these arbiters."""
    text = "".join(
        urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics").read().decode()
        for port in metrics_ports
    )
    return _histogram(text, HISTOGRAM)


def _span(database_url: str, ids: list[str]) -> float:
    """Seconds from the first match's creation to the last one's finish, on the database's
    clock (polling for the ends would add up to a poll's interval to every batch)."""
    import psycopg

    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT extract(epoch FROM max(finished_at) - min(created_at))::float8"
            " FROM matches WHERE id = ANY(%s::uuid[])",
            (ids,),
        ).fetchone()
    assert row is not None and row[0] is not None
    return float(row[0])


def _sum(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Two cumulative histograms added bucket by bucket."""
    counts = dict(a)
    return [(bound, count + counts.get(bound, 0.0)) for bound, count in b]


def measure(concurrency: tuple[int, ...]) -> dict[tuple[str, int], dict[str, float]]:
    from tests.integration.services import (
        Arbiter,
        create_match,
        free_port,
        redis_url,
        scratch_database,
        start_bot,
        wait_ended,
    )

    LOGS.mkdir(exist_ok=True)
    results: dict[tuple[str, int], dict[str, float]] = {}
    redis_only = {"PREMIERE_RELAY": "true", "PREMIERE_REDIS_URL": redis_url()}
    settings = redis_only | {"PREMIERE_PEER_TOKEN": "bench-peer-token"}
    unplaced = {"PREMIERE_PLACEMENT_WAIT_S": "0"}
    with scratch_database() as url:
        front = Arbiter(url, free_port(), free_port(), settings=redis_only | unplaced)
        peered = Arbiter(url, free_port(), free_port(), settings=settings | unplaced)
        placing = Arbiter(url, free_port(), free_port(), settings=settings)
        home = Arbiter(url, free_port(), free_port(), settings=settings)
        front.start(LOGS / "arbiters-front.log")
        peered.start(LOGS / "arbiters-peered.log")
        placing.start(LOGS / "arbiters-placing.log")
        home.start(LOGS / "arbiters-home.log")
        ports = [a.metrics_port for a in (front, peered, placing, home)]
        names = ("r0", "r1", "r2")
        bots = [
            start_bot(home, RANDOM, home.add_bot(n), LOGS / f"{n}.log", ["--max-matches", "16"])
            for n in names
        ]
        try:
            wait_ended(home.matches(), create_match(home.matches(), list(names), "warm-up"))
            hosts = {"one": home, "two": front, "peer": peered, "placed": placing}
            for matches in concurrency:
                # The set-ups take turns, ROUNDS times: on a shared machine the load of the
                # moment then weighs on each of them alike.
                decisions = dict.fromkeys(hosts, 0)
                seconds = dict.fromkeys(hosts, 0.0)
                histograms: dict[str, list[tuple[float, float]]] = {label: [] for label in hosts}
                for turn in range(ROUNDS):
                    for label, host in hosts.items():
                        stub = host.matches()
                        before = _scrape(ports)
                        ids = [
                            create_match(stub, list(names), f"{label}-{matches}-{turn}-{i}")
                            for i in range(matches)
                        ]
                        ended = [wait_ended(stub, match_id, timeout=600) for match_id in ids]
                        seconds[label] += _span(url, ids)
                        decisions[label] += sum(m.decisions for m in ended)
                        buckets = _delta(_scrape(ports), before)
                        histograms[label] = _sum(histograms[label], buckets)
                for label in hosts:
                    results[(label, matches)] = {
                        "p50_ms": _quantile(histograms[label], 0.5) * 1000,
                        "p99_ms": _quantile(histograms[label], 0.99) * 1000,
                        "per_second": decisions[label] / seconds[label],
                    }
        finally:
            for bot in bots:
                bot.terminate()
            front.stop()
            peered.stop()
            placing.stop()
            home.stop()
    return results


def run() -> list[dict[str, object]]:
    concurrency = (1, 8)
    figures = measure(concurrency)
    rows = []
    for route, via, overhead_name in (
        ("two", "via Redis", "routing overhead per decision"),
        ("peer", "peer link", "routing overhead per decision on the peer link"),
    ):
        for n in concurrency:
            label = f"{n} concurrent match{'es' if n > 1 else ''}"
            for key, unit, name in (
                ("p50_ms", "ms", "decision round trip p50"),
                ("p99_ms", "ms", "decision round trip p99"),
                ("per_second", "decisions/s", "decisions per second"),
            ):
                rows.append(
                    row(
                        f"two arbiters (bots on the other one, {via}): {name}, {label}",
                        figures[(route, n)][key],
                        unit,
                        f"one arbiter (bots on the host): {name}, {label}",
                        figures[("one", n)][key],
                    )
                )
            overhead = figures[(route, n)]["p50_ms"] - figures[("one", n)]["p50_ms"]
            rows.append(
                row(
                    f"{overhead_name} (p50, two minus one), {label}",
                    overhead,
                    "ms",
                    "none with one arbiter",
                    0.0,
                )
            )
    for n in concurrency:
        label = f"{n} concurrent match{'es' if n > 1 else ''}"
        for key, unit, name, goal in (
            ("p50_ms", "ms", "decision round trip p50", None),
            ("p99_ms", "ms", "decision round trip p99", None),
            ("per_second", "decisions/s", "decisions per second", "placement-throughput"),
        ):
            rows.append(
                row(
                    f"two arbiters, placement on (created on the other one, hosted where the"
                    f" bots are): {name}, {label}",
                    figures[("placed", n)][key],
                    unit,
                    f"one arbiter (bots on the host): {name}, {label}",
                    figures[("one", n)][key],
                    goal=goal,
                )
            )
        overhead = figures[("placed", n)]["p50_ms"] - figures[("one", n)]["p50_ms"]
        rows.append(
            row(
                f"routing overhead per decision with placement (p50, placed minus one), {label}",
                overhead,
                "ms",
                "none with one arbiter",
                0.0,
                goal="placement-overhead",
            )
        )
    return rows


if __name__ == "__main__":
    print_rows(run())
