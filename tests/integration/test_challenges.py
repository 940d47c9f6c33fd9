"""Challenges on demand (BotGatewayService.Challenge): a bot asks for a match against built-ins
or bots that accept challenges, casual or (where the operator allows) rated, and plays it on
its running connection; everything it may not do is refused with the reason."""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from premiere_bot.challenge import ChallengeRefused, challenge
from premiere_wire import bot_gateway_pb2, match_pb2
from tests.integration.services import BIN, ROOT, Arbiter, free_port, start_bot, wait_ended

RANDOM = "premiere_bot.examples.random_bot:RandomBot"
STEADY = "tests.integration.bad_bots:SteadyBot"
OPEN = "tests.sdk.bots:ChallengeableBot"
BUILTINS = ["builtin:random", "builtin:heuristic"]


@pytest.fixture
def rated_arbiter(database_url: str, tmp_path: Path) -> Iterator[Arbiter]:
    arbiter = Arbiter(
        database_url,
        free_port(),
        free_port(),
        settings={"PREMIERE_CHALLENGES": "rated", "PREMIERE_MAX_OPEN_CHALLENGES": "1"},
    )
    arbiter.start(tmp_path / "arbiter.log")
    try:
        yield arbiter
    finally:
        arbiter.stop()


def ask(arbiter: Arbiter, token: str, opponents: list[str], **kwargs: object) -> str:
    reply: bot_gateway_pb2.ChallengeResponse = asyncio.run(
        challenge(arbiter.address, token, "magic-trick", opponents, **kwargs)  # type: ignore[arg-type]
    )
    return str(reply.match_id)


def refused(
    arbiter: Arbiter, token: str, opponents: list[str], **kwargs: object
) -> ChallengeRefused:
    with pytest.raises(ChallengeRefused) as caught:
        ask(arbiter, token, opponents, **kwargs)
    return caught.value


def wait_connected(log: Path) -> None:
    deadline = time.monotonic() + 30
    while "connected to" not in (log.read_text() if log.exists() else ""):
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)


def test_a_casual_challenge_from_the_cli_is_played_by_the_running_bot(
    arbiter: Arbiter, tmp_path: Path
) -> None:
    token = arbiter.add_bot("author")
    log = tmp_path / "bot.log"
    bot = start_bot(arbiter, RANDOM, token, log)
    try:
        wait_connected(log)
        result = subprocess.run(
            [
                str(BIN / "premiere-bot"),
                "challenge",
                "--game",
                "magic-trick",
                "--vs",
                ",".join(BUILTINS),
                "--seat",
                "1",
                "--arbiter",
                arbiter.address,
            ],
            env={**os.environ, "PREMIERE_BOT_TOKEN": token},
            capture_output=True,
            text=True,
            timeout=60,
            cwd=ROOT,
        )
        assert result.returncode == 0, result.stderr
        match_id = result.stdout.split()[1]
        assert result.stdout.strip().endswith("(casual); your running bot plays it")
        match = wait_ended(arbiter.matches(), match_id)
        assert match.status == match_pb2.MATCH_STATUS_FINISHED
        assert not match.rated
        assert [s.player for s in match.seats] == ["builtin:random", "author", "builtin:heuristic"]
        rated = subprocess.run(
            [
                str(BIN / "premiere-bot"),
                "challenge",
                "--game",
                "magic-trick",
                "--vs",
                ",".join(BUILTINS),
                "--rated",
                "--arbiter",
                arbiter.address,
            ],
            env={**os.environ, "PREMIERE_BOT_TOKEN": token},
            capture_output=True,
            text=True,
            timeout=60,
            cwd=ROOT,
        )
        assert rated.returncode == 1
        assert "casual challenges only" in rated.stderr and "PERMISSION_DENIED" in rated.stderr
    finally:
        bot.terminate()
        bot.wait(10)


