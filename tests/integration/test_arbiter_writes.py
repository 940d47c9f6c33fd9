"""The arbiter's writes against a real PostgreSQL: a bad record fails alone, retried writes are
no-ops, a stale lease holder's writes are refused, an ended match stays ended, and a match whose
every move is logged finishes without its bots."""

from __future__ import annotations

import asyncio
import json
import tempfile
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import psycopg
import pytest
from psycopg.pq import Trace

import games
from games.play import step
from server.arbiter import Arbiter, BadRequest
from server.config import ArbiterSettings
from server.events import EventHub
from server.router import Router
from server.store import (
    FaultRecord,
    Fenced,
    MatchSpec,
    MoveRecord,
    PlyConflict,
    SeatSpec,
    Store,
    add_bot,
)


def spec(seed: str = "s", seats: tuple[SeatSpec, ...] | None = None, **fields: Any) -> MatchSpec:
    values: dict[str, Any] = {
        "id": str(uuid.uuid4()),
        "game": "magic-trick",
        "options": {},
        "players": 3,
        "seed": seed,
        "move_time_ms": 1000,
        "time_bank_ms": 1000,
        "strike_limit": 3,
        "seats": seats or (SeatSpec(builtin="random"),) * 3,
    }
    values.update(fields)
    return MatchSpec(**values)


def run(
    database_url: str, body: Callable[[Store], Awaitable[None]], retry_delay: float = 0.05
) -> None:
    async def main() -> None:
        store = Store(database_url, retry_delay=retry_delay)
        await store.start()
        try:
            await body(store)
        finally:
            await store.close()

    asyncio.run(main())


