"""A bot slow enough to be watched live, with faults a bot page must show: it answers after
SLOW_S, every 7th of its decisions too late for the move clock, and every 10th with a move
that does not exist."""

from __future__ import annotations

import time

from premiere_bot import Bot
from premiere_bot.bot import Decision
from premiere_wire import bot_gateway_pb2

SLOW_S = 0.25
"""Slow enough that a two-seat Movie Tricks match outlasts the live page's checks on a loaded
machine (at 0.12 s it lasted about 7 s and could end before them)."""
LATE_S = 0.6


class SlowBot(Bot):
    def __init__(self) -> None:
        self.asked = 0

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Decision:
        self.asked += 1
        time.sleep(LATE_S if self.asked % 7 == 0 else SLOW_S)
        if self.asked % 10 == 0:
            return len(request.legal_moves) + 1000
        return 0


STEADY_S = 0.7


class SteadyBot(Bot):
    """Answers the first legal move after STEADY_S, with no fault: a match that lasts long
    enough on a loaded machine for a test to look at it several times."""

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Decision:
        time.sleep(STEADY_S)
        return 0
