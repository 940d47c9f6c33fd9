"""What one decision and one match cost each shared resource, with one arbiter and with three
(docs/capacity.md builds the capacity model on these figures).

Each run starts fresh arbiters on a fresh scratch database, with the relay on (as a deployment
of several arbiters needs): bots (one stream each, `bench.load`) connect to the arbiters in
equal shares, and Movie Tricks matches at 3, 4 and 5 seats are created on the arbiters in turn
and hosted there (placement off), so with three arbiters most decisions are asked across
Redis. Measured over the matches, from the first created to the last ended:

- arbiter CPU: the arbiter processes' user + system time;
- PostgreSQL: transactions committed in the database (pg_stat_database, flushed before each
  read), WAL bytes written (pg_current_wal_lsn before and after) and the database's growth
  (pg_database_size);
- Redis: commands served (INFO commandstats, the INFO calls themselves left out) and its
  network bytes in and out (INFO stats);
- network: the bot streams' message bytes both ways (serialized sizes, as the load processes
  count them; gRPC and HTTP/2 framing not included).

Unless PREMIERE_DATABASE_URL and PREMIERE_REDIS_URL are set, PostgreSQL and Redis are private
to this run, so their counters see nothing else.
"""

from __future__ import annotations

import os
import signal
import time
from contextlib import ExitStack
from typing import Any

from bench.arbiter import _histogram, cpu_seconds, wait_all_ended
from bench.rows import Row, print_rows, quick, row
from bench.thousand import (
    GAME,
    HISTOGRAM,
    LOGS,
    SEATS,
    _metrics,
    _seatings,
    _stop,
    register,
    start_load,
)

MATCHES = 6 if quick() else 60
BOTS_PER_ARBITER = 6 if quick() else 30
IDLE_S = 2 if quick() else 10


def _redis_counters(url: str) -> tuple[float, float]:
    import redis

    client = redis.Redis.from_url(url)
    try:
        stats = client.info("commandstats")
        calls = sum(float(v["calls"]) for k, v in stats.items() if k not in ("cmdstat_info",))
        net = client.info("stats")
        return calls, float(net["total_net_input_bytes"]) + float(net["total_net_output_bytes"])
    finally:
        client.close()


