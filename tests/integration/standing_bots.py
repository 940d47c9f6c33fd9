"""Bots for the validation and probation tests, run as real `premiere-bot run` processes."""

from __future__ import annotations

import os
from pathlib import Path

from premiere_bot import Decision
from premiere_bot.examples.random_bot import RandomBot
from premiere_wire import bot_gateway_pb2


class CleanBot(RandomBot):
    """Plays Movie Tricks only, never a fault."""

    games = ("movie-tricks",)


class BrokenBot(RandomBot):
    """Plays Movie Tricks only, answering its first decision of every match with an index out
    of range (one fault per match)."""

    games = ("movie-tricks",)

    def __init__(self) -> None:
        super().__init__()
        self.seen: set[str] = set()

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Decision:
        if request.match_id not in self.seen:
            self.seen.add(request.match_id)
            return len(request.legal_moves) + 5
        return super().decide_raw(request)


class FlakyBot(BrokenBot):
    """Broken while the file named by PREMIERE_TEST_FLAKY exists, clean otherwise."""

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Decision:
        if Path(os.environ["PREMIERE_TEST_FLAKY"]).exists():
            return super().decide_raw(request)
        return RandomBot.decide_raw(self, request)
