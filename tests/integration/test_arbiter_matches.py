"""Remote bot processes play Magic Trick through a real arbiter on a real socket and Postgres."""

from __future__ import annotations

import subprocess
import time
import urllib.request
import uuid
from pathlib import Path

import grpc
import pytest

import games
from games.play import replay
from premiere_wire import match_pb2
from server.codec import move_from_wire
from tests.integration.services import Arbiter, create_match, start_bot, wait_ended
from tests.integration.test_node_bot import node_bot

RANDOM = "premiere_bot.examples.random_bot:RandomBot"
HEURISTIC = "premiere_bot.examples.magic_trick:MagicTrickBot"


def replayed_outcome(stub: object, match_id: str) -> tuple[list[int], list[int]]:
    full = stub.GetReplay(match_pb2.GetReplayRequest(match_id=match_id), timeout=10)  # type: ignore[attr-defined]
    game = games.get(full.game)
    moves = [(step.seat, move_from_wire(game, step.move)) for step in full.steps]
    state = replay(game, full.players, full.seed, moves, {})
    outcome = state.outcome()
    assert outcome is not None
    return list(outcome.scores), list(outcome.ranks)


def test_remote_bots_play_to_completion_and_replays_reproduce(
    arbiter: Arbiter, tmp_path: Path
) -> None:
    """Three Python bot processes and the Node bot, each over its own stream."""
    tokens = {name: arbiter.add_bot(name) for name in ("alpha", "beta", "gamma", "node")}
    bots = [
        start_bot(arbiter, RANDOM, tokens["alpha"], tmp_path / "alpha.log"),
        start_bot(arbiter, HEURISTIC, tokens["beta"], tmp_path / "beta.log"),
        start_bot(arbiter, RANDOM, tokens["gamma"], tmp_path / "gamma.log"),
    ]
    try:
        with node_bot(arbiter, tokens["node"], tmp_path / "node.log"):
            stub = arbiter.matches()
            seatings = [
                ["alpha", "beta", "gamma"],
                ["gamma", "node", "alpha", "beta"],
                ["alpha", "beta", "gamma", "node", "builtin:heuristic"],
                ["node", "builtin:random", "alpha", "gamma", "builtin:random"],
            ]
            ids = [create_match(stub, seats, f"seed-{i}") for i, seats in enumerate(seatings)]
            for match_id, seats in zip(ids, seatings, strict=True):
                match = wait_ended(stub, match_id)
                assert match.status == match_pb2.MATCH_STATUS_FINISHED, arbiter.log()
                assert list(match.faults) == []
                assert [s.player for s in match.seats] == seats
                scores, ranks = replayed_outcome(stub, match_id)
                assert list(match.outcome.scores) == scores
                assert list(match.outcome.ranks) == ranks
            metrics = (
                urllib.request.urlopen(
                    f"http://127.0.0.1:{arbiter.metrics_port}/metrics", timeout=5
                )
                .read()
                .decode()
            )
        assert 'premiere_arbiter_decisions_total{game="magic-trick",result="ok"}' in metrics
        assert "premiere_arbiter_decision_seconds_bucket" in metrics
        assert "premiere_arbiter_connected_bots 4.0" in metrics
    finally:
        for bot in bots:
            bot.terminate()
            bot.wait(10)


def test_full_replay_waits_for_the_end_but_seat_views_need_the_seat_token(
    arbiter: Arbiter, tmp_path: Path
) -> None:
    token = arbiter.add_bot("solo")
    stub = arbiter.matches()
    match_id = create_match(stub, ["solo", "builtin:random", "builtin:random"], "waiting")
    with pytest.raises(grpc.RpcError) as refused:
        stub.GetReplay(match_pb2.GetReplayRequest(match_id=match_id), timeout=10)
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    with pytest.raises(grpc.RpcError) as denied:
        stub.GetReplay(match_pb2.GetReplayRequest(match_id=match_id, seat=0), timeout=10)
    assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED
    bot = start_bot(arbiter, RANDOM, token, tmp_path / "solo.log")
    try:
        match = wait_ended(stub, match_id)
        assert match.status == match_pb2.MATCH_STATUS_FINISHED
        view = stub.GetReplay(match_pb2.GetReplayRequest(match_id=match_id, seat=0), timeout=10)
        assert view.seed == ""
        assert view.steps and all(step.seat == 0 for step in view.steps)
        assert all(step.observation.magic_trick.seat == 0 for step in view.steps)
        events = list(stub.WatchMatch(match_pb2.WatchMatchRequest(match_id=match_id), timeout=30))
        assert events[-1].WhichOneof("event") == "ended"
        assert sum(e.WhichOneof("event") == "move" for e in events) == match.decisions
        assert all(not e.move.view.magic_trick.HasField("seat") for e in events[:-1])
    finally:
        bot.terminate()
        bot.wait(10)


