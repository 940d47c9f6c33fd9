"""A bot that plays other games: the arbiter records what a bot says it plays when it connects,
voids a match it cannot play with the right reason, and refuses the next one at creation."""

from __future__ import annotations

import time
from pathlib import Path
from typing import ClassVar

import grpc
import psycopg
import pytest

from premiere_bot.examples.random_bot import RandomBot
from premiere_wire import match_pb2
from tests.integration.services import Arbiter, create_match, free_port, start_bot, wait_ended


class MovieTricksOnly(RandomBot):
    games: ClassVar[tuple[str, ...]] = ("movie-tricks",)


def test_a_bot_that_does_not_play_the_game(database_url: str, tmp_path: Path) -> None:
    arbiter = Arbiter(
        database_url, free_port(), free_port(), settings={"PREMIERE_START_GRACE_S": "15"}
    )
    arbiter.start(tmp_path / "arbiter.log")
    bot = None
    try:
        token = arbiter.add_bot("picky")
        stub = arbiter.matches()
        seats = ["picky", "builtin:random", "builtin:first"]
        # Created before the bot ever connected: nobody knows yet what it plays.
        early = create_match(stub, seats, "early")
        bot = start_bot(
            arbiter, "tests.integration.test_bot_games:MovieTricksOnly", token, tmp_path / "b.log"
        )
        match = wait_ended(stub, early, timeout=90)
        assert match.status == match_pb2.MATCH_STATUS_VOID
        assert match.void_reason == "picky connected but does not play magic-trick"

        with psycopg.connect(database_url) as conn:
            deadline = time.monotonic() + 30
            while conn.execute("SELECT games FROM bots WHERE name = 'picky'").fetchone() != (
                ["movie-tricks"],
            ):
                assert time.monotonic() < deadline
                time.sleep(0.2)
        with pytest.raises(grpc.RpcError) as refused:
            create_match(stub, seats, "late")
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "do not play magic-trick" in str(refused.value.details())
    finally:
        if bot is not None:
            bot.terminate()
            bot.wait(10)
        arbiter.stop()
