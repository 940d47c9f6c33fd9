"""Two arbiters on one database: a match hosted by one plays with bots connected to the other
(decisions forwarded through Redis), and when its arbiter is killed with kill -9 the other
takes it over from the log within 15 s and ends it exactly as an uninterrupted run."""

from __future__ import annotations

import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import psycopg

from premiere_wire import match_pb2
from tests.integration.services import (
    Arbiter,
    create_match,
    free_port,
    redis_url,
    start_bot,
    wait_ended,
)

STEADY = "tests.integration.bad_bots:SteadyBot"
SEATS = ["alpha", "beta", "builtin:heuristic", "builtin:random"]
FAST_LEASES = {
    "PREMIERE_RELAY": "true",
    "PREMIERE_LEASE_S": "3",
    "PREMIERE_LEASE_RENEW_S": "0.5",
    # Each match here stays where it is created, away from its bots, so its decisions cross
    # the relay (test_placement.py hands such matches to the bots' arbiter).
    "PREMIERE_PLACEMENT_WAIT_S": "0",
}


def decisions(arbiter: Arbiter, match_id: str) -> int:
    reply = arbiter.matches().GetMatch(match_pb2.GetMatchRequest(match_id=match_id), timeout=10)
    return int(reply.match.decisions)


def wait_decisions(arbiter: Arbiter, match_id: str, count: int, timeout: float) -> float:
    started = time.monotonic()
    while decisions(arbiter, match_id) < count:
        assert time.monotonic() - started < timeout, arbiter.log()
        time.sleep(0.05)
    return time.monotonic() - started


def follow(arbiter: Arbiter, match_id: str) -> Iterator[match_pb2.WatchMatchResponse]:
    request = match_pb2.WatchMatchRequest(match_id=match_id)
    yield from arbiter.matches().WatchMatch(request, timeout=120)


def metric(arbiter: Arbiter, name: str) -> float | None:
    """A counter from the arbiter's /metrics."""
    url = f"http://127.0.0.1:{arbiter.metrics_port}/metrics"
    text = urllib.request.urlopen(url, timeout=5).read().decode()
    values = [line.split()[-1] for line in text.splitlines() if line.startswith(name + " ")]
    return float(values[0]) if values else 0.0


def fences(database_url: str, match_id: str) -> list[int]:
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT fence FROM match_moves WHERE match_id = %s ORDER BY ply", (match_id,)
        ).fetchall()
    return [row[0] for row in rows]


def test_a_killed_arbiters_match_continues_on_the_other(database_url: str, tmp_path: Path) -> None:
    settings = FAST_LEASES | {"PREMIERE_REDIS_URL": redis_url()}
    first = Arbiter(database_url, free_port(), free_port(), settings=settings)
    second = Arbiter(database_url, free_port(), free_port(), settings=settings)
    first.start(tmp_path / "first.log")
    second.start(tmp_path / "second.log")
    tokens = {name: first.add_bot(name) for name in ("alpha", "beta")}
    bots = [start_bot(second, STEADY, tokens[n], tmp_path / f"{n}.log") for n in tokens]
    try:
        reference = wait_ended(second.matches(), create_match(second.matches(), SEATS, "fo"))
        assert reference.status == match_pb2.MATCH_STATUS_FINISHED, second.log()

        # Hosted by the first arbiter; its bots are connected to the second only, and it is
        # watched through the second from the start.
        match_id = create_match(first.matches(), SEATS, "fo")
        watched: list[match_pb2.WatchMatchResponse] = []
        watch = threading.Thread(target=lambda: watched.extend(follow(second, match_id)))
        watch.start()
        wait_decisions(first, match_id, 30, 60)
        relayed = metric(first, "premiere_arbiter_relayed_decisions_total")
        assert relayed is not None and relayed >= 15  # the bots' seats, asked through Redis
        first.kill()
        before = decisions(second, match_id)
        gap = wait_decisions(second, match_id, before + 1, 15)

        resumed = wait_ended(second.matches(), match_id)
        assert resumed.status == match_pb2.MATCH_STATUS_FINISHED, second.log()
        assert list(resumed.outcome.scores) == list(reference.outcome.scores)
        assert list(resumed.outcome.ranks) == list(reference.outcome.ranks)
        assert resumed.decisions == reference.decisions
        assert [(f.kind, f.blame) for f in resumed.faults] == [("restart", "infrastructure")]
        watch.join(30)
        assert not watch.is_alive() and watched[-1].HasField("ended"), watched[-3:]
        assert watched[-1].ended.status == match_pb2.MATCH_STATUS_FINISHED
        plies = [m.move.decision_number for m in watched if m.HasField("move")]
        assert plies == list(range(reference.decisions))
        held = fences(database_url, match_id)
        assert held == sorted(held) and set(held) == {1, 2}, held
        assert metric(second, "premiere_arbiter_adopted_matches_total") >= 1
        assert metric(second, "premiere_arbiter_relayed_decisions_total") == 0

        print(f"took over in {gap:.1f} s")
    finally:
        for bot in bots:
            bot.terminate()
            bot.wait(10)
        first.stop()
        second.stop()


def test_a_bots_match_slots_hold_across_arbiters(database_url: str, tmp_path: Path) -> None:
    """A bot that plays one match at a time, connected to one arbiter: two matches created on
    two arbiters play one after the other, not at once, each hosted by its creator alone."""
    settings = FAST_LEASES | {"PREMIERE_REDIS_URL": redis_url()}
    first = Arbiter(database_url, free_port(), free_port(), settings=settings)
    second = Arbiter(database_url, free_port(), free_port(), settings=settings)
    first.start(tmp_path / "first.log")
    second.start(tmp_path / "second.log")
    token = first.add_bot("single")
    bot = start_bot(second, STEADY, token, tmp_path / "single.log", ["--max-matches", "1"])
    seats = ["single", "builtin:heuristic", "builtin:random"]
    try:
        ids = [create_match(a.matches(), seats, f"slot-{n}") for n, a in enumerate((first, second))]
        for match_id in ids:
            ended = wait_ended(second.matches(), match_id)
            assert ended.status == match_pb2.MATCH_STATUS_FINISHED, (first.log(), second.log())
            assert list(ended.faults) == [], "no false restart: each match had one host"
        with psycopg.connect(database_url) as conn:
            spans = conn.execute(
                "SELECT started_at, finished_at FROM matches WHERE id = ANY(%s::uuid[])"
                " ORDER BY started_at",
                (ids,),
            ).fetchall()
        assert spans[0][1] <= spans[1][0], spans
    finally:
        bot.terminate()
        bot.wait(10)
        first.stop()
        second.stop()
