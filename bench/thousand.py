"""A thousand concurrent matches on one arbiter, next to 64 on the same arbiter in the same run.

Every seat is a remote bot: a few hundred bots, each its own token and its own BotGateway
stream (taking decision batches, up to MAX_MATCHES matches at once), held by two load processes
(`bench.load`) that answer a random legal move at once. Matches are Movie Tricks at 3, 4 and 5
seats in turn, every move durable before the next request. The 64-match figure is measured
before and after the 1,000-match run on the same arbiter and streams, and their mean is the
reference, so the machine's load drifting during the run weighs on both. Decisions per second
are counted while every match of a run is live (from the last one created until a tenth have
ended: creating a thousand matches takes many seconds, during which few are playing, and the
last ones end one by one), and also over the whole run.

Decision overhead is the arbiter's decision round trip histogram (ask to answer; the bots take
no time to think). A decision is starved when its round trip took more than a tenth of its move
clock (the matches' move time is 2.5 s, so 250 ms, a bucket bound of the histogram).

Memory is the arbiter's resident set size, on a fresh arbiter and database: with the play
streams connected and a few matches played (the baseline), then with IDLE_STREAMS more streams
connected and idle (per stream), then with the 1,000 matches created and live, each waiting on
its first decision, which the load process holds unanswered (per match).

The arbiter's per-address stream cap (PREMIERE_MAX_STREAMS_PER_PEER, 32 by default, which is
also its HTTP/2 per-connection stream limit) is raised for this benchmark; every other setting
is the default, the match lease included.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import psutil

from bench.arbiter import _delta, _histogram, _quantile, cpu_seconds, wait_all_ended
from bench.rows import Row, print_rows, quick, row

LOGS = Path("/tmp/premiere-bench")
GAME = "movie-tricks"
SEATS = (3, 4, 5)
MOVE_TIME_MS = 2500
STARVED_S = MOVE_TIME_MS / 10 / 1000
HISTOGRAM = "premiere_arbiter_decision_seconds"
MAX_MATCHES = 16
LOAD_PROCESSES = 2
MANY = 8 if quick() else 1000
FEW = 2 if quick() else 64
PLAY_STREAMS = 8 if quick() else 400
IDLE_STREAMS = 20 if quick() else 2000
SETTINGS = {"PREMIERE_MAX_STREAMS_PER_PEER": "8192"}
"""Raised for this benchmark alone: every bot of the benchmark connects from 127.0.0.1."""


def register(url: str, prefix: str, count: int) -> tuple[list[str], list[str]]:
    """``count`` bots registered as `premiere bots add` does, in one transaction: names, tokens."""
    import psycopg

    from server.store import hash_token, new_token

    names = [f"{prefix}{n}" for n in range(count)]
    tokens = [new_token() for _ in names]
    with psycopg.connect(url) as conn, conn.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO bots (name, token_hash) VALUES (%s, %s)",
            [(name, hash_token(token)) for name, token in zip(names, tokens, strict=True)],
        )
    return names, tokens


def start_load(address: str, tokens: list[str], log: str) -> subprocess.Popen[str]:
    """A `bench.load` process holding one stream per token; returns once every one is welcomed."""
    folder = Path(tempfile.mkdtemp(prefix="premiere-bench-load-"))
    path = folder / "tokens"
    path.write_text("\n".join(tokens) + "\n")
    channels = str(max(1, len(tokens) // 50))
    command = [sys.executable, "-m", "bench.load", address, str(path), GAME, str(MAX_MATCHES)]
    process = subprocess.Popen(
        [*command, channels],
        stdout=subprocess.PIPE,
        stderr=(LOGS / log).open("ab"),
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    shutil.rmtree(folder, ignore_errors=True)  # read at its start: bot tokens left in /tmp else
    if not line.startswith("ready"):
        process.kill()
        raise RuntimeError(f"load process failed: {(LOGS / log).read_text()[-2000:]}")
    return process


def _metrics(port: int) -> str:
    return str(urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics").read().decode())


def _gauge(text: str, name: str) -> float:
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return 0.0


def _rss(pid: int) -> int:
    time.sleep(2)
    return int(psutil.Process(pid).memory_info().rss)


def _seatings(names: list[str], matches: int, start: int) -> list[list[str]]:
    """Tables of 3, 4 and 5 seats in turn, bots dealt round-robin (so every bot holds about
    the same number of seats, and no bot sits twice at a table)."""
    tables = []
    at = start
    for n in range(matches):
        size = SEATS[n % len(SEATS)]
        tables.append([names[(at + k) % len(names)] for k in range(size)])
        at += size
    return tables


def create_all(arbiter: object, tables: list[list[str]], label: str, **clock: int) -> list[str]:
    from tests.integration.services import create_match

    stub = arbiter.matches()  # type: ignore[attr-defined]
    with ThreadPoolExecutor(8) as pool:
        return list(
            pool.map(
                lambda pair: create_match(stub, pair[1], f"{label}-{pair[0]}", game=GAME, **clock),
                enumerate(tables),
            )
        )


@dataclass(frozen=True)
class Sample:
    at: float
    decisions: float
    live: float
    cpu: float


class Sampler(threading.Thread):
    """The arbiter's decision count, live matches and CPU, four times a second."""

    def __init__(self, port: int, pid: int) -> None:
        super().__init__(daemon=True)
        self.port, self.pid = port, pid
        self.samples: list[Sample] = []
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(0.25):
            text = _metrics(self.port)
            decisions = _histogram(text, HISTOGRAM)
            self.samples.append(
                Sample(
                    time.perf_counter(),
                    decisions[-1][1] if decisions else 0.0,
                    _gauge(text, "premiere_arbiter_live_matches"),
                    cpu_seconds([self.pid]),
                )
            )