def _postgres_counters(url: str) -> tuple[float, float, float]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_stat_force_next_flush()")
        found = conn.execute(
            "SELECT xact_commit, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0'),"
            " pg_database_size(current_database())"
            " FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    assert found is not None
    return float(found[0]), float(found[1]), float(found[2])


def _bytes(load: Any) -> float:
    load.send_signal(signal.SIGUSR2)
    line = load.stdout.readline().split()
    assert line[0] == "bytes", line
    return float(line[1]) + float(line[2])


def measure(arbiters: int) -> dict[str, float]:
    from tests.integration.services import (
        Arbiter,
        create_match,
        free_port,
        redis_url,
        scratch_database,
    )

    settings = {
        "PREMIERE_RELAY": "true",
        "PREMIERE_REDIS_URL": redis_url(),
        "PREMIERE_MAX_STREAMS_PER_PEER": "1024",
        # Arbiters link up in pairs (the deployment's default): decisions cross the peer links.
        "PREMIERE_PEER_TOKEN": "bench-peer-token",
        # The relay's cost is what this measures: every match stays where it is created (with
        # placement on, most would move to the arbiter holding most of their bots' streams).
        "PREMIERE_PLACEMENT_WAIT_S": "0",
    }
    with ExitStack() as stack:
        url = stack.enter_context(scratch_database())
        hosts = []
        for n in range(arbiters):
            host = Arbiter(url, free_port(), free_port(), settings=dict(settings))
            host.start(LOGS / f"capacity-{arbiters}-{n}.log")
            stack.callback(host.stop)
            hosts.append(host)
        names, tokens = register(url, f"c{arbiters}-", BOTS_PER_ARBITER * arbiters)
        loads = []
        for n, host in enumerate(hosts):
            share = tokens[n * BOTS_PER_ARBITER : (n + 1) * BOTS_PER_ARBITER]
            load = start_load(host.address, share, f"load-capacity-{arbiters}-{n}.log")
            stack.callback(_stop, load)
            loads.append(load)
        stubs = [host.matches() for host in hosts]
        warm = [
            create_match(stubs[n % arbiters], seats, f"warm-{n}", game=GAME)
            for n, seats in enumerate(_seatings(names, 2 * arbiters, 0))
        ]
        wait_all_ended(url, warm)
        pids = [host.process.pid for host in hosts if host.process is not None]

        def decisions() -> float:
            return sum(_histogram(_metrics(h.metrics_port), HISTOGRAM)[-1][1] for h in hosts)

        # The arbiters' own upkeep (lease renewals, adoption polls, the relay's heartbeats),
        # with no match running: a cost per arbiter-second, not per decision.
        idle_cpu, idle_calls = cpu_seconds(pids), _redis_counters(redis_url())[0]
        idle_commits = _postgres_counters(url)[0]
        time.sleep(IDLE_S)
        idle = {
            "cpu_ms": (cpu_seconds(pids) - idle_cpu) / IDLE_S / arbiters * 1000,
            "redis_ops": (_redis_counters(redis_url())[0] - idle_calls) / IDLE_S / arbiters,
            "commits": (_postgres_counters(url)[0] - idle_commits) / IDLE_S / arbiters,
        }
        decided = decisions()
        cpu = cpu_seconds(pids)
        calls_before, redis_before = _redis_counters(redis_url())
        commits_before, wal_before, size_before = _postgres_counters(url)
        bytes_before = sum(_bytes(load) for load in loads)
        started = time.perf_counter()
        ids = [
            create_match(stubs[n % arbiters], seats, f"run-{n}", game=GAME)
            for n, seats in enumerate(_seatings(names, MATCHES, 7))
        ]
        wait_all_ended(url, ids, timeout=1800)
        seconds = time.perf_counter() - started
        time.sleep(1)
        count = decisions() - decided
        commits, wal, size = _postgres_counters(url)
        calls, redis_bytes = _redis_counters(redis_url())
        return {
            "decisions": count,
            "per_match": count / MATCHES,
            "per_second": count / seconds,
            "cpu_us": (cpu_seconds(pids) - cpu) / count * 1e6,
            "commits": (commits - commits_before) / count,
            "wal_bytes": (wal - wal_before) / count,
            "database_bytes_per_match": (size - size_before) / MATCHES,
            "redis_ops": (calls - calls_before) / count,
            "redis_bytes": (redis_bytes - redis_before) / count,
            "idle_cpu_ms": idle["cpu_ms"],
            "idle_redis_ops": idle["redis_ops"],
            "idle_commits": idle["commits"],
            "stream_bytes": (sum(_bytes(load) for load in loads) - bytes_before) / count,
        }


def run() -> list[Row]:
    LOGS.mkdir(exist_ok=True)
    one = measure(1)
    three = measure(3)
    minute, five, fifteen = os.getloadavg()
    setup = (
        f"{MATCHES} {GAME} matches at {'/'.join(map(str, SEATS))} seats, relay on; machine"
        f" load average {minute:.1f} / {five:.1f} / {fifteen:.1f} at the end"
    )
    rows = [
        row(
            f"capacity: decisions per match ({setup}), three arbiters",
            three["per_match"],
            "decisions",
            "one arbiter",
            one["per_match"],
        ),
        row(
            "capacity: decisions per second, three arbiters on this machine",
            three["per_second"],
            "decisions/s",
            "one arbiter",
            one["per_second"],
        ),
    ]
    rows.append(
        row(
            "capacity: database growth per match (pg_database_size), three arbiters",
            three["database_bytes_per_match"],
            "bytes",
            "one arbiter",
            one["database_bytes_per_match"],
        )
    )
    for key, unit, name in (
        ("cpu_us", "µs", "arbiter CPU per decision (every arbiter summed)"),
        ("commits", "commits", "PostgreSQL commits per decision"),
        ("wal_bytes", "bytes", "PostgreSQL WAL bytes per decision"),
        ("redis_ops", "commands", "Redis commands per decision"),
        ("redis_bytes", "bytes", "Redis network bytes (in + out) per decision"),
        ("stream_bytes", "bytes", "bot stream message bytes (both ways) per decision"),
    ):
        rows.append(
            row(
                f"capacity: {name}, three arbiters",
                three[key],
                unit,
                "one arbiter",
                one[key],
                goal="capacity-holds" if key == "cpu_us" else None,
            )
        )
    for key, unit, name in (
        ("idle_cpu_ms", "ms/s", "arbiter CPU per arbiter-second with no match running"),
        ("idle_commits", "commits/s", "PostgreSQL commits per arbiter-second, no match running"),
        ("idle_redis_ops", "commands/s", "Redis commands per arbiter-second, no match running"),
    ):
        rows.append(
            row(f"capacity: {name}, three arbiters", three[key], unit, "one arbiter", one[key])
        )
    return rows


if __name__ == "__main__":
    print_rows(run())
