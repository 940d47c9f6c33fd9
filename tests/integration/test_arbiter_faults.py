"""Misbehaving bot processes: every match still finishes, faults are recorded, the arbiter
stays healthy. Each bad bot sits with two built-in bots at a short clock."""

from __future__ import annotations

import subprocess
import sys
import urllib.request
from collections import Counter
from pathlib import Path

import grpc
import pytest

from premiere_wire import bot_gateway_pb2, bot_gateway_pb2_grpc, match_pb2
from tests.integration.services import ROOT, Arbiter, create_match, start_bot, wait_ended

FAST = {"move_time_ms": 150, "time_bank_ms": 150, "strike_limit": 3}
SEATS = ["bad", "builtin:random", "builtin:heuristic"]


def play_against(arbiter: Arbiter, process: subprocess.Popen[bytes]) -> match_pb2.Match:
    try:
        stub = arbiter.matches()
        match_id = create_match(stub, SEATS, "faults", **FAST)
        match = wait_ended(stub, match_id, timeout=180)
    finally:
        process.kill()
        process.wait(10)
    assert match.status == match_pb2.MATCH_STATUS_FINISHED, arbiter.log()
    assert arbiter.healthy()
    return match


def faults(match: match_pb2.Match) -> Counter[tuple[str, str]]:
    return Counter((f.kind, f.blame) for f in match.faults if f.seat == 0)


def assert_forfeited_last(match: match_pb2.Match) -> None:
    assert match.seats[0].forfeited
    assert match.seats[0].strikes == FAST["strike_limit"] + 1
    assert list(match.outcome.forfeited) == [0]
    assert match.outcome.ranks[0] == 3
    assert sorted(match.outcome.ranks[1:]) in ([1, 2], [1, 1])


def bad_bot(arbiter: Arbiter, tmp_path: Path, spec: str) -> subprocess.Popen[bytes]:
    token = arbiter.add_bot("bad")
    return start_bot(arbiter, spec, token, tmp_path / "bad.log")


def test_too_slow(arbiter: Arbiter, tmp_path: Path) -> None:
    match = play_against(arbiter, bad_bot(arbiter, tmp_path, "tests.integration.bad_bots:SlowBot"))
    assert faults(match) == {("timeout", "bot"): 4}
    assert_forfeited_last(match)


def test_illegal_and_malformed_moves(arbiter: Arbiter, tmp_path: Path) -> None:
    process = bad_bot(arbiter, tmp_path, "tests.integration.bad_bots:IllegalBot")
    match = play_against(arbiter, process)
    kinds = faults(match)
    assert kinds[("illegal", "bot")] >= 1
    assert sum(kinds.values()) == 4
    assert set(kinds) <= {("illegal", "bot"), ("malformed", "bot")}
    assert_forfeited_last(match)
    log = (tmp_path / "bad.log").read_text()
    assert "refused" in log


def test_disconnect_mid_match(arbiter: Arbiter, tmp_path: Path) -> None:
    process = bad_bot(arbiter, tmp_path, "tests.integration.bad_bots:QuitterBot")
    match = play_against(arbiter, process)
    assert process.returncode == 3
    kinds = faults(match)
    assert kinds[("disconnect", "bot")] >= 1
    assert sum(kinds.values()) == 4
    assert_forfeited_last(match)


def raw_bot(arbiter: Arbiter, tmp_path: Path, mode: str) -> subprocess.Popen[bytes]:
    token = arbiter.add_bot("bad")
    return subprocess.Popen(
        [sys.executable, str(ROOT / "tests/integration/raw_bot.py"), arbiter.address, token, mode],
        cwd=ROOT,
        stdout=(tmp_path / "raw.log").open("ab"),
        stderr=subprocess.STDOUT,
    )


def test_garbage_bytes(arbiter: Arbiter, tmp_path: Path) -> None:
    match = play_against(arbiter, raw_bot(arbiter, tmp_path, "garbage"))
    kinds = faults(match)
    assert kinds[("disconnect", "bot")] >= 1
    assert_forfeited_last(match)


def test_answers_for_requests_it_was_not_sent_are_refused(arbiter: Arbiter, tmp_path: Path) -> None:
    match = play_against(arbiter, raw_bot(arbiter, tmp_path, "thief"))
    assert list(match.faults) == []
    assert not match.seats[0].forfeited
    metrics = (
        urllib.request.urlopen(f"http://127.0.0.1:{arbiter.metrics_port}/metrics", timeout=5)
        .read()
        .decode()
    )
    refused = next(
        line
        for line in metrics.splitlines()
        if line.startswith('premiere_arbiter_refused_answers_total{reason="stale"}')
    )
    assert float(refused.split()[-1]) >= 4 * match.decisions // 3 / 2


@pytest.mark.parametrize("token", [None, "not-a-token"])
def test_no_token_is_unauthenticated(arbiter: Arbiter, token: str | None) -> None:
    metadata = () if token is None else (("authorization", f"Bearer {token}"),)
    hello = bot_gateway_pb2.ConnectRequest(hello=bot_gateway_pb2.Hello(max_matches=1))
    with grpc.insecure_channel(arbiter.address) as channel:
        stream = bot_gateway_pb2_grpc.BotGatewayServiceStub(channel).Connect(
            iter([hello]), metadata=metadata, timeout=10
        )
        with pytest.raises(grpc.RpcError) as refused:
            next(stream)
    assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert arbiter.healthy()