def steady(samples: list[Sample], created_at: float, matches: int) -> tuple[float, float] | None:
    """Decisions per second and arbiter CPU per decision (µs) while every match is live: from
    the last creation until the first sample with under nine tenths of them live (matches then
    end one after another). None when that window is under a second or holds no decision."""
    window = [s for s in samples if s.at >= created_at]
    if not window:
        return None
    first = window[0]
    last = next((s for s in window if s.live < 0.9 * matches), window[-1])
    if last.at - first.at < 1.0 or last.decisions <= first.decisions:
        return None
    decisions = last.decisions - first.decisions
    return decisions / (last.at - first.at), (last.cpu - first.cpu) / decisions * 1e6


def play(arbiter: object, url: str, names: list[str], matches: int, label: str) -> dict[str, float]:
    """Create ``matches`` matches at once and wait for every one to end."""
    import psycopg

    port = arbiter.metrics_port  # type: ignore[attr-defined]
    pid = arbiter.process.pid  # type: ignore[attr-defined]
    before = _histogram(_metrics(port), HISTOGRAM)
    cpu = cpu_seconds([pid])
    sampler = Sampler(port, pid)
    sampler.start()
    started = time.perf_counter()
    tables = _seatings(names, matches, matches)
    ids = create_all(arbiter, tables, label, move_time_ms=MOVE_TIME_MS)
    created = time.perf_counter()
    wait_all_ended(url, ids, timeout=3600)
    seconds = time.perf_counter() - started
    sampler.stopped.set()
    sampler.join()
    live = steady(sampler.samples, created, matches)
    cpu = cpu_seconds([pid]) - cpu
    buckets = _delta(_histogram(_metrics(port), HISTOGRAM), before)
    decisions = buckets[-1][1]
    starved = decisions - dict(buckets)[STARVED_S]
    with psycopg.connect(url) as conn:
        finished = conn.execute(
            "SELECT count(*) FILTER (WHERE status = 'finished') FROM matches"
            " WHERE id = ANY(%s::uuid[])",
            (ids,),
        ).fetchone()
        faults = conn.execute(
            "SELECT count(*) FROM match_faults WHERE match_id = ANY(%s::uuid[])", (ids,)
        ).fetchone()
    return {
        "per_second": decisions / seconds,
        "p50_ms": _quantile(buckets, 0.5) * 1000,
        "p99_ms": _quantile(buckets, 0.99) * 1000,
        "starved": starved,
        "decisions": decisions,
        "finished": float(finished[0]) if finished else 0.0,
        "faults": float(faults[0]) if faults else 0.0,
        "cpu_us": cpu / decisions * 1e6,
        "seconds": seconds,
        "create_s": created - started,
        "live_per_second": live[0] if live else decisions / seconds,
        "live_cpu_us": live[1] if live else cpu / decisions * 1e6,
        "live_window": 1.0 if live else 0.0,
    }


