"""Hosted bots (issue #40): what the sandbox costs, each figure beside the same bot run
without it, in the same run.

- **Sandbox start to first decision**: the example Python bot started exactly as the runner
  starts it (wrapper, cgroups when root, bubblewrap) on a local gateway's socket
  (``hosting.check``), from the start until its first answer arrives; the reference is the
  same program started without the sandbox on the same socket. The bare sandbox (bubblewrap
  running ``true``) beside ``true`` alone says what the sandbox itself adds.
- **Decision round trip**: the arbiter's decision p50 (its own histogram) for matches whose
  every seat is the hosted example bot, run by ``premiere runner``, against the same matches
  played by the same bot connected over TCP with ``premiere-bot run``.
- **Memory per warm hosted bot**: the resident memory of every process of the sandbox
  (bubblewrap and the bot) once connected and idle, against the same bot run without one.
- **Many hosted bots at once**: N hosted bots (50; 4 in the quick mode), each seated in its own
  3-player Magic Trick match against two random built-ins, all at once, warm; every match must
  finish; the arbiter's decisions per second against the same matches with N dial-in bots.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from bench.arbiter import _delta, _histogram, _quantile, wait_all_ended
from bench.rows import Row, print_rows, quick, row

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "clients" / "python" / "hosted"
LOGS = Path("/tmp/premiere-bench")
STARTS = 5 if quick() else 30
MANY = 4 if quick() else 50


def _work() -> Path:
    work = Path(tempfile.mkdtemp(prefix="premiere-bench-hosting-"))
    work.chmod(0o755)
    return work


def _cleanup(work: Path) -> None:
    subprocess.run(["chmod", "-R", "u+w", str(work)], check=False)
    shutil.rmtree(work, ignore_errors=True)


def measure_start() -> dict[str, float]:
    """p50 of start-to-first-answer, sandboxed and not; the bare sandbox; warm memory."""
    from hosting.check import _Gateway, _serve
    from hosting.runtime import build
    from hosting.sandbox import Cgroups, Launch, Pool, bwrap_argv, detect, limits_for, wrapper_argv
    from premiere_wire import bot_gateway_pb2
    from premiere_wire.bundle import check, pack, unpack

    bwrap = detect()
    work = _work()
    root = os.geteuid() == 0
    cgroups = Cgroups()
    try:
        runtime = build(work / "runtime", root)
        data = pack(EXAMPLE)
        checked = check(data)
        bundle = work / "bundle"
        unpack(data, checked.sha256, bundle)
        limits = limits_for(Pool(), checked.manifest.limits)
        sandboxed: list[float] = []
        bare: list[float] = []
        memory: list[float] = []
        plain_rss: list[float] = []
        for n in range(STARTS):
            for inside in (True, False):
                sockets = work / f"sockets-{n}-{inside}"
                sockets.mkdir()
                sockets.chmod(0o755)
                holder: dict[str, Any] = {}
                ready = threading.Event()
                threading.Thread(
                    target=_serve, args=(sockets / "arbiter.sock", ready, holder), daemon=True
                ).start()
                ready.wait(30)
                gateway: _Gateway = holder["gateway"]
                slot = f"bench-{os.getpid()}-{n}"
                launch = Launch(
                    0,
                    "bench",
                    "python",
                    checked.manifest.entry,
                    checked.manifest.games,
                    bundle,
                    sockets,
                    "bench",
                    limits,
                    runtime,
                    300_950 if root else None,
                )
                if inside:
                    procs = cgroups.make(slot, limits) if cgroups.available else []
                    argv = [
                        *wrapper_argv(procs, limits, launch.uid, cgroups.available),
                        *bwrap_argv(launch, bwrap),
                    ]
                    env = {"PATH": "/usr/bin:/bin"}
                    cwd = None
                else:
                    argv = [
                        sys.executable,
                        "-I",
                        "-S",
                        "-c",
                        "import sys; sys.path[:0] = [sys.argv[1], sys.argv[2]];"
                        " sys.argv[1:3] = []; from premiere_bot.hosted import main; main()",
                        str(bundle),
                        str(runtime.python_packages),
                        checked.manifest.entry,
                    ]
                    env = {
                        "PATH": "/usr/bin:/bin",
                        "PREMIERE_ARBITER": f"unix:{sockets / 'arbiter.sock'}",
                        "PREMIERE_BOT_TOKEN": "bench",
                        "PREMIERE_BOT_GAMES": ",".join(checked.manifest.games),
                    }
                    cwd = str(bundle)
                started = time.perf_counter()
                process = subprocess.Popen(
                    argv,
                    env=env,
                    cwd=cwd,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
                try:
                    gateway.connected.wait(60)
                    answered = _first_decision(gateway, holder["loop"], bot_gateway_pb2)
                    (sandboxed if inside else bare).append(answered - started)
                    time.sleep(0.3)
                    (memory if inside else plain_rss).append(_rss_mb(process.pid))
                finally:
                    os.killpg(process.pid, 9)
                    process.wait(10)
                    if inside and cgroups.available:
                        cgroups.kill(slot)
                        time.sleep(0.05)
                        cgroups.remove(slot)
                    holder["loop"].call_soon_threadsafe(holder["stop"].set)
        bwrapped, direct = _bare_sandbox(bwrap, runtime, bundle, work, limits)
        return {
            "sandboxed_ms": statistics.median(sandboxed) * 1000,
            "plain_ms": statistics.median(bare) * 1000,
            "bwrap_true_ms": bwrapped,
            "true_ms": direct,
            "memory_mb": statistics.median(memory),
            "plain_rss_mb": statistics.median(plain_rss),
        }
    finally:
        _cleanup(work)


def _first_decision(gateway: Any, loop: Any, pb: Any) -> float:
    """Sends one Magic Trick decision and returns the moment its answer arrived."""
    from concurrent.futures import Future

    request = _request()
    waiting: Future[Any] = Future()
    gateway.waiting[request.request_id] = waiting
    loop.call_soon_threadsafe(gateway.outbox.put_nowait, pb.ConnectResponse(decision=request))
    waiting.result(timeout=60)
    return time.perf_counter()


def _request() -> Any:
    import games
    from server.codec import decision_request

    game = games.get("magic-trick")
    state = game.new(3, "bench-hosting")
    seat = state.to_move()[0]
    return decision_request(
        game,
        state.observe(seat),
        state.legal_moves(seat),
        request_id="bench:0",
        match_id="bench",
        game=game.id,
        seat=seat,
        move_time_ms=5000,
        time_bank_ms=5000,
    )


def _rss_mb(pid: int) -> float:
    import psutil

    process = psutil.Process(pid)
    total = process.memory_info().rss
    for child in process.children(recursive=True):
        total += child.memory_info().rss
    return total / 2**20


def _bare_sandbox(
    bwrap: str, runtime: Any, bundle: Path, work: Path, limits: Any
) -> tuple[float, float]:
    from hosting.sandbox import Launch, bwrap_argv, wrapper_argv

    sockets = work / "sockets-bare"
    sockets.mkdir()
    sockets.chmod(0o755)
    root = os.geteuid() == 0
    launch = Launch(
        0,
        "bench",
        "binary",
        "true",
        (),
        bundle,
        sockets,
        "x",
        limits,
        runtime,
        300_951 if root else None,
    )
    argv = [
        *wrapper_argv([], limits, launch.uid, False),
        *bwrap_argv(launch, bwrap, ["/usr/bin/true"]),
    ]
    inside, outside = [], []
    for _ in range(STARTS * 2):
        started = time.perf_counter()
        subprocess.run(argv, env={"PATH": "/usr/bin:/bin"}, check=True)
        inside.append(time.perf_counter() - started)
        started = time.perf_counter()
        subprocess.run(["/usr/bin/true"], check=True)
        outside.append(time.perf_counter() - started)
    return statistics.median(inside) * 1000, statistics.median(outside) * 1000


def _arena(url: str, settings: dict[str, str]) -> Any:
    from tests.integration.services import Arbiter, free_port

    arbiter = Arbiter(url, free_port(), free_port(), settings=settings)
    arbiter.start(LOGS / "hosting-arbiter.log")
    return arbiter


def _account(arbiter: Any, count: int) -> list[str]:
    """``count`` hosted bots of one account, each with the example bundle."""
    from premiere_wire.bundle import Caps, pack
    from server import accounts, bundles

    url = arbiter.database_url
    token = accounts.create_account(url, "bench", "open")
    account = accounts.account_by_token(url, token)
    assert account is not None
    data = pack(EXAMPLE)
    names = []
    for n in range(count):
        name = f"hosted-{n}"
        accounts.create_bot(url, account, name, count + 1)
        bundles.store(url, account, name, "", data, Caps(), 1 << 30, None)
        arbiter.admit(name, ["magic-trick"])
        names.append(name)
    return names


def _runner(arbiter: Any, work: Path) -> subprocess.Popen[bytes]:
    from tests.integration.services import BIN, free_port

    return subprocess.Popen(
        [str(BIN / "premiere"), "runner"],
        env=arbiter.env(
            PREMIERE_ARBITER_TARGET=arbiter.address,
            PREMIERE_RUNNER_WORK=str(work / "runner"),
            PREMIERE_RUNNER_POLL_S="0.2",
            PREMIERE_RUNNER_METRICS_PORT=str(free_port()),
            PREMIERE_RUNNER_IDLE_S="600",
            PREMIERE_RUNNER_MAX_RUNNING=str(MANY + 4),
            PREMIERE_RUNNER_ARBITER_SOCKET=str(work / "arbiter.sock"),
        ),
        stdout=(LOGS / "hosting-runner.log").open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _play(arbiter: Any, seats_of: list[list[str]], tag: str) -> tuple[float, float, int]:
    """Creates one match per seat list at once; (decisions/s, decision p50 ms, matches)."""
    from tests.integration.services import create_match

    stub = arbiter.matches()
    metrics = f"http://127.0.0.1:{arbiter.metrics_port}/metrics"
    before = _histogram(
        urllib.request.urlopen(metrics).read().decode(), "premiere_arbiter_decision_seconds"
    )
    started = time.perf_counter()
    ids = [create_match(stub, seats, f"{tag}-{i}") for i, seats in enumerate(seats_of)]
    decisions = wait_all_ended(arbiter.database_url, ids, timeout=900)
    seconds = time.perf_counter() - started
    after = _histogram(
        urllib.request.urlopen(metrics).read().decode(), "premiere_arbiter_decision_seconds"
    )
    import psycopg

    with psycopg.connect(arbiter.database_url) as conn:
        finished = conn.execute(
            "SELECT count(*) FROM matches WHERE id = ANY(%s::uuid[]) AND status = 'finished'",
            (ids,),
        ).fetchone()
    return (
        decisions / seconds,
        _quantile(_delta(after, before), 0.5) * 1000,
        int(finished[0]) if finished else 0,
    )


def measure_arena() -> dict[str, float]:
    """Round trip (every seat one bot, one match at a time) and many bots at once, hosted
    and dialling in, on one arbiter and database."""
    from tests.integration.services import scratch_database, start_bot

    LOGS.mkdir(exist_ok=True)
    settings = {
        "PREMIERE_MAX_BOTS_PER_ACCOUNT": str(MANY + 4),
        "PREMIERE_MAX_STREAMS_PER_ACCOUNT": str(4 * MANY + 8),
        "PREMIERE_MAX_STREAMS_PER_PEER": str(4 * MANY + 8),
        "PREMIERE_HOSTED": "true",
        "PREMIERE_SIGNUP": "open",
    }
    rounds = 2 if quick() else 10
    results: dict[str, float] = {}
    work = _work()
    # Runner and arbiter on one machine: the sandboxes mount the arbiter's own socket.
    settings["PREMIERE_ARBITER_SOCKET"] = str(work / "arbiter.sock")
    with scratch_database() as url:
        arbiter = _arena(url, settings)
        runner = _runner(arbiter, work)
        dialing: list[subprocess.Popen[bytes]] = []
        try:
            hosted = _account(arbiter, MANY)
            warm = [[name, "builtin:random", "builtin:random"] for name in hosted]
            _play(arbiter, warm, "warm-hosted")
            solo = [[hosted[0]] * 3]
            trips = [_play(arbiter, solo, f"trip-hosted-{r}")[1] for r in range(rounds)]
            results["hosted_trip_ms"] = statistics.median(trips)
            rate, _, done = _play(arbiter, warm, "many-hosted")
            results["hosted_rate"], results["hosted_finished"] = rate, done
            runner.terminate()
            runner.wait(30)

            example = "clients.python.hosted.planner:Planner"
            dial = [f"dial-{n}" for n in range(MANY)]
            for name in dial:
                token = arbiter.add_bot(name)
                arbiter.admit(name, ["magic-trick"])
                dialing.append(
                    start_bot(
                        arbiter,
                        example,
                        token,
                        LOGS / f"hosting-{name}.log",
                        ["--max-matches", "8"],
                        {"PYTHONPATH": str(ROOT)},
                    )
                )
            seats = [[name, "builtin:random", "builtin:random"] for name in dial]
            _play(arbiter, seats, "warm-dial")
            trips = [_play(arbiter, [[dial[0]] * 3], f"trip-dial-{r}")[1] for r in range(rounds)]
            results["dial_trip_ms"] = statistics.median(trips)
            rate, _, done = _play(arbiter, seats, "many-dial")
            results["dial_rate"], results["dial_finished"] = rate, done
        finally:
            for bot in dialing:
                bot.terminate()
            for bot in dialing:
                bot.wait(20)
            if runner.poll() is None:
                runner.terminate()
                runner.wait(30)
            arbiter.stop()
            _cleanup(work)
    return results


def run() -> list[Row]:
    start = measure_start()
    arena = measure_arena()
    return [
        row(
            "hosted Python bot: sandbox start to first decision, p50",
            start["sandboxed_ms"],
            "ms",
            "the same program started without the sandbox",
            start["plain_ms"],
            goal="hosted-start",
        ),
        row(
            "the bare sandbox: wrapper and bubblewrap running `true`, p50",
            start["bwrap_true_ms"],
            "ms",
            "`true` alone",
            start["true_ms"],
        ),
        row(
            "decision round trip p50, 1 match, every seat the hosted example bot",
            arena["hosted_trip_ms"],
            "ms",
            "the same bot dialling in over TCP (premiere-bot run)",
            arena["dial_trip_ms"],
            goal="hosted-round-trip",
        ),
        row(
            "memory of a warm hosted bot (resident, every process of its sandbox)",
            start["memory_mb"],
            "MiB",
            "resident memory of the same bot without a sandbox",
            start["plain_rss_mb"],
        ),
        row(
            f"{MANY} hosted bots in concurrent matches: arbiter decisions/s"
            f" ({int(arena['hosted_finished'])} of {MANY} matches finished)",
            arena["hosted_rate"],
            "decisions/s",
            f"the same matches with {MANY} dial-in bots"
            f" ({int(arena['dial_finished'])} of {MANY} finished)",
            arena["dial_rate"],
            goal="hosted-many",
        ),
    ]


if __name__ == "__main__":
    print_rows(run())
