"""Decision round trips through the real arbiter, next to a bare gRPC bidirectional echo.

The arbiter runs as its own process on a scratch PostgreSQL database; three remote Python bot
processes hold every seat of 3-player Magic Trick matches (every move durable before the next
request). The reference is a grpc.aio echo server and client in two processes, streaming
messages of the same size as the arbiter's decision requests, at the same concurrency.

CPU per decision comes from the processes' own CPU time (user + system, read from the kernel
through psutil) over the timed section: the arbiter's against the echo server's per message,
the bots' (summed) against the echo client's. The 1-match p50 is also set against the echo's
p50 plus one PostgreSQL commit (an autocommit INSERT, p50), the least a durable move costs.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil

from bench.rows import Row, print_rows, quick, row

ROOT = Path(__file__).resolve().parent.parent
RANDOM = "premiere_bot.examples.random_bot:RandomBot"
LOGS = Path("/tmp/premiere-bench")


def _histogram(text: str, name: str) -> list[tuple[float, float]]:
    buckets: dict[float, float] = {}
    pattern = re.compile(rf'^{name}_bucket\{{.*le="([^"]+)".*\}} (\S+)$')
    for line in text.splitlines():
        found = pattern.match(line)
        if found:
            bound = float("inf") if found.group(1) == "+Inf" else float(found.group(1))
            buckets[bound] = buckets.get(bound, 0.0) + float(found.group(2))
    return sorted(buckets.items())


def _quantile(buckets: list[tuple[float, float]], q: float) -> float:
    """Linear interpolation inside the bucket, as Prometheus' histogram_quantile does."""
    total = buckets[-1][1]
    rank = q * total
    lower_bound, lower_count = 0.0, 0.0
    for bound, count in buckets:
        if count >= rank:
            if bound == float("inf"):
                return lower_bound
            share = (rank - lower_count) / max(count - lower_count, 1e-12)
            return lower_bound + (bound - lower_bound) * share
        lower_bound, lower_count = bound, count
    return lower_bound


def _delta(
    after: list[tuple[float, float]], before: list[tuple[float, float]]
) -> list[tuple[float, float]]:
    base = dict(before)
    return [(bound, count - base.get(bound, 0.0)) for bound, count in after]


def cpu_seconds(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        times = psutil.Process(pid).cpu_times()
        total += times.user + times.system
    return total


def commit_p50_ms(url: str, count: int) -> float:
    """p50 of one autocommit INSERT, the cost of the least durable write."""
    import psycopg

    samples = []
    with psycopg.connect(url, autocommit=True) as conn:
        # A regular table: a temporary one writes no WAL, so its commit would flush nothing.
        conn.execute("CREATE TABLE IF NOT EXISTS bench_commit (n int, body text)")
        for n in range(count):
            started = time.perf_counter()
            conn.execute("INSERT INTO bench_commit VALUES (%s, %s)", (n, "x" * 100))
            samples.append(time.perf_counter() - started)
    conn.close()
    return statistics.median(samples) * 1000


MIN_MATCHES = 1 if quick() else 32
"""Matches per figure at least: below that concurrency they run in waves, one after another."""


def wait_all_ended(url: str, match_ids: list[str], timeout: float = 600) -> int:
    """Wait until every match has ended; returns their decisions. Read from the database, not
    through the arbiter's GetMatch: polling that would add its own load to the arbiter whose
    CPU per decision is being measured."""
    import psycopg

    deadline = time.monotonic() + timeout
    with psycopg.connect(url, autocommit=True) as conn:
        while time.monotonic() < deadline:
            row = conn.execute(
                "SELECT count(*) FROM matches WHERE id = ANY(%s::uuid[])"
                " AND status IN ('finished', 'void')",
                (match_ids,),
            ).fetchone()
            if row is not None and row[0] == len(match_ids):
                moves = conn.execute(
                    "SELECT count(*) FROM match_moves WHERE match_id = ANY(%s::uuid[])",
                    (match_ids,),
                ).fetchone()
                return int(moves[0]) if moves is not None else 0
            time.sleep(0.01)
    raise TimeoutError(f"{len(match_ids)} matches did not all end")


def measure_arbiter(concurrency: tuple[int, ...]) -> tuple[dict[int, dict[str, float]], float]:
    from tests.integration.services import (
        Arbiter,
        create_match,
        free_port,
        scratch_database,
        start_bot,
        wait_ended,
    )

    LOGS.mkdir(exist_ok=True)
    results: dict[int, dict[str, float]] = {}
    with scratch_database() as url:
        commit_ms = commit_p50_ms(url, 50 if quick() else 500)
        arbiter = Arbiter(url, free_port(), free_port())
        arbiter.start(LOGS / "arbiter.log")
        names = ("b0", "b1", "b2")
        bots = [
            start_bot(
                arbiter,
                RANDOM,
                arbiter.add_bot(n),
                LOGS / f"{n}.log",
                ["--max-matches", str(max(concurrency))],
            )
            for n in names
        ]
        metrics_url = f"http://127.0.0.1:{arbiter.metrics_port}/metrics"
        try:
            stub = arbiter.matches()
            wait_ended(stub, create_match(stub, list(names), "warm-up"))
            for matches in concurrency:
                before = _histogram(
                    urllib.request.urlopen(metrics_url).read().decode(),
                    "premiere_arbiter_decision_seconds",
                )
                bot_pids = [bot.pid for bot in bots]
                assert arbiter.process is not None
                arbiter_cpu = cpu_seconds([arbiter.process.pid])
                bots_cpu = cpu_seconds(bot_pids)
                started = time.perf_counter()
                decisions = 0
                for wave in range(max(1, -(-MIN_MATCHES // matches))):
                    ids = [
                        create_match(stub, list(names), f"bench-{matches}-{wave}-{i}")
                        for i in range(matches)
                    ]
                    decisions += wait_all_ended(url, ids)
                seconds = time.perf_counter() - started
                arbiter_cpu = cpu_seconds([arbiter.process.pid]) - arbiter_cpu
                bots_cpu = cpu_seconds(bot_pids) - bots_cpu
                after = _histogram(
                    urllib.request.urlopen(metrics_url).read().decode(),
                    "premiere_arbiter_decision_seconds",
                )
                buckets = _delta(after, before)
                results[matches] = {
                    "p50_ms": _quantile(buckets, 0.5) * 1000,
                    "p99_ms": _quantile(buckets, 0.99) * 1000,
                    "per_second": decisions / seconds,
                    "server_cpu_us": arbiter_cpu / decisions * 1e6,
                    "client_cpu_us": bots_cpu / decisions * 1e6,
                }
        finally:
            for bot in bots:
                bot.terminate()
            arbiter.stop()
    return results, commit_ms


def request_size() -> int:
    """Serialized size of a mid-match Magic Trick decision request, as the arbiter builds it."""
    import games
    from games.rng import Rng
    from server.codec import decision_request

    game = games.get("magic-trick")
    state = game.new(3, "size")
    rng = Rng(b"size")
    for _ in range(80):
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))
    seat = state.to_move()[0]
    request = decision_request(
        game,
        state.observe(seat),
        state.legal_moves(seat),
        request_id="m:80",
        match_id="m",
        game=game.id,
        seat=seat,
    )
    return len(request.SerializeToString())


def measure_echo(
    size: int, concurrency: tuple[int, ...], count: int, grpc_defaults: bool = False
) -> dict[int, dict[str, float]]:
    """With `grpc_defaults`, the echo runs with gRPC's own transport defaults instead of the
    setting every Premiere process (and so the reference) uses (`premiere_wire.transport`)."""
    env = {**os.environ, "GRPC_EXPERIMENTS": ""} if grpc_defaults else None
    server = subprocess.Popen(
        [sys.executable, "-m", "bench.echo", "serve"], stdout=subprocess.PIPE, env=env
    )
    assert server.stdout is not None
    port = int(server.stdout.readline())
    try:
        results = {}
        for streams in concurrency:
            server_cpu = cpu_seconds([server.pid])
            out = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "bench.echo",
                    "client",
                    str(port),
                    str(size),
                    str(streams),
                    str(count),
                ],
                capture_output=True,
                text=True,
                check=True,
                env=env,
            ).stdout.split()
            server_cpu = cpu_seconds([server.pid]) - server_cpu
            messages = streams * count
            results[streams] = {
                "p50_ms": float(out[0]),
                "p99_ms": float(out[1]),
                "per_second": float(out[2]),
                "client_cpu_us": float(out[3]) / messages * 1e6,
                "server_cpu_us": server_cpu / messages * 1e6,
            }
        return results
    finally:
        server.terminate()
        server.wait(10)