def _stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def _arbiter(stack: ExitStack, log: str) -> tuple[object, str]:
    from tests.integration.services import Arbiter, free_port, scratch_database

    url = stack.enter_context(scratch_database())
    arbiter = Arbiter(url, free_port(), free_port(), settings=dict(SETTINGS))
    arbiter.start(LOGS / log)
    stack.callback(arbiter.stop)
    return arbiter, url


def _players(
    stack: ExitStack, arbiter: object, url: str, prefix: str
) -> tuple[list[str], list[subprocess.Popen[str]]]:
    names, tokens = register(url, prefix, PLAY_STREAMS)
    share = -(-len(tokens) // LOAD_PROCESSES)
    loads = []
    for n in range(LOAD_PROCESSES):
        load = start_load(
            arbiter.address,  # type: ignore[attr-defined]
            tokens[n * share : (n + 1) * share],
            f"load-{prefix}{n}.log",
        )
        stack.callback(_stop, load)
        loads.append(load)
    return names, loads


def measure_memory() -> dict[str, float]:
    with ExitStack() as stack:
        arbiter, url = _arbiter(stack, "thousand-memory.log")
        pid = arbiter.process.pid  # type: ignore[attr-defined]
        names, players = _players(stack, arbiter, url, "m")
        wait_all_ended(url, create_all(arbiter, _seatings(names, 8, 0), "warm-up"))
        base = _rss(pid)
        _, idle_tokens = register(url, "idle", IDLE_STREAMS)
        idle = start_load(arbiter.address, idle_tokens, "load-idle.log")  # type: ignore[attr-defined]
        stack.callback(_stop, idle)
        with_idle = _rss(pid)
        for p in players:
            p.send_signal(signal.SIGUSR1)
        create_all(
            arbiter,
            _seatings(names, MANY, 0),
            "held",
            move_time_ms=MOVE_TIME_MS,
            time_bank_ms=600_000,
        )
        deadline = time.monotonic() + 600
        port = arbiter.metrics_port  # type: ignore[attr-defined]
        while _gauge(_metrics(port), "premiere_arbiter_live_matches") < MANY:
            if time.monotonic() > deadline:
                raise TimeoutError("the held matches did not all start")
            time.sleep(0.5)
        with_matches = _rss(pid)
        live = _gauge(_metrics(port), "premiere_arbiter_live_matches")
    return {
        "base_mib": base / 2**20,
        "per_stream_kib": (with_idle - base) / IDLE_STREAMS / 1024,
        "per_match_kib": (with_matches - with_idle) / live / 1024,
        "live": live,
    }


def measure_throughput() -> dict[str, dict[str, float]]:
    with ExitStack() as stack:
        arbiter, url = _arbiter(stack, "thousand.log")
        names, _ = _players(stack, arbiter, url, "p")
        wait_all_ended(url, create_all(arbiter, _seatings(names, 8, 0), "warm-up"))
        return {
            "few-before": play(arbiter, url, names, FEW, "few-before"),
            "many": play(arbiter, url, names, MANY, "many"),
            "few-after": play(arbiter, url, names, FEW, "few-after"),
        }


def _load_text() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f} / {five:.1f} / {fifteen:.1f} (1 / 5 / 15 min)"