def test_rated_challenges_against_bots_that_accept_them(
    rated_arbiter: Arbiter, tmp_path: Path
) -> None:
    arbiter = rated_arbiter
    tokens = {name: arbiter.add_bot(name) for name in ("author", "shy", "open")}
    for name in tokens:
        arbiter.admit(name, ["magic-trick"])
    assert refused(arbiter, tokens["author"], BUILTINS).code == grpc.StatusCode.FAILED_PRECONDITION
    bots = [
        start_bot(arbiter, STEADY, tokens["author"], tmp_path / "author.log"),
        start_bot(arbiter, RANDOM, tokens["shy"], tmp_path / "shy.log"),
        start_bot(arbiter, OPEN, tokens["open"], tmp_path / "open.log"),
    ]
    try:
        for name in ("author", "shy", "open"):
            wait_connected(tmp_path / f"{name}.log")
        shy = refused(arbiter, tokens["author"], ["shy", "builtin:random"])
        assert "'shy' does not accept magic-trick challenges now" in str(shy)
        assert "challenge other bots" in str(refused(arbiter, tokens["author"], ["author", "open"]))
        assert refused(arbiter, "pmb_wrong", BUILTINS).code == grpc.StatusCode.UNAUTHENTICATED
        nul = refused(arbiter, tokens["author"], ["open\x00", "builtin:random"])
        assert nul.code == grpc.StatusCode.INVALID_ARGUMENT and "NUL" in str(nul)
        bad = refused(arbiter, tokens["author"], BUILTINS, options={"prestige": "maybe"})
        assert bad.code == grpc.StatusCode.INVALID_ARGUMENT and "prestige" in str(bad)
        with pytest.raises(ChallengeRefused, match="unknown game 'chess'"):
            asyncio.run(challenge(arbiter.address, tokens["author"], "chess", BUILTINS))
        crowd = refused(arbiter, tokens["author"], ["builtin:random"] * 5)
        assert "played by (3, 4, 5) seats, not 6" in str(crowd)

        match_id = ask(arbiter, tokens["author"], ["open", "builtin:heuristic"], rated=True)
        busy = refused(arbiter, tokens["author"], BUILTINS)
        assert busy.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "at most 1 unfinished challenges" in str(busy)
        match = wait_ended(arbiter.matches(), match_id)
        assert match.status == match_pb2.MATCH_STATUS_FINISHED and match.rated
        assert [s.player for s in match.seats] == ["author", "open", "builtin:heuristic"]
        assert not [f for f in match.faults if f.blame == "bot"]
        again = ask(arbiter, tokens["author"], BUILTINS)  # the first one has finished
        assert wait_ended(arbiter.matches(), again).status == match_pb2.MATCH_STATUS_FINISHED
    finally:
        for bot in bots:
            bot.terminate()
            bot.wait(10)


def test_a_rated_challenge_is_rated_only_if_every_registered_seat_is_in_rated_play(
    database_url: str, tmp_path: Path
) -> None:
    """The gate over the wire with two registered bots: one in rated play beside one still
    validating (or on probation, or validated in another game only) makes the table unrated,
    whichever of the two asks; both rated makes it rated."""
    arbiter = Arbiter(
        database_url,
        free_port(),
        free_port(),
        settings={"PREMIERE_CHALLENGES": "rated", "PREMIERE_MAX_OPEN_CHALLENGES": "8"},
    )
    arbiter.start(tmp_path / "arbiter.log")
    bots: list[subprocess.Popen[bytes]] = []
    try:
        tokens = {name: arbiter.add_bot(name) for name in ("asker", "open")}
        bots += [
            start_bot(arbiter, OPEN, tokens["asker"], tmp_path / "asker.log"),
            start_bot(arbiter, OPEN, tokens["open"], tmp_path / "open.log"),
        ]
        for name in tokens:
            wait_connected(tmp_path / f"{name}.log")

        def verdict(asker: str, other: str) -> tuple[bool, str]:
            reply: bot_gateway_pb2.ChallengeResponse = asyncio.run(
                challenge(
                    arbiter.address,
                    tokens[asker],
                    "magic-trick",
                    [other, "builtin:random"],
                    rated=True,
                )
            )
            match = wait_ended(arbiter.matches(), reply.match_id)
            assert match.rated == reply.rated
            return reply.rated, reply.unrated_reason

        arbiter.admit("asker", ["magic-trick"])
        arbiter.admit("open", ["movie-tricks"])
        assert verdict("asker", "open") == (False, "unvalidated")
        for state, reason in (("validating", "validating"), ("probation", "probation")):
            arbiter.admit("open", ["magic-trick"], state=state)
            assert verdict("asker", "open") == (False, reason)
            assert verdict("open", "asker") == (False, reason)
        arbiter.admit("open", ["magic-trick"])
        assert verdict("asker", "open") == (True, "")
    finally:
        for bot in bots:
            bot.terminate()
            bot.wait(10)
        arbiter.stop()