def run() -> list[Row]:
    concurrency = (1, 2) if quick() else (1, 16, 64)
    goal_matches = 2 if quick() else 16
    """The goals are set at 16 matches; the quick mode answers them at 2 (smoke only)."""
    size = request_size()
    arbiter, commit_ms = measure_arbiter(concurrency)
    echo = measure_echo(size, concurrency, 300 if quick() else 2000)
    defaults = measure_echo(size, (goal_matches,), 300 if quick() else 2000, grpc_defaults=True)
    rows: list[Row] = []
    for n in concurrency:
        label = f"{n} concurrent match{'es' if n > 1 else ''}"
        streams = f"{n} stream{'s' if n > 1 else ''}"
        reference = f"bare gRPC bidi echo, {size}-byte messages, {streams}"
        for key, unit, name in (
            ("p50_ms", "ms", "decision round trip p50"),
            ("p99_ms", "ms", "decision round trip p99"),
            ("per_second", "decisions/s", "decisions per second"),
        ):
            goal = "arbiter-throughput" if key == "per_second" and n == goal_matches else None
            rows.append(
                row(
                    f"arbiter {name}, {label} of remote Python bots",
                    arbiter[n][key],
                    unit,
                    reference,
                    echo[n][key],
                    goal=goal,
                )
            )
        rows.append(
            row(
                f"arbiter CPU per decision, {label}",
                arbiter[n]["server_cpu_us"],
                "µs",
                f"echo server CPU per message, {streams}",
                echo[n]["server_cpu_us"],
                goal="arbiter-cpu" if n == goal_matches else None,
            )
        )
        rows.append(
            row(
                f"bot SDK CPU per decision (3 bot processes summed), {label}",
                arbiter[n]["client_cpu_us"],
                "µs",
                f"echo client CPU per message, {streams}",
                echo[n]["client_cpu_us"],
            )
        )
    for key, unit, name in (
        ("per_second", "messages/s", "messages per second"),
        ("server_cpu_us", "µs", "server CPU per message"),
        ("client_cpu_us", "µs", "client CPU per message"),
    ):
        rows.append(
            row(
                f"bare gRPC echo with Premiere's transport setting: {name}, {goal_matches} streams",
                echo[goal_matches][key],
                unit,
                "the same echo with gRPC's default transport (GRPC_EXPERIMENTS empty)",
                defaults[goal_matches][key],
            )
        )
    rows.append(
        row(
            "arbiter decision round trip p50, 1 concurrent match",
            arbiter[1]["p50_ms"],
            "ms",
            f"echo p50 (1 stream) + one PostgreSQL commit p50 ({commit_ms:.3f} ms)",
            echo[1]["p50_ms"] + commit_ms,
            goal="round-trip",
        )
    )
    return rows


if __name__ == "__main__":
    print_rows(run())
