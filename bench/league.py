"""A full league round through Celery, the arbiter, PostgreSQL and the ladder, next to the same
matches created directly on the arbiter.

One stack: the arbiter on a scratch PostgreSQL database, a Celery worker and beat, the ladder
(the helpers of ``tests/integration/services.py``, with their settings: beat ticks every second,
the workers create a round's matches in one CreateMatches call, the ladder rates a match when
its finish is announced, waiting only for commits still in flight, at most its settle delay,
and looks every 0.5 s whatever it hears), and 3·T remote Python random bots
(``premiere_bot.examples.random_bot:RandomBot``, 16 to a process, each on its own
connection). A round robin league of them at 3-player Magic Trick plays one round of T tables
at once; its figure counts decisions from the round opening (the tick that plans it; Celery
then dispatches its tables) to the last match rated by the ladder. The reference, in the same
run and right after it: the same tables (seats and seeds) created directly on the arbiter, as
``bench.arbiter`` does, decisions counted until all ended. The random bot's move is a hash of
what it sees, so both play exactly the same games.

Repeated, each league round followed by its reference; each row shows the round whose ratio is
the median (`median_pair`). Every moment is read from PostgreSQL's clock.
"""

from __future__ import annotations

import datetime
import hashlib
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from psycopg.rows import dict_row

from bench.rows import Row, print_rows, quick, row

ROOT = Path(__file__).resolve().parent.parent
LOGS = Path("/tmp/premiere-bench")
SEATS = 3
TABLES = 2 if quick() else 16
REPEATS = 1 if quick() else 5
WARM_UPS = 0 if quick() else 1
BOTS_PER_HOST = 16
POLL_S = 0.02
TICK_S = 1.0
"""Beat's tick in the stack (``Workers.env``: PREMIERE_TICK_SECONDS=1)."""
RATE_INTERVAL_S = 0.5
"""The ladder's rating interval in the stack (``Workers.start_ladder``: --interval 0.5)."""
QUIET_S = 1.0
"""Between a league round and its reference: the ladder refits its standings after rating."""


@dataclass(frozen=True)
class LeagueRound:
    decisions: int
    due: datetime.datetime
    opened: datetime.datetime
    first_started: datetime.datetime
    last_started: datetime.datetime
    last_ended: datetime.datetime
    all_rated: datetime.datetime
    tables: tuple[tuple[tuple[str, ...], str], ...]
    """(seats, seed) of every table, in table order."""

    @property
    def per_second(self) -> float:
        """Decisions per second from the round opening to the last match rated."""
        return self.decisions / _seconds(self.opened, self.all_rated)


@dataclass(frozen=True)
class DirectRound:
    decisions: int
    created: datetime.datetime
    first_started: datetime.datetime
    last_started: datetime.datetime
    all_ended: datetime.datetime

    @property
    def per_second(self) -> float:
        """Decisions per second from the first CreateMatch to the last match ended."""
        return self.decisions / _seconds(self.created, self.all_ended)


def _seconds(start: datetime.datetime, end: datetime.datetime) -> float:
    return (end - start).total_seconds()


