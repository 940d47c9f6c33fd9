"""kill -9 of the arbiter mid-match: on restart the match resumes from its log and ends exactly
as an uninterrupted run with the same seed and the same deterministic bots."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import psycopg

from premiere_wire import match_pb2
from tests.integration.services import Arbiter, create_match, start_bot, wait_ended

STEADY = "tests.integration.bad_bots:SteadyBot"
SEATS = ["alpha", "beta", "builtin:heuristic", "builtin:random"]


def ready(arbiter: Arbiter) -> str:
    """The readiness health service: SERVING only while the database answers."""
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with arbiter.channel() as channel:
        reply = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service="premiere.ready"), timeout=5
        )
    return str(health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status))


def decisions(arbiter: Arbiter, match_id: str) -> int:
    reply = arbiter.matches().GetMatch(match_pb2.GetMatchRequest(match_id=match_id), timeout=10)
    return int(reply.match.decisions)


def test_killed_arbiter_resumes_and_reaches_the_same_outcome(
    arbiter: Arbiter, tmp_path: Path
) -> None:
    tokens = {name: arbiter.add_bot(name) for name in ("alpha", "beta")}
    bots = [start_bot(arbiter, STEADY, tokens[n], tmp_path / f"{n}.log") for n in tokens]
    try:
        reference = wait_ended(arbiter.matches(), create_match(arbiter.matches(), SEATS, "same"))
        assert reference.status == match_pb2.MATCH_STATUS_FINISHED

        match_id = create_match(arbiter.matches(), SEATS, "same")
        deadline = time.monotonic() + 60
        while decisions(arbiter, match_id) < 40:
            assert time.monotonic() < deadline, arbiter.log()
            time.sleep(0.05)
        arbiter.kill()
        arbiter.start(tmp_path / "arbiter-2.log")

        resumed = wait_ended(arbiter.matches(), match_id)
        assert resumed.status == match_pb2.MATCH_STATUS_FINISHED, arbiter.log()
        assert list(resumed.outcome.scores) == list(reference.outcome.scores)
        assert list(resumed.outcome.ranks) == list(reference.outcome.ranks)
        assert resumed.decisions == reference.decisions
        kinds = [(f.kind, f.blame) for f in resumed.faults]
        assert kinds == [("restart", "infrastructure")]
    finally:
        for bot in bots:
            bot.terminate()
            bot.wait(10)


HELD = 424242
"""The advisory lock a test trigger waits on before a chosen ply's row goes in."""


def inside_a_simultaneous_step(database_url: str, match_id: str) -> int:
    """A ply of the match's log that is not the first of its simultaneous step (the engine,
    replaying the log, says where each step starts and how many seats it asks)."""
    import games
    from games.play import step

    with psycopg.connect(database_url) as conn:
        game, players, seed, options = conn.execute(
            "SELECT game, players, seed, options FROM matches WHERE id = %s", (match_id,)
        ).fetchone()
        moves = conn.execute(
            "SELECT seat, move FROM match_moves WHERE match_id = %s ORDER BY ply", (match_id,)
        ).fetchall()
    engine = games.get(game)
    state = engine.new(players, seed, engine.resolve_options(options))
    ply = 0
    while not state.is_over():
        asked = step(state)
        if len(asked) > 1:
            return ply + 1
        for seat, move in moves[ply : ply + len(asked)]:
            state.apply(seat, engine.decode_move(move, seat))
        ply += len(asked)
    raise AssertionError(f"{game}: no simultaneous step in this match")


def test_a_kill_inside_a_simultaneous_step_resumes_to_the_same_outcome(
    database_url: str, arbiter: Arbiter, tmp_path: Path
) -> None:
    """The arbiter dies while it logs a simultaneous step (Magic Trick's sorting: every seat
    asked at once, answers logged in seat order). The step is logged whole or not at all, so
    the match resumes at the step's start and asks it again of the same seats; a log ending
    mid-step would have a seat that may sort again asked before those still to answer."""
    tokens = {name: arbiter.add_bot(name) for name in ("alpha", "beta")}
    bots = [start_bot(arbiter, STEADY, tokens[n], tmp_path / f"{n}.log") for n in tokens]
    try:
        stub = arbiter.matches()
        reference = wait_ended(stub, create_match(stub, SEATS, "step"))
        held_ply = inside_a_simultaneous_step(database_url, reference.match_id)
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(
                "CREATE FUNCTION hold_a_ply() RETURNS trigger LANGUAGE plpgsql AS $$"
                f" BEGIN IF NEW.ply = {held_ply} THEN PERFORM pg_advisory_lock({HELD});"
                f" PERFORM pg_advisory_unlock({HELD}); END IF; RETURN NEW; END $$"
            )
            conn.execute(
                "CREATE TRIGGER hold_a_ply BEFORE INSERT ON match_moves"
                " FOR EACH ROW EXECUTE FUNCTION hold_a_ply()"
            )
            conn.execute("SELECT pg_advisory_lock(%s)", (HELD,))
            match_id = create_match(stub, SEATS, "step")
            waiting = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            deadline = time.monotonic() + 60
            while conn.execute(waiting).fetchone() == (0,):
                assert time.monotonic() < deadline, arbiter.log()
                time.sleep(0.05)
            arbiter.kill()
            end_orphaned_writes(conn)
            conn.execute("DROP TRIGGER hold_a_ply ON match_moves")
            conn.execute("SELECT pg_advisory_unlock(%s)", (HELD,))
            logged = conn.execute(
                "SELECT count(*) FROM match_moves WHERE match_id = %s", (match_id,)
            ).fetchone()
        assert logged is not None and logged[0] < held_ply, "the step was logged in part"
        arbiter.start(tmp_path / "arbiter-2.log")
        resumed = wait_ended(arbiter.matches(), match_id)
        assert resumed.status == match_pb2.MATCH_STATUS_FINISHED, arbiter.log()
        assert list(resumed.outcome.scores) == list(reference.outcome.scores)
        assert resumed.decisions == reference.decisions
    finally:
        for bot in bots:
            bot.terminate()
            bot.wait(10)


