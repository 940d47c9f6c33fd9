"""Duplicate tables share one deal: they are dispatched one after another, and a table's seed,
replay and watch stream stay private until every table of its deal has ended."""

from __future__ import annotations

from datetime import UTC, datetime

import grpc
import pytest

from ladder.queries import NotFound, replay
from premiere_wire import match_pb2
from spectator.replays import replay_views
from tests.integration.services import Arbiter, wait_ended
from workers import leagues

SEATS = ("builtin:random", "builtin:heuristic", "builtin:first")


def create(arbiter: Arbiter, seed: str, deal_tables: int) -> str:
    request = match_pb2.CreateMatchRequest(game="magic-trick", seed=seed, deal_tables=deal_tables)
    for seat in SEATS:
        request.seats.add(builtin=seat.removeprefix("builtin:"))
    return str(arbiter.matches().CreateMatch(request, timeout=10).match_id)


def test_a_shared_deal_stays_sealed_until_every_table_has_ended(arbiter: Arbiter) -> None:
    import psycopg

    stub = arbiter.matches()
    seed = "ab" * 32
    first = create(arbiter, seed, 3)
    assert wait_ended(stub, first).status == match_pb2.MATCH_STATUS_FINISHED
    with pytest.raises(grpc.RpcError) as refused:
        stub.GetReplay(match_pb2.GetReplayRequest(match_id=first), timeout=10)
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "every table of its deal" in str(refused.value.details())
    with pytest.raises(grpc.RpcError) as unwatchable:
        list(stub.WatchMatch(match_pb2.WatchMatchRequest(match_id=first), timeout=10))
    assert unwatchable.value.code() == grpc.StatusCode.PERMISSION_DENIED
    with psycopg.connect(arbiter.database_url) as conn, pytest.raises(NotFound, match="deal"):
        replay(conn, first)
    with psycopg.connect(arbiter.database_url) as conn, pytest.raises(NotFound, match="deal"):
        replay_views(conn, first)

    alone = create(arbiter, seed + "00", 0)
    wait_ended(stub, alone)
    assert stub.GetReplay(match_pb2.GetReplayRequest(match_id=alone), timeout=10).seed

    for _ in range(2):
        wait_ended(stub, create(arbiter, seed, 3))
    opened = stub.GetReplay(match_pb2.GetReplayRequest(match_id=first), timeout=10)
    assert opened.seed == seed and opened.steps
    assert list(stub.WatchMatch(match_pb2.WatchMatchRequest(match_id=first), timeout=10))
    with psycopg.connect(arbiter.database_url) as conn:
        assert replay(conn, first).seed == seed
        assert replay_views(conn, first).seat_views


def test_too_many_deal_tables_is_a_clear_error(arbiter: Arbiter) -> None:
    with pytest.raises(grpc.RpcError) as refused:
        create(arbiter, "cd" * 32, 65)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "deal_tables" in str(refused.value.details())


def test_sibling_tables_are_dispatched_one_after_another(database_url: str) -> None:
    with leagues.connect(database_url) as conn:
        league = leagues.create_league(
            conn,
            name="dup",
            game="magic-trick",
            format="duplicate",
            players=3,
            bots=[*SEATS, "builtin:last"],
        )
        number = leagues.open_round(conn, league.id, datetime.now(UTC))
        assert number == 1
        tables = leagues.plan_round(conn, league.id, number)
        groups = {t.group for t in tables}
        assert len(tables) == 3 * len(groups)
        first_of_each = {
            (league.id, number, no)
            for no, table in enumerate(tables)
            if table.group not in {t.group for t in tables[:no]}
        }
        assert set(leagues.tables_to_dispatch(conn)) == first_of_each
        no = min(first_of_each)[2]
        assert leagues.table_request(conn, league.id, number, no + 1) is None
        found = leagues.table_request(conn, league.id, number, no)
        assert found is not None and found[1]["deal_tables"] == 3
        conn.execute(
            "UPDATE league_tables SET status = 'finished' WHERE league_id = %s AND table_no = %s",
            (league.id, no),
        )
        assert (league.id, number, no + 1) in leagues.tables_to_dispatch(conn)
        assert (league.id, number, no + 2) not in leagues.tables_to_dispatch(conn)