def live_or_whole(many: dict[str, float], few: dict[str, float]) -> tuple[float, float, bool]:
    """Decisions per second of the many matches and of the few, both while all were live, or
    (when either run had no such window: a slow machine creating the thousand while the first
    already ended) both over their whole runs, never one of each; and whether it was the
    latter. `few` is the mean of two runs: its window counts only if both had one."""
    if many["live_window"] == 1.0 and few["live_window"] == 1.0:
        return many["live_per_second"], few["live_per_second"], False
    return many["per_second"], few["per_second"], True


def run() -> list[Row]:
    LOGS.mkdir(exist_ok=True)
    load_before = _load_text()
    figures = measure_throughput()
    memory = measure_memory()
    many, before, after = figures["many"], figures["few-before"], figures["few-after"]
    few = {key: (before[key] + after[key]) / 2 for key in before}
    setup = (
        f"{PLAY_STREAMS} bot streams in {LOAD_PROCESSES} load processes, {GAME} at 3-5 seats,"
        f" every move durable"
    )
    reference = f"{FEW} concurrent matches, same arbiter and streams (mean of before and after)"
    figure, compared, whole = live_or_whole(many, few)
    window = " (window too short: whole runs compared)" if whole else ""
    rows = [
        row(
            f"{MANY} concurrent matches on one arbiter: decisions per second while all are live"
            f" ({setup}; from the last creation until a tenth have ended{window};"
            f" machine at {load_before} when it started)",
            figure,
            "decisions/s",
            reference,
            compared,
            goal="thousand-throughput",
        ),
        row(
            f"{MANY} concurrent matches: decisions per second over the whole run (creating them"
            f" took {many['create_s']:.1f} s of {many['seconds']:.0f} s)",
            many["per_second"],
            "decisions/s",
            reference,
            few["per_second"],
        ),
        row(
            f"{MANY} concurrent matches: decision round trip p50 (arbiter histogram)",
            many["p50_ms"],
            "ms",
            reference,
            few["p50_ms"],
        ),
        row(
            f"{MANY} concurrent matches: decision round trip p99 (arbiter histogram)",
            many["p99_ms"],
            "ms",
            reference,
            few["p99_ms"],
        ),
        row(
            f"{MANY} concurrent matches: arbiter CPU per decision while all are live",
            many["live_cpu_us"],
            "µs",
            reference,
            few["live_cpu_us"],
        ),
        row(
            f"{MANY} concurrent matches: arbiter CPU per decision over the whole run",
            many["cpu_us"],
            "µs",
            reference,
            few["cpu_us"],
        ),
        row(
            f"{MANY} concurrent matches: starved decisions (round trip over a tenth of the"
            f" {MOVE_TIME_MS} ms move clock), of {many['decisions']:.0f}",
            many["starved"],
            "decisions",
            reference,
            before["starved"] + after["starved"],
            goal="thousand-starved",
        ),
        row(
            f"{MANY} concurrent matches: matches finished ({many['faults']:.0f} faults recorded)",
            many["finished"],
            "matches",
            "matches created",
            MANY,
            goal="thousand-finished",
        ),
        row(
            f"arbiter memory per live match ({memory['live']:.0f} live, each waiting on a"
            f" decision; RSS delta over {memory['base_mib']:.0f} MiB)",
            memory["per_match_kib"],
            "KiB",
            "goal",
            64,
            goal="thousand-match-memory",
        ),
        row(
            f"arbiter memory per connected idle bot stream ({IDLE_STREAMS} streams; RSS delta)",
            memory["per_stream_kib"],
            "KiB",
            "goal",
            32,
            goal="thousand-stream-memory",
        ),
    ]
    return rows


if __name__ == "__main__":
    print_rows(run())