def end_orphaned_writes(conn: psycopg.Connection[Any]) -> None:
    """End the killed arbiter's statement still waiting on the held lock, as PostgreSQL would
    once it noticed its client gone: its transaction is rolled back. Left waiting, it holds its
    lock on match_moves, so dropping the trigger would deadlock with it."""
    waiting = (
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        " AND pid <> pg_backend_pid()"
    )
    pids = [row[0] for row in conn.execute(waiting).fetchall()]
    for pid in pids:
        conn.execute("SELECT pg_terminate_backend(%s, 10000)", (pid,))
    assert conn.execute(waiting).fetchall() == []


def test_match_whose_bots_never_come_is_voided(database_url: str, tmp_path: Path) -> None:
    from tests.integration.services import free_port

    impatient = Arbiter(
        database_url, free_port(), free_port(), settings={"PREMIERE_START_GRACE_S": "1"}
    )
    impatient.start(tmp_path / "arbiter.log")
    try:
        impatient.add_bot("absent")
        stub = impatient.matches()
        match = wait_ended(stub, create_match(stub, ["absent", "builtin:random"] * 2, "void"))
        assert match.status == match_pb2.MATCH_STATUS_VOID
        assert "did not connect" in match.void_reason
        assert not match.HasField("outcome")
    finally:
        impatient.stop()


def test_database_restart_mid_match_loses_nothing(tmp_path: Path) -> None:
    """PostgreSQL goes down and comes back mid-match: the arbiter's writes wait and retry, and
    the match ends exactly as an uninterrupted one."""
    import shutil
    import tempfile

    from premiere.db import create_database, upgrade
    from premiere.services import PrivatePostgres
    from tests.integration.services import free_port

    folder = Path(tempfile.mkdtemp(prefix="premiere-pg-restart-"))
    folder.chmod(0o755)
    postgres = PrivatePostgres(folder / "pg")
    postgres.start()
    create_database(postgres.admin_url, "premiere")
    url = postgres.url("premiere")
    upgrade(url)
    arbiter = Arbiter(url, free_port(), free_port())
    arbiter.start(tmp_path / "arbiter.log")
    tokens = {name: arbiter.add_bot(name) for name in ("alpha", "beta")}
    bots = [start_bot(arbiter, STEADY, tokens[n], tmp_path / f"{n}.log") for n in tokens]
    try:
        reference = wait_ended(arbiter.matches(), create_match(arbiter.matches(), SEATS, "db"))
        match_id = create_match(arbiter.matches(), SEATS, "db")
        deadline = time.monotonic() + 60
        while decisions(arbiter, match_id) < 30:
            assert time.monotonic() < deadline, arbiter.log()
            time.sleep(0.05)
        assert ready(arbiter) == "SERVING"
        postgres.stop()
        down = time.monotonic()
        while ready(arbiter) != "NOT_SERVING":
            assert time.monotonic() - down < 8, "readiness did not notice the database"
            time.sleep(0.2)
        assert arbiter.healthy()  # liveness: the process itself is fine
        postgres.start()
        resumed = wait_ended(arbiter.matches(), match_id)
        while ready(arbiter) != "SERVING":
            assert time.monotonic() - down < 60, "readiness did not come back"
            time.sleep(0.2)
        assert resumed.status == match_pb2.MATCH_STATUS_FINISHED, arbiter.log()
        assert list(resumed.outcome.scores) == list(reference.outcome.scores)
        assert list(resumed.outcome.ranks) == list(reference.outcome.ranks)
        assert resumed.decisions == reference.decisions
        # An outage longer than the lease's margin makes the arbiter stop hosting (it cannot
        # tell a database that is down from one that answers another arbiter) and take the
        # match up again from its log: the infrastructure's fault, nothing charged to a seat.
        assert all(f.blame == "infrastructure" for f in resumed.faults), resumed.faults
        assert {f.kind for f in resumed.faults} <= {"restart"}, resumed.faults
        assert arbiter.healthy()
        assert "retrying" in arbiter.log()
    finally:
        for bot in bots:
            bot.terminate()
            bot.wait(10)
        arbiter.stop()
        postgres.stop()
        shutil.rmtree(folder, ignore_errors=True)