def sql(database_url: str, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    with psycopg.connect(database_url, autocommit=True) as conn:
        cursor = conn.execute(query, params)
        return cursor.fetchall() if cursor.description else []


def move(ply: int, choice: int = 0) -> MoveRecord:
    return MoveRecord(ply, ply % 2, {"card": choice}, False, 5)


def test_a_bad_record_fails_alone_in_its_batch(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """An out-of-range time control in the same group commit as other matches' moves: only
    the bad record's caller sees the error; every other record is committed. The logs name the
    error, never the failing row (it holds the seed)."""
    secret = "f00d" * 16

    async def body(store: Store) -> None:
        good = spec()
        await store.create_match(good, owner="a", lease_s=30)
        overflow = spec(seed=secret, time_bank_ms=2**40)
        negative = spec(seed=secret, time_bank_ms=-1)
        results = await asyncio.gather(
            store.append_move(good.id, 1, move(0)),
            store.create_match(overflow, owner="a", lease_s=30),
            store.append_move(good.id, 1, move(1)),
            store.create_match(negative, owner="a", lease_s=30),
            store.append_fault(good.id, 1, FaultRecord(1, 1, "timeout", "bot", "slow")),
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None and results[4] is None
        assert isinstance(results[1], psycopg.errors.NumericValueOutOfRange)
        assert isinstance(results[3], psycopg.errors.CheckViolation)
        assert [m.ply for m in await store.moves(good.id)] == [0, 1]
        assert len(await store.faults(good.id)) == 1
        assert await store.match(overflow.id) is None
        assert await store.match(negative.id) is None

    with caplog.at_level("DEBUG"):
        run(database_url, body)
    assert "CheckViolation" in caplog.text
    assert secret not in caplog.text


def test_moves_of_many_matches_commit_together_and_a_stale_one_fails_alone(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The moves of one group commit go in as one statement; every row still passes the
    fencing trigger, so a stale holder's move fails alone and the others land, retried
    identical moves included."""

    async def body(store: Store) -> None:
        matches = [spec(seed=f"s{n}") for n in range(8)]
        for match in matches:
            await store.create_match(match, owner="a", lease_s=30)
        await store.append_move(matches[0].id, 1, move(0))
        stale = matches[3].id
        await store.release(stale, "a", 1)
        assert await store.acquire(stale, "b", 30) == 2
        results = await asyncio.gather(
            *(store.append_move(m.id, 1, move(0)) for m in matches),
            return_exceptions=True,
        )
        assert isinstance(results[3], Fenced)
        assert [r for n, r in enumerate(results) if n != 3] == [None] * 7
        for n, match in enumerate(matches):
            assert [m.move for m in await store.moves(match.id)] == (
                [] if n == 3 else [{"card": 0}]
            )
        results = await asyncio.gather(
            *(store.append_move(m.id, 1, move(1, choice=n)) for n, m in enumerate(matches)),
            store.append_move(matches[1].id, 1, move(0, choice=9)),
            return_exceptions=True,
        )
        assert isinstance(results[3], Fenced) and isinstance(results[-1], PlyConflict)
        rows = sql(database_url, "SELECT count(*) FROM match_moves")
        assert rows == [(14,)]
        caplog.clear()
        live = [m for n, m in enumerate(matches) if n != 3]
        await asyncio.gather(*(store.append_move(m.id, 1, move(2)) for m in live))
        assert "one at a time" not in caplog.text
        assert sql(database_url, "SELECT count(*) FROM match_moves WHERE ply = 2") == [(7,)]

    run(database_url, body)


def test_simultaneous_steps_join_their_batch_and_a_stale_one_fails_whole(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A simultaneous step's moves ride in the group commit's one statement with the other
    matches' single moves (one transaction: one `xmin`), and a stale holder's step fails
    whole, its other rows with it, while every other write of the batch lands."""

    def step_of(first: int, seats: int) -> list[MoveRecord]:
        return [
            MoveRecord(
                first + k, k, {"card": k}, k == 1, 5, [{"é": k}], f'"{k}" \\ é' if k else None
            )
            for k in range(seats)
        ]

    async def body(store: Store) -> None:
        matches = [spec(seed=f"s{n}") for n in range(6)]
        for match in matches:
            await store.create_match(match, owner="a", lease_s=30)
        caplog.clear()
        writer = store._write_conn
        assert writer is not None
        with tempfile.TemporaryFile("w+") as trace:
            writer.pgconn.trace(trace.fileno())
            writer.pgconn.set_trace_flags(Trace.SUPPRESS_TIMESTAMPS)
            try:
                await asyncio.gather(
                    store.append_step(matches[0].id, 1, step_of(0, 3)),
                    store.append_move(matches[1].id, 1, move(0)),
                    store.append_step(matches[2].id, 1, step_of(0, 2)),
                    store.append_move(matches[3].id, 1, move(0)),
                )
            finally:
                writer.pgconn.untrace()
            trace.seek(0)
            sent = [line.split("\t")[2] for line in trace if line.startswith("F")]
        assert sent.count("Bind") == 1, sent
        assert "one at a time" not in caplog.text
        ids = [m.id for m in matches[:4]]
        rows = sql(
            database_url,
            "SELECT count(*), count(DISTINCT xmin::text) FROM match_moves"
            " WHERE match_id = ANY(%s::uuid[])",
            (ids,),
        )
        assert rows == [(7, 1)]
        logged = await store.moves(matches[0].id)
        assert [(m.move, m.defaulted, m.forced, m.note) for m in logged] == [
            (r.move, r.defaulted, r.forced, r.note) for r in step_of(0, 3)
        ]
        stale = matches[4].id
        await store.release(stale, "a", 1)
        assert await store.acquire(stale, "b", 30) == 2
        results = await asyncio.gather(
            store.append_step(stale, 1, step_of(0, 3)),
            store.append_step(matches[5].id, 1, step_of(0, 3)),
            store.append_move(matches[1].id, 1, move(1)),
            return_exceptions=True,
        )
        assert isinstance(results[0], Fenced) and results[1:] == [None, None]
        assert await store.moves(stale) == []
        assert [m.ply for m in await store.moves(matches[5].id)] == [0, 1, 2]
        assert [m.ply for m in await store.moves(matches[1].id)] == [0, 1]

    run(database_url, body)


def test_the_moves_statement_survives_a_rollback_a_deallocation_and_a_dropped_connection(
    database_url: str,
) -> None:
    """Moves go through a statement prepared on the writer's connection (`_insert_moves`): a
    batch that fails and is retried one at a time (rolled back), a DEALLOCATE ALL, and the
    connection's backend terminated each leave the next moves written, none lost."""

    async def body(store: Store) -> None:
        matches = [spec(seed=f"d{n}") for n in range(3)]
        for match in matches:
            await store.create_match(match, owner="a", lease_s=30)
        await store.append_move(matches[0].id, 1, move(0))
        # A record out of its column's range makes its batch roll back and go one at a time.
        results = await asyncio.gather(
            store.create_match(spec(time_bank_ms=2**40), owner="a", lease_s=30),
            store.append_move(matches[1].id, 1, move(0)),
            return_exceptions=True,
        )
        assert isinstance(results[0], psycopg.errors.NumericValueOutOfRange)
        assert results[1] is None
        await store.append_move(matches[0].id, 1, move(1))
        writer = store._write_conn
        assert writer is not None
        await writer.execute("DEALLOCATE ALL")
        await store.append_move(matches[0].id, 1, move(2))
        with psycopg.connect(database_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (writer.info.backend_pid,))
        await store.append_move(matches[2].id, 1, move(0))
        await store.append_move(matches[0].id, 1, move(3))
        assert [m.ply for m in await store.moves(matches[0].id)] == [0, 1, 2, 3]
        assert [m.ply for m in await store.moves(matches[1].id)] == [0]
        assert [m.ply for m in await store.moves(matches[2].id)] == [0]

    run(database_url, body)


def test_retried_writes_are_no_ops_and_a_different_ply_is_refused(database_url: str) -> None:
    async def body(store: Store) -> None:
        match = spec()
        await store.create_match(match, owner="a", lease_s=30)
        await store.create_match(match, owner="a", lease_s=30)
        fault = FaultRecord(0, 0, "timeout", "bot", "no answer")
        for _ in range(2):
            await store.append_move(match.id, 1, move(0))
            await store.append_fault(match.id, 1, fault)
        assert len(await store.moves(match.id)) == 1
        assert await store.faults(match.id) == [fault]
        assert len(await store.seats(match.id)) == 3
        with pytest.raises(PlyConflict):
            await store.append_move(match.id, 1, move(0, choice=7))
        assert (await store.moves(match.id))[0].move == {"card": 0}

    run(database_url, body)


def test_forced_moves_ride_in_their_decisions_row(database_url: str) -> None:
    """A decision's forced moves are written with it (alone or in a group commit of several
    matches' moves), a retried write that repeats them is a no-op, one that differs in them
    alone is refused, and the set-up's forced moves are kept by the first start only."""
    skip = [{"seat": 1, "move": {"kind": "skip"}}]

    async def body(store: Store) -> None:
        matches = [spec(seed=f"f{n}") for n in range(4)]
        for match in matches:
            await store.create_match(match, owner="a", lease_s=30)
        first = matches[0].id
        await store.mark_running(first, 1, skip)
        await store.mark_running(first, 1, [])
        await store.append_move(first, 1, replace(move(0), forced=skip))
        await asyncio.gather(
            *(store.append_move(m.id, 1, replace(move(1), forced=[])) for m in matches[1:]),
            store.append_move(first, 1, replace(move(1), forced=skip * 2)),
        )
        await store.append_move(first, 1, replace(move(1), forced=skip * 2))
        with pytest.raises(PlyConflict):
            await store.append_move(first, 1, replace(move(1), forced=skip))
        with pytest.raises(PlyConflict):
            await store.append_move(first, 1, move(1))
        assert [m.forced for m in await store.moves(first)] == [skip, skip * 2]
        assert [(await store.moves(m.id))[0].forced for m in matches[1:]] == [[]] * 3
        row = await store.match(first)
        assert row is not None and row["forced_at_start"] == skip

    run(database_url, body)
    assert sql(database_url, "SELECT count(*) FROM match_moves WHERE forced IS NULL") == [(0,)]


def test_a_stale_holder_is_refused_after_a_takeover(database_url: str) -> None:
    async def body(store: Store) -> None:
        match = spec()
        await store.create_match(match, owner="first", lease_s=0.2)
        await store.mark_running(match.id, 1)
        await store.append_move(match.id, 1, move(0))
        assert await store.acquire(match.id, "second", 30) is None  # still held
        await asyncio.sleep(0.3)
        assert await store.orphans() == [match.id]
        assert await store.acquire(match.id, "second", 30) == 2
        assert await store.acquire(match.id, "third", 30) is None
        assert await store.renew("first", {match.id: 1}, 30) == set()
        assert await store.renew("second", {match.id: 2}, 30) == {match.id}
        with pytest.raises(Fenced):
            await store.append_move(match.id, 1, move(1))
        with pytest.raises(Fenced):
            await store.append_fault(match.id, 1, FaultRecord(1, 1, "timeout", "bot", ""))
        with pytest.raises(Fenced):
            await store.void(match.id, "stale", 1)
        with pytest.raises(Fenced):
            await store.finish(match.id, 1, {"scores": [1, 0, 0]}, [0, 0, 0], [False] * 3)
        await store.append_move(match.id, 2, move(1))
        row = await store.match(match.id)
        assert row is not None and row["status"] == "running"
        fences = sql(database_url, "SELECT ply, fence FROM match_moves ORDER BY ply")
        assert fences == [(0, 1), (1, 2)]

    run(database_url, body)


def test_an_unfenced_write_to_a_leased_match_is_refused(database_url: str) -> None:
    async def body(store: Store) -> None:
        match = spec()
        await store.create_match(match, owner="a", lease_s=30)

    run(database_url, body)
    match_id = sql(database_url, "SELECT id FROM matches")[0][0]
    with pytest.raises(psycopg.Error) as refused:
        sql(
            database_url,
            "INSERT INTO match_moves (match_id, ply, seat, move) VALUES (%s, 0, 0, '{}')",
            (match_id,),
        )
    assert refused.value.sqlstate == "PF001"


def test_a_void_match_is_never_finished_or_rated(database_url: str) -> None:
    async def body(store: Store) -> None:
        match = spec(rated=True)
        await store.create_match(match, owner="a", lease_s=30)
        await store.mark_running(match.id, 1)
        assert await store.void(match.id, "bots gone", 1)
        assert not await store.void(match.id, "again", 1)
        assert not await store.finish(match.id, 1, {"scores": [1, 0, 0]}, [0, 0, 0], [False] * 3)
        row = await store.match(match.id)
        assert row is not None and (row["status"], row["void_reason"]) == ("void", "bots gone")

    run(database_url, body)
    assert sql(database_url, "SELECT count(*) FROM rating_queue") == [(0,)]
    with pytest.raises(psycopg.Error) as refused:
        sql(database_url, "UPDATE matches SET status = 'finished'")
    assert refused.value.sqlstate == "PF003"


def test_a_finished_match_is_finished_once(database_url: str) -> None:
    async def body(store: Store) -> None:
        match = spec(rated=True)
        await store.create_match(match, owner="a", lease_s=30)
        await store.mark_running(match.id, 1)
        outcome = {"scores": [1, 0, 0], "ranks": [1, 2, 2]}
        assert await store.finish(match.id, 1, outcome, [1, 0, 0], [False] * 3)
        assert not await store.finish(match.id, 1, outcome, [1, 0, 0], [False] * 3)
        assert not await store.void(match.id, "late", 1)

    run(database_url, body)
    assert sql(database_url, "SELECT status FROM matches") == [("finished",)]
    assert sql(database_url, "SELECT count(*) FROM rating_queue") == [(1,)]


def test_time_controls_out_of_the_columns_range_are_refused_before_sql() -> None:
    """No database here: the request must be refused before anything is written."""
    seats = [("builtin", "random")] * 3

    async def create(settings: ArbiterSettings, *control: int) -> str:
        arbiter = Arbiter(Store("postgresql://unused/x"), Router(4, 64), EventHub(), settings)
        return await arbiter.create("magic-trick", {}, seats, "", *control)

    loose = ArbiterSettings(max_time_bank_ms=2**40, max_strike_limit=2**40)
    for control in ((0, 2**31, 0), (0, 0, 2**31), (-5, 0, 0), (0, -1, 0)):
        with pytest.raises(BadRequest, match="must be between"):
            asyncio.run(create(loose, *control))
    with pytest.raises(BadRequest, match="time_bank_ms must be between"):
        asyncio.run(create(ArbiterSettings(time_bank_ms=2**32)))


def played_moves(match: MatchSpec) -> list[MoveRecord]:
    """A whole match played with each seat's first legal move."""
    game = games.get(match.game)
    state = game.new(match.players, match.seed, match.options)
    records = []
    while not state.is_over():
        for asked in step(state):
            state.apply(asked.seat, asked.legal[0])
            encoded = game.encode_move(asked.legal[0])
            records.append(MoveRecord(len(records), asked.seat, encoded, False, 3))
    return records


def test_a_match_with_every_move_logged_finishes_without_its_bots(database_url: str) -> None:
    """Its arbiter died between the last move and the finish, and its bots are gone: the next
    arbiter finishes it from the log instead of voiding it after the resume grace."""
    add_bot(database_url, "gone-a")
    add_bot(database_url, "gone-b")
    ids = dict(sql(database_url, "SELECT name, id FROM bots"))
    seats = (
        SeatSpec(ids["gone-a"], "gone-a"),
        SeatSpec(ids["gone-b"], "gone-b"),
        SeatSpec(builtin="random"),
    )
    match = spec(seed="all-logged", seats=seats)

    async def body(store: Store) -> None:
        await store.create_match(match, owner="dead", lease_s=0.05)
        await store.mark_running(match.id, 1)
        for record in played_moves(match):
            await store.append_move(match.id, 1, record)
        await asyncio.sleep(0.1)
        settings = ArbiterSettings(resume_grace_s=0.5, lease_s=5)
        arbiter = Arbiter(store, Router(4, 64), EventHub(), settings)
        assert await arbiter.adopt() == 1
        await asyncio.gather(*arbiter.hosts.values())
        row = await store.match(match.id)
        assert row is not None and row["status"] == "finished", row
        assert row["outcome"]["scores"]
        lease = await store.lease(match.id)
        assert lease is not None and lease["fence"] == 2

    run(database_url, body)


def test_a_stale_arbiter_cannot_void_a_match_another_one_hosts(database_url: str) -> None:
    """The first arbiter stops renewing (it hangs); the second takes the match over; when the
    first wakes and its resume grace ends, its void is refused and it stops hosting."""
    add_bot(database_url, "away")
    bot = sql(database_url, "SELECT id FROM bots")[0][0]
    match = spec(
        seats=(SeatSpec(bot, "away"), SeatSpec(builtin="random"), SeatSpec(builtin="random"))
    )

    async def body(store: Store) -> None:
        first = Arbiter(
            store,
            Router(4, 64),
            EventHub(),
            ArbiterSettings(lease_s=0.3, lease_renew_s=0.1, start_grace_s=1),
        )
        second = Arbiter(
            store, Router(4, 64), EventHub(), ArbiterSettings(lease_s=30, resume_grace_s=30)
        )
        await store.create_match(match, owner=first.owner, lease_s=0.3)
        await first.adopt()  # held and not lapsed: nothing to adopt
        assert first.hosts == {}
        from server.host import MatchHost

        first._host(MatchHost(match, store, first.router, first.hub, 1), False)
        await asyncio.sleep(0.5)
        assert await second.adopt() == 1
        await asyncio.wait_for(first.hosts.get(match.id) or asyncio.sleep(0), 5)
        assert match.id not in first.hosts
        row = await store.match(match.id)
        assert row is not None and row["status"] in ("pending", "running"), row
        await second.stop()
        lease = await store.lease(match.id)
        assert lease is not None and lease["fence"] == 2

    run(database_url, body)


def test_a_match_whose_write_fails_is_voided_and_the_others_play_on(database_url: str) -> None:
    """A non-transient failure in one match's write: that match is voided with a reason (its
    watchers and bots are told), the others in the same arbiter finish."""
    sql(
        database_url,
        """
        CREATE FUNCTION poison() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF NEW.ply = 3 AND (SELECT seed FROM matches WHERE id = NEW.match_id) = 'poison'
            THEN RAISE EXCEPTION 'integer out of range' USING ERRCODE = '22003';
            END IF;
            RETURN NEW;
        END $$;
        CREATE TRIGGER poison BEFORE INSERT ON match_moves
            FOR EACH ROW EXECUTE FUNCTION poison();
        """,
    )

    async def body(store: Store) -> None:
        arbiter = Arbiter(store, Router(4, 64), EventHub(), ArbiterSettings())
        seats = [("builtin", "random"), ("builtin", "heuristic"), ("builtin", "random")]
        ids = [await arbiter.create("magic-trick", {}, seats, seed) for seed in ("poison", "ok")]
        await asyncio.gather(*arbiter.hosts.values())
        poisoned, healthy = [await store.match(i) for i in ids]
        assert poisoned is not None and poisoned["status"] == "void"
        assert "failed" in poisoned["void_reason"]
        assert healthy is not None and healthy["status"] == "finished"
        assert not arbiter.hub.is_live(ids[0])

    run(database_url, body)
    assert json.dumps(sql(database_url, "SELECT count(*) FROM match_moves WHERE ply = 3")) == (
        "[[1]]"
    )


def test_leases_must_be_renewed_before_they_lapse() -> None:
    with pytest.raises(ValueError, match="PREMIERE_LEASE_RENEW_S"):
        ArbiterSettings(lease_s=1, lease_renew_s=1)


def test_a_match_record_is_read_in_one_statement_with_its_seats_and_faults(
    database_url: str,
) -> None:
    add_bot(database_url, "recorded")
    bot_id = sql(database_url, "SELECT id FROM bots WHERE name = 'recorded'")[0][0]

    async def body(store: Store) -> None:
        seats = (SeatSpec(bot_id=bot_id, bot_name="recorded"),) + (SeatSpec(builtin="random"),) * 2
        match = spec(seats=seats)
        await store.create_match(match, owner="a", lease_s=30)
        fault = FaultRecord(0, 0, "illegal", "bot", "played X")
        await store.append_move(match.id, 1, move(0))
        await store.append_fault(match.id, 1, fault)
        record = await store.match_record(match.id)
        assert record is not None
        assert record["decisions"] == 1 and record["revealed"] is False
        assert [FaultRecord(**f) for f in record["fault_rows"]] == [fault]
        assert [(s["seat"], s["bot_name"], s["builtin"]) for s in record["seat_rows"]] == [
            (0, "recorded", None),
            (1, None, "random"),
            (2, None, "random"),
        ]
        assert record["seat_rows"][0]["family_id"] == bot_id
        assert await store.match_record("not-a-uuid") is None
        assert await store.match_record(str(uuid.uuid4())) is None

    run(database_url, body)


def test_a_read_after_the_database_dropped_every_pooled_connection_goes_again_at_once(
    database_url: str,
) -> None:
    """As after a database restart: the pool lends connections untested, so the first read on
    each dropped one fails, and must be read again on a fresh connection without a pause."""

    async def body(store: Store) -> None:
        match = spec()
        await store.create_match(match)
        held = [store._pool.connection() for _ in range(4)]
        for cm in held:
            await cm.__aenter__()
        for cm in held:
            await cm.__aexit__(None, None, None)
        with psycopg.connect(database_url, autocommit=True) as admin:
            dropped = admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                " AND backend_type = 'client backend'"
            ).fetchone()
            assert dropped is not None and dropped[0] >= 4
        started = asyncio.get_running_loop().time()
        assert (await store.match(match.id) or {})["id"] == uuid.UUID(match.id)
        assert asyncio.get_running_loop().time() - started < 5.0

    run(database_url, body, retry_delay=30.0)


def test_a_renewal_that_meets_a_deadlock_is_tried_again_and_renews(database_url: str) -> None:
    """A writer's transaction that locks lease rows out of match order (a mixed batch: a move
    beside a finish or a fault) deadlocks with a renewal. Made to happen here, not left to
    load: the writer holds the second match's lease row, the renewal locks the first and
    waits for the second, then, half a second later, the writer asks for the first. The
    backend whose wait passes PostgreSQL's deadlock timeout first fails: the renewal's, which
    waited first, so the store tries it again and it renews both once the writer commits. On
    a machine loaded enough for the writer's backend to check first, the writer fails instead
    and the scene is set again (a renewal that is not tried again fails the test either way)."""

    async def body(store: Store) -> None:
        for _ in range(5):
            first, second = sorted((spec(seed="a"), spec(seed="b")), key=lambda m: m.id)
            for match in (first, second):
                await store.create_match(match, owner="a", lease_s=5)
            writer = await psycopg.AsyncConnection.connect(database_url)
            try:
                lock = "SELECT 1 FROM match_leases WHERE match_id = %s FOR SHARE"
                await writer.execute(lock, (second.id,))
                renewal = asyncio.create_task(store.renew("a", {first.id: 1, second.id: 1}, 60))
                await _until_waiting_on_a_lock(database_url, "UPDATE match_leases")
                await asyncio.sleep(0.5)
                try:
                    await writer.execute(lock, (first.id,))
                except psycopg.errors.DeadlockDetected:
                    await writer.rollback()
                    await asyncio.wait_for(renewal, 30)
                    continue
                await writer.commit()
                renewed = await asyncio.wait_for(renewal, 30)
            finally:
                await writer.close()
            assert renewed == {first.id, second.id}
            left = sql(
                database_url,
                "SELECT min(expires_at - now()) FROM match_leases WHERE match_id = ANY(%s::uuid[])",
                ([first.id, second.id],),
            )
            assert left[0][0].total_seconds() > 30
            return
        raise AssertionError("the writer's backend found the deadlock first five times")

    run(database_url, body)


async def _until_waiting_on_a_lock(database_url: str, query: str) -> None:
    """Until a statement of this database starting with ``query`` waits on a lock (other
    tests' databases share the server, and their arbiters renew leases too)."""
    for _ in range(200):
        waiting = sql(
            database_url,
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            " AND datname = current_database() AND query LIKE %s",
            (query + "%",),
        )
        if waiting[0][0]:
            return
        await asyncio.sleep(0.05)
    raise TimeoutError(f"no statement {query!r} came to wait on a lock")
