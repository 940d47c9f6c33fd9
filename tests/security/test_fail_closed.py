"""Finding: anyone could create rated matches with a seed and clocks of their choosing, and
live fault details were public. Match creation now fails closed, rated matches deal from seeds
nobody chose, clocks are bounded, and fault details stay with their seat until the end."""

from __future__ import annotations

import time
from pathlib import Path

import grpc
import psycopg
import pytest

from ladder.store import rate_match
from premiere_wire import match_pb2
from tests.integration.services import Arbiter, free_port, start_bot, wait_ended

BUILTINS = ["builtin:random", "builtin:heuristic", "builtin:random"]


def request(seed: str = "", rated: bool = False, seats: list[str] | None = None, **clock: int):
    message = match_pb2.CreateMatchRequest(game="magic-trick", seed=seed, rated=rated)
    for seat in seats or BUILTINS:
        if seat.startswith("builtin:"):
            message.seats.add(builtin=seat.removeprefix("builtin:"))
        else:
            message.seats.add(bot=seat)
    for name, value in clock.items():
        setattr(message.time_control, name, value)
    return message


def refused(call, *args, **kwargs) -> grpc.RpcError:  # type: ignore[no-untyped-def]
    with pytest.raises(grpc.RpcError) as caught:
        call(*args, timeout=10, **kwargs)
    return caught.value


def test_creating_matches_needs_the_operator_token(shared: Arbiter) -> None:
    anonymous = shared.anonymous()
    for metadata in ((), (("authorization", "Bearer wrong"),), (("authorization", "Bearer "),)):
        error = refused(anonymous.CreateMatch, request(), metadata=metadata)
        assert error.code() == grpc.StatusCode.UNAUTHENTICATED
    match_id = shared.matches().CreateMatch(request(), timeout=10).match_id
    assert wait_ended(shared.matches(), match_id).status == match_pb2.MATCH_STATUS_FINISHED


class Unguarded(Arbiter):
    """An arbiter started with PREMIERE_OPERATOR_TOKEN unset (or set to `token`)."""

    token: str | None = None

    def env(self, **extra: str) -> dict[str, str]:
        env = super().env(**extra)
        env.pop("PREMIERE_OPERATOR_TOKEN", None)
        if self.token is not None:
            env["PREMIERE_OPERATOR_TOKEN"] = self.token
        return env


@pytest.mark.parametrize("token", ["", None])
def test_without_an_operator_token_nobody_creates_matches(
    database_url: str, tmp_path: Path, token: str | None
) -> None:
    server = Unguarded(database_url, free_port(), free_port())
    server.token = token
    server.start(tmp_path / "shared.log")
    try:
        stub = server.anonymous()
        for metadata in ((), (("authorization", "Bearer "),), (("authorization", "Bearer x"),)):
            error = refused(stub.CreateMatch, request(), metadata=metadata)
            assert error.code() == grpc.StatusCode.PERMISSION_DENIED
            assert "PREMIERE_OPERATOR_TOKEN" in error.details()
    finally:
        server.stop()


@pytest.mark.parametrize(
    "clock",
    [
        {"move_time_ms": 1},
        {"move_time_ms": 24 * 24 * 3600 * 1000},
        {"time_bank_ms": 24 * 24 * 3600 * 1000},
        {"strike_limit": 1000},
    ],
)
def test_time_controls_are_bounded(shared: Arbiter, clock: dict[str, int]) -> None:
    error = refused(shared.matches().CreateMatch, request(**clock))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "must be" in error.details()


def test_only_server_seeds_are_rated(shared: Arbiter) -> None:
    stub = shared.matches()
    error = refused(stub.CreateMatch, request(seed="my-known-deal", rated=True))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    chosen = stub.CreateMatch(request(seed="my-known-deal"), timeout=10).match_id
    drawn = stub.CreateMatch(request(rated=True), timeout=10).match_id
    assert wait_ended(stub, chosen).rated is False
    assert wait_ended(stub, drawn).rated is True
    chosen_replay = stub.GetReplay(match_pb2.GetReplayRequest(match_id=chosen), timeout=10)
    drawn_replay = stub.GetReplay(match_pb2.GetReplayRequest(match_id=drawn), timeout=10)
    assert (chosen_replay.rated, chosen_replay.seed) == (False, "my-known-deal")
    assert drawn_replay.rated is True
    assert len(drawn_replay.seed) == 64 and int(drawn_replay.seed, 16) >= 0
    with psycopg.connect(shared.database_url, autocommit=True) as conn:
        queued = {str(r[0]) for r in conn.execute("SELECT match_id FROM rating_queue")}
        assert chosen not in queued
        assert drawn in queued
        assert rate_match(conn, chosen) is False
        assert rate_match(conn, drawn) is True


def test_fault_details_are_private_until_the_end(shared: Arbiter, tmp_path: Path) -> None:
    token = shared.add_bot("fumbler")
    bot = start_bot(shared, "tests.security.bots:FumbleThenSlowBot", token, tmp_path / "bot.log")
    try:
        stub = shared.matches()
        seats = ["fumbler", "builtin:random", "builtin:heuristic"]
        clock = {"move_time_ms": 2000, "time_bank_ms": 5000, "strike_limit": 20}
        match_id = stub.CreateMatch(request(seats=seats, **clock), timeout=10).match_id
        get = match_pb2.GetMatchRequest(match_id=match_id)
        own = (("authorization", f"Bearer {token}"),)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            public = shared.anonymous().GetMatch(get, timeout=10).match
            if public.faults and public.status == match_pb2.MATCH_STATUS_RUNNING:
                break
            time.sleep(0.05)
        assert public.status == match_pb2.MATCH_STATUS_RUNNING, shared.log()
        assert [f.kind for f in public.faults][:1] == ["illegal"]
        assert all(f.detail == "" for f in public.faults)
        watched = shared.anonymous().WatchMatch(
            match_pb2.WatchMatchRequest(match_id=match_id), timeout=10
        )
        for event in watched:
            if event.WhichOneof("event") == "fault":
                assert event.fault.detail == ""
                break
        watched.cancel()
        mine = shared.anonymous().GetMatch(get, timeout=10, metadata=own).match
        assert mine.status == match_pb2.MATCH_STATUS_RUNNING
        assert mine.faults[0].kind == "illegal"
        assert mine.faults[0].detail.startswith("index")
        ended = wait_ended(stub, match_id)
        assert ended.faults[0].detail.startswith("index")
    finally:
        bot.kill()
        bot.wait(10)
