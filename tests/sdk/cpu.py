"""Bench-only: the bot SDK's CPU per decision against a real arbiter, several SDK builds side by
side in one run, next to the bare gRPC echo client's CPU per message.

    python -m tests.sdk.cpu [--matches 1,16] [--reps 3] [--waves 32] \
        [--variant NAME=python:DIR[,module:Class] | NAME=node:BOT_JS ...]

Each variant is three bot processes holding every seat of 3-player Magic Trick matches (the
bench's RandomBot for Python, bot.js for Node); a Python variant's DIR is put first on the bot's
PYTHONPATH (e.g. an exported clients/python of an older commit; empty: this tree's), and its
bot class may be named after a comma (default: RandomBot), so builds compare on one
arbiter, interleaved wave by wave. CPU is the processes' own (user + system, psutil), summed
over the three, divided by the decisions of the matches played.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.arbiter import cpu_seconds, measure_echo, request_size, wait_all_ended
from tests.integration.services import (
    BIN,
    ROOT,
    Arbiter,
    create_match,
    free_port,
    scratch_database,
    wait_ended,
)

LOGS = Path("/tmp/premiere-sdk-cpu")
RANDOM = "premiere_bot.examples.random_bot:RandomBot"


@dataclass
class Variant:
    name: str
    kind: str
    where: str
    spec: str = RANDOM

    def start(self, arbiter: Arbiter, token: str, log: Path, matches: int) -> subprocess.Popen[Any]:
        env = dict(os.environ) | {"PREMIERE_BOT_TOKEN": token}
        if self.kind == "node":
            command = [
                "node",
                self.where,
                "--arbiter",
                arbiter.address,
                "--max-matches",
                str(matches),
            ]
        else:
            paths = [self.where, str(ROOT)] if self.where else [str(ROOT)]
            env["PYTHONPATH"] = os.pathsep.join(paths)
            command = [
                str(BIN / "premiere-bot"),
                "run",
                self.spec,
                "--arbiter",
                arbiter.address,
                "--max-matches",
                str(matches),
            ]
        return subprocess.Popen(
            command, env=env, cwd=ROOT, stdout=log.open("ab"), stderr=subprocess.STDOUT
        )


def _variant(text: str) -> Variant:
    name, _, rest = text.partition("=")
    kind, _, where = rest.partition(":")
    if kind not in ("python", "node"):
        raise argparse.ArgumentTypeError(f"expected NAME=python:DIR or NAME=node:BOT_JS: {text}")
    where, _, spec = where.partition(",")
    return Variant(name, kind, where, spec or RANDOM)


def _paused_echo(size: int, streams: int, pause: float) -> float:
    server = subprocess.Popen([sys.executable, "-m", "bench.echo", "serve"], stdout=subprocess.PIPE)
    assert server.stdout is not None
    port = server.stdout.readline().strip().decode()
    try:
        count = max(50, int(3.0 / max(pause, 1e-4)))
        arguments = [port, str(size), str(streams), str(count), str(pause)]
        out = subprocess.run(
            [sys.executable, "-m", "tests.sdk.echo_think", *arguments],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        ).stdout
        return float(out)
    finally:
        server.terminate()
        server.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", default="1,16")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--waves", type=int, default=32, help="matches per figure at least")
    parser.add_argument("--variant", type=_variant, action="append", default=[])
    args = parser.parse_args()
    variants: list[Variant] = args.variant or [Variant("current", "python", "")]
    concurrency = tuple(int(n) for n in args.matches.split(","))
    LOGS.mkdir(exist_ok=True)
    cpu: dict[tuple[str, int], float] = defaultdict(float)
    decisions: dict[tuple[str, int], int] = defaultdict(int)
    wall: dict[tuple[str, int], float] = defaultdict(float)
    with scratch_database() as url:
        arbiter = Arbiter(url, free_port(), free_port())
        arbiter.start(LOGS / "arbiter.log")
        bots: dict[str, list[subprocess.Popen[Any]]] = {}
        try:
            for variant in variants:
                names = [f"{variant.name}{i}" for i in range(3)]
                bots[variant.name] = [
                    variant.start(arbiter, arbiter.add_bot(n), LOGS / f"{n}.log", max(concurrency))
                    for n in names
                ]
            stub = arbiter.matches()
            for variant in variants:
                names = [f"{variant.name}{i}" for i in range(3)]
                wait_ended(stub, create_match(stub, names, f"warm-{variant.name}"))
            for rep in range(args.reps):
                for matches in concurrency:
                    order = variants if rep % 2 == 0 else variants[::-1]
                    for variant in order:
                        names = [f"{variant.name}{i}" for i in range(3)]
                        pids = [bot.pid for bot in bots[variant.name]]
                        before = cpu_seconds(pids)
                        started = time.perf_counter()
                        key = (variant.name, matches)
                        for wave in range(max(1, -(-args.waves // matches))):
                            seed = f"{variant.name}-{rep}-{matches}-{wave}"
                            ids = [create_match(stub, names, f"{seed}-{i}") for i in range(matches)]
                            decisions[key] += wait_all_ended(url, ids)
                        wall[key] += time.perf_counter() - started
                        cpu[key] += cpu_seconds(pids) - before
        finally:
            for processes in bots.values():
                for process in processes:
                    process.terminate()
            arbiter.stop()
    echo = measure_echo(request_size(), concurrency, 2000)
    for matches in concurrency:
        reference = echo[matches]["client_cpu_us"]
        print(f"{matches} match(es): echo client CPU per message {reference:.1f} us")
        fastest = max(decisions[(v.name, matches)] / wall[(v.name, matches)] for v in variants)
        pause = 3 * matches / fastest
        paused = _paused_echo(request_size(), matches, pause)
        print(
            f"  (echo client pausing {pause * 1000:.2f} ms per stream after each message, as a"
            f" bot of the fastest variant waits between its requests: {paused:.1f} us)"
        )
        for variant in variants:
            key = (variant.name, matches)
            per = cpu[key] / decisions[key] * 1e6
            rate = decisions[key] / wall[key]
            print(
                f"  {variant.name:>12}: {per:7.1f} us/decision ({per / reference:4.2f}x echo),"
                f" {rate:7.0f} decisions/s, {decisions[key]} decisions"
            )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
