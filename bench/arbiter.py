"""Decision round trips through the real arbiter, next to a bare gRPC bidirectional echo.

The arbiter runs as its own process on a scratch PostgreSQL database; three remote Python bot
processes hold every seat of 3-player Magic Trick matches. The reference is a grpc.aio echo
server and client in two processes, streaming messages of the same size as the arbiter's
decision requests, at the same concurrency.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from bench.rows import print_rows

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


def measure_arbiter(concurrency: tuple[int, ...]) -> dict[int, dict[str, float]]:
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
        arbiter = Arbiter(url, free_port(), free_port())
        arbiter.start(LOGS / "arbiter.log")
        names = ("b0", "b1", "b2")
        bots = [
            start_bot(
                arbiter, RANDOM, arbiter.add_bot(n), LOGS / f"{n}.log", ["--max-matches", "16"]
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
                started = time.perf_counter()
                ids = [
                    create_match(stub, list(names), f"bench-{matches}-{i}") for i in range(matches)
                ]
                ended = [wait_ended(stub, match_id, timeout=600) for match_id in ids]
                seconds = time.perf_counter() - started
                after = _histogram(
                    urllib.request.urlopen(metrics_url).read().decode(),
                    "premiere_arbiter_decision_seconds",
                )
                buckets = _delta(after, before)
                decisions = sum(m.decisions for m in ended)
                results[matches] = {
                    "p50_ms": _quantile(buckets, 0.5) * 1000,
                    "p99_ms": _quantile(buckets, 0.99) * 1000,
                    "per_second": decisions / seconds,
                }
        finally:
            for bot in bots:
                bot.terminate()
            arbiter.stop()
    return results


def request_size() -> int:
    """Serialized size of a mid-match Magic Trick decision request, as the arbiter builds it."""
    import games
    from games.rng import Rng
    from premiere_wire import bot_gateway_pb2
    from server.codec import move_to_wire, observation_to_wire

    game = games.get("magic-trick")
    state = game.new(3, "size")
    rng = Rng(b"size")
    for _ in range(80):
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))
    seat = state.to_move()[0]
    request = bot_gateway_pb2.DecisionRequest(
        request_id="m:80",
        match_id="m",
        game=game.id,
        seat=seat,
        observation=observation_to_wire(game, state.observe(seat)),
        legal_moves=[move_to_wire(game, m) for m in state.legal_moves(seat)],
    )
    return len(request.SerializeToString())


def measure_echo(
    size: int, concurrency: tuple[int, ...], count: int = 400
) -> dict[int, dict[str, float]]:
    server = subprocess.Popen([sys.executable, "-m", "bench.echo", "serve"], stdout=subprocess.PIPE)
    assert server.stdout is not None
    port = int(server.stdout.readline())
    try:
        results = {}
        for streams in concurrency:
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
            ).stdout.split()
            results[streams] = {
                "p50_ms": float(out[0]),
                "p99_ms": float(out[1]),
                "per_second": float(out[2]),
            }
        return results
    finally:
        server.terminate()


def run() -> list[dict[str, object]]:
    concurrency = (1, 16)
    size = request_size()
    arbiter = measure_arbiter(concurrency)
    echo = measure_echo(size, concurrency)
    rows: list[dict[str, object]] = []
    for n in concurrency:
        label = f"{n} concurrent match{'es' if n > 1 else ''}"
        reference = f"bare gRPC bidi echo, {size}-byte messages, {n} stream{'s' if n > 1 else ''}"
        for key, unit, name in (
            ("p50_ms", "ms", "decision round trip p50"),
            ("p99_ms", "ms", "decision round trip p99"),
            ("per_second", "decisions/s", "decisions per second"),
        ):
            rows.append(
                {
                    "name": f"arbiter {name}, {label} of remote Python bots",
                    "value": round(arbiter[n][key], 2),
                    "unit": unit,
                    "reference": reference,
                    "reference_value": round(echo[n][key], 2),
                }
            )
    return rows


if __name__ == "__main__":
    print_rows(run())