def test_unknown_match_and_bad_requests_get_clear_errors(arbiter: Arbiter) -> None:
    stub = arbiter.matches()
    with pytest.raises(grpc.RpcError) as missing:
        stub.GetMatch(match_pb2.GetMatchRequest(match_id="nope"), timeout=10)
    assert missing.value.code() == grpc.StatusCode.NOT_FOUND
    # Every spelling of a match id that Python's uuid reads is that match; several of them
    # PostgreSQL's uuid refuses, which made the lookup fail (INTERNAL).
    match_id = create_match(stub, ["builtin:random"] * 3, "spelt")
    assert wait_ended(stub, match_id).status == match_pb2.MATCH_STATUS_FINISHED
    plain = match_id.replace("-", "")
    for spelling in (f"urn:uuid:{match_id}", f"{{{plain.upper()}}}", f"{plain[0]}-{plain[1:]}"):
        assert stub.GetMatch(match_pb2.GetMatchRequest(match_id=spelling)).match.match_id == (
            match_id
        )
        replay = stub.GetReplay(match_pb2.GetReplayRequest(match_id=spelling), timeout=10)
        assert replay.steps and replay.seed == "spelt"
        watched = list(stub.WatchMatch(match_pb2.WatchMatchRequest(match_id=spelling), timeout=30))
        assert watched[-1].WhichOneof("event") == "ended"
    unknown = f"urn:uuid:{uuid.uuid4()}"
    for call, request in (
        (stub.GetMatch, match_pb2.GetMatchRequest(match_id=unknown)),
        (stub.GetReplay, match_pb2.GetReplayRequest(match_id=unknown)),
        (stub.GetMatch, match_pb2.GetMatchRequest(match_id="\x00")),
    ):
        with pytest.raises(grpc.RpcError) as missing:
            call(request, timeout=10)
        assert missing.value.code() == grpc.StatusCode.NOT_FOUND, missing.value.details()
    with pytest.raises(grpc.RpcError) as missing:
        list(stub.WatchMatch(match_pb2.WatchMatchRequest(match_id=unknown), timeout=10))
    assert missing.value.code() == grpc.StatusCode.NOT_FOUND
    assert "premiere.errors" not in arbiter.log()
    for seats, game in (
        [["builtin:random"] * 2, "magic-trick"],
        [["ghost"] * 3, "magic-trick"],
        [["builtin:random"] * 3, "chess"],
        [["builtin:genius"] * 3, "magic-trick"],
    ):
        with pytest.raises(grpc.RpcError) as bad:
            create_match(stub, seats, "x", game=game)
        assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_cli_refuses_duplicate_bot_names(arbiter: Arbiter) -> None:
    arbiter.add_bot("twin")
    with pytest.raises(subprocess.CalledProcessError):
        arbiter.add_bot("twin")


def test_create_match_with_an_idempotency_key_creates_one_match(arbiter: Arbiter) -> None:
    stub = arbiter.matches()
    request = match_pb2.CreateMatchRequest(game="magic-trick", seed="k", idempotency_key="once")
    for _ in range(3):
        request.seats.add(builtin="random")
    first = stub.CreateMatch(request, timeout=10).match_id
    again = stub.CreateMatch(request, timeout=10).match_id
    assert first == again
    assert wait_ended(stub, first).status == match_pb2.MATCH_STATUS_FINISHED
    assert stub.CreateMatch(request, timeout=10).match_id == first


def test_match_ids_follow_the_clock(arbiter: Arbiter) -> None:
    """New matches go at the end of every index keyed by match id (server/match_ids.py)."""
    stub = arbiter.matches()
    made = []
    for seed in ("first", "second"):
        made.append(create_match(stub, ["builtin:random"] * 3, seed))
        time.sleep(0.002)
    first, second = (uuid.UUID(match_id) for match_id in made)
    assert first.version == second.version == 7
    assert first < second
    for match_id in made:
        assert wait_ended(stub, match_id).status == match_pb2.MATCH_STATUS_FINISHED