def _wait_connected(conn: psycopg.Connection[Any], names: list[str], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        connected = _one(
            conn,
            "SELECT count(*) FROM bots WHERE name = ANY(%s) AND last_connected_at IS NOT NULL",
            names,
        )
        if connected == len(names):
            return
        time.sleep(0.1)
    raise TimeoutError(f"only {connected} of {len(names)} bots connected")


def _wait_admitted(conn: psycopg.Connection[Any], names: list[str], timeout: float) -> None:
    """Until the gate has every bot in rated play and validated in the game: a round opened
    before would seat some unrated (the workers admit connected bots at their own pace), and
    an unrated match is never rated."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        admitted = _one(
            conn,
            "SELECT count(*) FROM seat_admission WHERE bot = ANY(%s) AND state = 'rated'"
            " AND 'magic-trick' = ANY(validated)",
            names,
        )
        if admitted == len(names):
            return
        time.sleep(0.1)
    raise TimeoutError(f"only {admitted} of {len(names)} bots in rated play")


def _exit(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def _one(conn: psycopg.Connection[Any], sql: str, *params: Any) -> Any:
    """The one value of a one-row, one-column query (on a tuple or a dict row connection)."""
    found = conn.execute(sql, params).fetchone()
    assert found is not None
    return next(iter(found.values())) if isinstance(found, dict) else found[0]


def _decisions(conn: psycopg.Connection[Any], match_ids: list[Any]) -> int:
    return int(
        _one(conn, "SELECT count(*) FROM match_moves WHERE match_id = ANY(%s::uuid[])", match_ids)
    )


def play_league(
    conn: psycopg.Connection[Any], name: str, bots: list[str], timeout: float = 300
) -> LeagueRound:
    """Create a one-round round robin league and wait until every match of it is rated, then
    until its round is closed (so the workers' closing of it does not overlap the reference)."""
    from workers import leagues

    created = leagues.create_league(
        conn,
        name=name,
        game="magic-trick",
        format="round-robin",
        players=SEATS,
        bots=bots,
        rounds=1,
        seed=hashlib.sha256(name.encode()).hexdigest(),
    )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = conn.execute(
            "SELECT l.created_at, r.opened_at, count(t.table_no) AS tables,"
            " count(*) FILTER (WHERE m.status = 'void') AS void,"
            " count(*) FILTER (WHERE m.status = 'finished') AS finished,"
            " count(q.match_id) AS rated, min(m.started_at) AS first_started,"
            " max(m.started_at) AS last_started,"
            " max(m.finished_at) AS last_ended, clock_timestamp() AS now"
            " FROM leagues l JOIN league_rounds r ON r.league_id = l.id"
            " JOIN league_tables t ON t.league_id = r.league_id AND t.round = r.number"
            " LEFT JOIN matches m ON m.id = t.match_id"
            " LEFT JOIN rated_matches q ON q.match_id = t.match_id"
            " WHERE l.id = %s AND r.number = 1 GROUP BY l.created_at, r.opened_at",
            (created.id,),
        ).fetchone()
        if state is not None:
            if state["void"]:
                raise RuntimeError(f"league {name}: {state['void']} matches void")
            if state["tables"] == state["finished"] == state["rated"] == TABLES:
                break
        time.sleep(POLL_S)
    else:
        raise TimeoutError(f"league {name} was not played and rated in {timeout} s")
    while time.monotonic() < deadline:
        if _one(conn, "SELECT status FROM leagues WHERE id = %s", created.id) == "finished":
            break
        time.sleep(POLL_S)
    else:
        raise TimeoutError(f"league {name} did not close its round in {timeout} s")
    tables = conn.execute(
        "SELECT seats, seed, match_id FROM league_tables WHERE league_id = %s ORDER BY table_no",
        (created.id,),
    ).fetchall()
    return LeagueRound(
        decisions=_decisions(conn, [t["match_id"] for t in tables]),
        due=state["created_at"],
        opened=state["opened_at"],
        first_started=state["first_started"],
        last_started=state["last_started"],
        last_ended=state["last_ended"],
        all_rated=state["now"],
        tables=tuple((tuple(t["seats"]), t["seed"]) for t in tables),
    )


def play_direct(
    conn: psycopg.Connection[Any],
    stub: Any,
    tables: tuple[tuple[tuple[str, ...], str], ...],
    timeout: float = 300,
) -> DirectRound:
    """The same tables created on the arbiter by the operator, waited for until all ended."""
    from tests.integration.services import create_match

    created = _one(conn, "SELECT clock_timestamp()")
    ids = [create_match(stub, list(seats), seed) for seats, seed in tables]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = conn.execute(
            "SELECT count(*) FILTER (WHERE status = 'void') AS void,"
            " count(*) FILTER (WHERE status = 'finished') AS finished,"
            " min(started_at) AS first_started, max(started_at) AS last_started,"
            " clock_timestamp() AS now"
            " FROM matches WHERE id = ANY(%s::uuid[])",
            (ids,),
        ).fetchone()
        assert state is not None
        if state["void"]:
            raise RuntimeError(f"{state['void']} direct matches void")
        if state["finished"] == len(ids):
            break
        time.sleep(POLL_S)
    else:
        raise TimeoutError(f"direct matches did not end in {timeout} s")
    return DirectRound(
        decisions=_decisions(conn, ids),
        created=created,
        first_started=state["first_started"],
        last_started=state["last_started"],
        all_ended=state["now"],
    )


def measure() -> tuple[list[LeagueRound], list[DirectRound], float]:
    """Start the stack, play a warm-up (full mode), then the league rounds and their
    references interleaved; also returns the ladder's settle delay."""
    from ladder.config import LadderSettings
    from server.store import add_bot
    from tests.integration.services import Arbiter, Workers, free_port, scratch_database

    LOGS.mkdir(exist_ok=True)
    names = [f"bench-{n:03d}" for n in range(SEATS * TABLES)]
    leagues: list[LeagueRound] = []
    direct: list[DirectRound] = []
    with scratch_database() as url, tempfile.TemporaryDirectory() as folder:
        arbiter = Arbiter(url, free_port(), free_port())
        # Every bot connects from 127.0.0.1: the per-address cap (32) would refuse the field.
        arbiter.settings["PREMIERE_MAX_STREAMS_PER_PEER"] = str(len(names) + BOTS_PER_HOST)
        arbiter.start(LOGS / "league-arbiter.log")
        workers = Workers(arbiter, Path(folder))
        settle = LadderSettings().rate_settle_s
        hosts: list[subprocess.Popen[bytes]] = []
        try:
            tokens = [add_bot(url, name) for name in names]
            for first in range(0, len(tokens), BOTS_PER_HOST):
                process = subprocess.Popen(
                    [sys.executable, "-m", "tests.integration.bot_host", arbiter.address],
                    stdin=subprocess.PIPE,
                    stdout=(LOGS / f"league-bots-{first}.log").open("ab"),
                    stderr=subprocess.STDOUT,
                    cwd=ROOT,
                )
                assert process.stdin is not None
                process.stdin.write("\n".join(tokens[first : first + BOTS_PER_HOST]).encode())
                process.stdin.close()
                hosts.append(process)
            workers.start_worker()
            workers.start_beat()
            workers.start_ladder()
            stub = arbiter.matches()
            with psycopg.connect(url, autocommit=True, row_factory=dict_row) as conn:
                _wait_connected(conn, names, 120)
                _wait_admitted(conn, names, 120)
                for rep in range(-WARM_UPS, REPEATS):
                    played = play_league(conn, f"bench-round-{rep + 1}", names)
                    time.sleep(QUIET_S)
                    reference = play_direct(conn, stub, played.tables)
                    print(
                        f"league round {rep + 1}{' (warm-up)' if rep < 0 else ''}:"
                        f" {played.decisions} decisions,"
                        f" {played.per_second:.0f}/s to the last rated;"
                        f" directly {reference.decisions} decisions, {reference.per_second:.0f}/s",
                        file=sys.stderr,
                    )
                    if rep >= 0:
                        leagues.append(played)
                        direct.append(reference)
        finally:
            for process in hosts:
                process.terminate()
            if arbiter.process is not None:
                arbiter.process.terminate()
            workers.stop()
            for process in hosts:
                process.wait(10)
            arbiter.stop()
    return leagues, direct, float(settle)


def median_pair(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    """The (figure, reference) of the round whose ratio is the median. A round's figure and its
    reference are measured back to back, so on a machine whose load drifts during the run
    their ratio is steadier than the ratio of the two medians."""
    ordered = sorted(pairs, key=lambda pair: pair[0] / pair[1])
    return ordered[len(ordered) // 2]


def run() -> list[Row]:
    # Terminated (a timeout, say): still stop the stack, in measure()'s finally.
    previous = signal.signal(signal.SIGTERM, _exit)
    try:
        leagues, direct, settle = measure()
    finally:
        signal.signal(signal.SIGTERM, previous)
    rounds = list(zip(leagues, direct, strict=True))
    label = f"{TABLES} matches of remote Python bots ({SEATS * TABLES} bots, 3-player Magic Trick)"
    reference = f"the same {TABLES} matches created directly on the arbiter, until all ended"
    by_design = (settle + RATE_INTERVAL_S) * 1000
    measured = (
        (
            "league round through Celery, arbiter, PostgreSQL and ladder: decisions per second,"
            f" round opened to last match rated, {label}",
            "decisions/s",
            reference,
            [(r.per_second, d.per_second) for r, d in rounds],
        ),
        (
            f"league round: decisions per second, round opened to last match ended, {label}",
            "decisions/s",
            reference,
            [(r.decisions / _seconds(r.opened, r.last_ended), d.per_second) for r, d in rounds],
        ),
        (
            "league round: dispatch latency, round opened by beat's tick to first match started",
            "ms",
            "direct: first CreateMatch sent to first match started",
            [
                (
                    _seconds(r.opened, r.first_started) * 1000,
                    _seconds(d.created, d.first_started) * 1000,
                )
                for r, d in rounds
            ],
        ),
        (
            "league round: dispatch of the whole round, round opened to last match started",
            "ms",
            "direct: first CreateMatch sent to last match started",
            [
                (
                    _seconds(r.opened, r.last_started) * 1000,
                    _seconds(d.created, d.last_started) * 1000,
                )
                for r, d in rounds
            ],
        ),
        (
            "league round: wait for beat's tick, league created (round due) to round opened",
            "ms",
            f"beat's tick period ({TICK_S:g} s)",
            [(_seconds(r.due, r.opened) * 1000, TICK_S * 1000) for r in leagues],
        ),
        (
            "league round: rating latency, last match ended to every match rated",
            "ms",
            f"the ladder's settle delay + rating interval ({settle:g} s + {RATE_INTERVAL_S:g} s)",
            [(_seconds(r.last_ended, r.all_rated) * 1000, by_design) for r in leagues],
        ),
    )
    rows = []
    for index, (name, unit, reference_name, pairs) in enumerate(measured):
        figure, reference_figure = median_pair(pairs)
        goal = "league-round" if index == 0 else None
        rows.append(row(name, figure, unit, reference_name, reference_figure, goal=goal))
    return rows


if __name__ == "__main__":
    print_rows(run())
