"""A speed-game step through the real arbiter: every Spectator is asked at once.

Three probe bot processes log when each request arrives and when they answer. In each
guessing step of the speed game, every request must arrive before any of the step's answers
is sent, carry no other seat's answer, and keep its own deadline although one seat is slow.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from premiere_wire import match_pb2
from tests.integration.services import ROOT, Arbiter, wait_ended

PROBE = Path(__file__).with_name("probe_bot.py")
DELAY_S = 0.15
SLOW_S = 1.2


def start_probe(arbiter: Arbiter, token: str, log: Path, slow: float) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    return subprocess.Popen(
        [sys.executable, str(PROBE), arbiter.address, token, str(log), str(DELAY_S), str(slow)],
        env=env,
        cwd=ROOT,
        stdout=log.with_suffix(".out").open("ab"),
        stderr=subprocess.STDOUT,
    )


def test_speed_game_steps_are_asked_together(arbiter: Arbiter, tmp_path: Path) -> None:
    names = ["p0", "p1", "p2"]
    logs = {name: tmp_path / f"{name}.jsonl" for name in names}
    probes = [
        start_probe(arbiter, arbiter.add_bot(name), logs[name], SLOW_S if name == "p1" else 0)
        for name in names
    ]
    try:
        stub = arbiter.matches()
        request = match_pb2.CreateMatchRequest(game="movie-trailer", seed="speed")
        request.options.update({"speed": "true", "rounds": "1"})
        for seat in (*names, "builtin:heuristic"):
            if seat.startswith("builtin:"):
                request.seats.add(builtin=seat.removeprefix("builtin:"))
            else:
                request.seats.add(bot=seat)
        match_id = stub.CreateMatch(request, timeout=10).match_id
        match = wait_ended(stub, match_id, timeout=180)
        assert match.status == match_pb2.MATCH_STATUS_FINISHED, arbiter.log()
        assert list(match.faults) == []
    finally:
        for probe in probes:
            probe.terminate()
            probe.wait(10)
    events = [json.loads(line) for log in logs.values() for line in log.read_text().splitlines()]
    steps: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    for event in events:
        if event["phase"] == "guess":
            steps[(event["turn"], event["tile"])].append(event)
    assert steps, "no guessing step reached a probe"
    together = 0
    slow_steps = 0
    for step in steps.values():
        received = [e for e in step if e["event"] == "recv"]
        sent = [e for e in step if e["event"] == "send"]
        assert len(received) == len(sent) == len({e["seat"] for e in received})
        # No request of the step carries an answer given in it: the guesses they show are
        # identical and all from earlier scoring tiles.
        assert len({json.dumps(e["guesses"]) for e in received}) == 1
        assert all(g[0] < received[0]["tile"] for g in received[0]["guesses"])
        if len(received) > 1:
            together += 1
            assert max(e["t"] for e in received) < min(e["t"] for e in sent)
            deadlines = [e["deadline"] for e in received]
            assert max(deadlines) - min(deadlines) < 500
            slow = [e for e in sent if e["t"] - _received(received, e)["t"] >= SLOW_S]
            if slow:
                slow_steps += 1
                others = [e for e in sent if e not in slow]
                # The fast seats answered long before the slow one: nobody waited for it.
                assert all(e["t"] < slow[0]["t"] - SLOW_S / 2 for e in others)
    assert together >= 3, f"only {together} guessing steps had several remote seats"
    assert slow_steps == 1


def _received(received: list[dict[str, Any]], sent: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in received if e["seat"] == sent["seat"])
