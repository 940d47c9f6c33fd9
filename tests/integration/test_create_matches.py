"""`MatchService.CreateMatches` tried as a hostile client would, on a real arbiter over gRPC:
a batch gains nothing a CreateMatch would not give (each request is checked on its own and
refused on its own, with CreateMatch's own words), a redelivered batch creates nothing twice,
and the workers' dispatch of a round (``workers.dispatch``) sends its tables in one batch,
recording each refusal, the gate's or the arbiter's, table by table."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import grpc
import psycopg
import pytest

from premiere_wire import match_pb2
from server.arbiter import MAX_BATCH
from tests.integration.services import Arbiter
from workers import dispatch, leagues
from workers.config import WorkerSettings
from workers.standing import Policy

GAME = "magic-trick"
RANDOMS = ["builtin:random"] * 3


def request(seats: list[str], key: str = "", **fields: Any) -> match_pb2.CreateMatchRequest:
    made = match_pb2.CreateMatchRequest(game=GAME, idempotency_key=key, **fields)
    dispatch.add_seats(made, seats)
    return made


def created(arbiter: Arbiter) -> int:
    with psycopg.connect(arbiter.database_url) as conn:
        row = conn.execute("SELECT count(*) FROM matches").fetchone()
    assert row is not None
    return int(row[0])


def outcomes(reply: match_pb2.CreateMatchesResponse) -> list[tuple[str, str]]:
    return [
        (str(result.WhichOneof("result")), getattr(result, str(result.WhichOneof("result"))))
        for result in reply.results
    ]


def test_create_matches_needs_the_operator_token(arbiter: Arbiter) -> None:
    batch = match_pb2.CreateMatchesRequest(matches=[request(RANDOMS, seed="anyone")])
    with pytest.raises(grpc.RpcError) as refused:
        arbiter.anonymous().CreateMatches(batch, timeout=10)
    assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
    bot = arbiter.add_bot("intruder")
    with pytest.raises(grpc.RpcError) as as_a_bot:
        arbiter.anonymous().CreateMatches(
            batch, timeout=10, metadata=(("authorization", f"Bearer {bot}"),)
        )
    assert as_a_bot.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert created(arbiter) == 0


def test_a_hostile_batch_is_refused_request_by_request_and_never_creates_twice(
    arbiter: Arbiter,
) -> None:
    good = request(RANDOMS, "table-1", seed="chosen-but-casual")
    batch = match_pb2.CreateMatchesRequest(
        matches=[
            good,
            request(RANDOMS, "weak", seed="i-chose-this-deal", rated=True),
            request(["builtin:random"] * 17, "crowd"),
            request(["ghost", "builtin:random", "builtin:random"], "ghost"),
            request(RANDOMS, "many-deals", deal_tables=65),
            request(RANDOMS, "slow", time_control=match_pb2.TimeControl(move_time_ms=2**31)),
            request([*RANDOMS[:2], "builtin:genius"], "genius"),
            good,
            request(RANDOMS, "table-2", rated=True),
        ]
    )
    stub = arbiter.matches()
    reply = stub.CreateMatches(batch, timeout=30)
    results = outcomes(reply)
    kinds = [kind for kind, _ in results]
    assert kinds == ["match_id", *["refused"] * 6, "match_id", "match_id"], results
    refusals = [text for kind, text in results if kind == "refused"]
    for text, expected in zip(
        refusals,
        [
            "a rated match's seed is drawn by the arbiter",
            "at most 16 seats",
            "no registered bots named ['ghost']",
            "deal_tables must be between 0 and 64",
            "move_time_ms",
            "no built-in bot 'genius'",
        ],
        strict=True,
    ):
        assert expected in text, (expected, text)
    first, repeated, second = results[0][1], results[7][1], results[8][1]
    assert first == repeated != second, "one key, one match, even twice in one batch"
    assert created(arbiter) == 2

    # Each refusal is CreateMatch's own, word for word.
    with pytest.raises(grpc.RpcError) as single:
        stub.CreateMatch(batch.matches[1], timeout=10)
    assert single.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert single.value.details() == refusals[0]

    again = stub.CreateMatches(batch, timeout=30)
    assert outcomes(again) == results, "a redelivered batch returns the first one's matches"
    assert created(arbiter) == 2


def test_a_batch_over_the_cap_is_refused_whole(arbiter: Arbiter) -> None:
    batch = match_pb2.CreateMatchesRequest(
        matches=[request(RANDOMS, f"table-{n}") for n in range(MAX_BATCH + 1)]
    )
    with pytest.raises(grpc.RpcError) as refused:
        arbiter.matches().CreateMatches(batch, timeout=30)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert f"at most {MAX_BATCH} matches" in str(refused.value.details())
    assert created(arbiter) == 0


def _tables(conn: psycopg.Connection[Any], league_id: int) -> list[dict[str, Any]]:
    return conn.execute(
        "SELECT table_no, seats, status, match_id FROM league_tables"
        " WHERE league_id = %s ORDER BY table_no",
        (league_id,),
    ).fetchall()


def test_a_round_goes_in_one_batch_and_each_refusal_is_recorded_table_by_table(
    arbiter: Arbiter,
) -> None:
    """Three tables of a rated league: at the first, two bots have come to share an owner since
    the league was made (the gate refuses it); at the second a bot was renamed (the arbiter
    refuses it); the third is played. Dispatched again, nothing is created twice."""
    names = [f"bot-{n}" for n in range(9)]
    for name in names:
        arbiter.add_bot(name)
        arbiter.admit(name, [GAME])
    settings = WorkerSettings(
        database_url=arbiter.database_url,
        arbiter_target=arbiter.address,
        operator_token=arbiter.env()["PREMIERE_OPERATOR_TOKEN"],
    )
    with leagues.connect(arbiter.database_url) as conn:
        league = leagues.create_league(
            conn, name="batch", game=GAME, format="round-robin", players=3, bots=names, rounds=1
        )
        number = leagues.open_round(conn, league.id, datetime.now(UTC), manual=True)
        assert number == 1
        planned = leagues.plan_round(conn, league.id, number)
        assert len(planned) == 3
        tables = _tables(conn, league.id)
        shared, renamed = tables[0]["seats"][:2], tables[1]["seats"][0]
        conn.execute(
            "INSERT INTO accounts (name, token_hash) VALUES ('mallory', 'mallory:no-token')"
        )
        conn.execute(
            "UPDATE bots SET account_id = (SELECT id FROM accounts WHERE name = 'mallory')"
            " WHERE name = ANY(%s)",
            (list(shared),),
        )
        conn.execute("UPDATE bots SET name = 'renamed' WHERE name = %s", (renamed,))

        policy = Policy(matches=0)
        sent = dispatch.dispatch(conn, settings, policy, league.id, number, [0, 1, 2])
        assert sent == 2, "the gate kept the first table out of the batch"
        after = _tables(conn, league.id)
        assert [t["status"] for t in after] == ["void", "void", "dispatched"]
        assert after[2]["match_id"] is not None

        assert dispatch.dispatch(conn, settings, policy, league.id, number, [0, 1, 2]) == 0
        assert _tables(conn, league.id) == after
        conn.execute(
            "UPDATE league_tables SET status = 'planned', match_id = NULL"
            " WHERE league_id = %s AND table_no = 2",
            (league.id,),
        )
        assert dispatch.dispatch(conn, settings, policy, league.id, number, [2]) == 1
        assert _tables(conn, league.id) == after, "a redelivered batch gets the same match"
    assert created(arbiter) == 1
