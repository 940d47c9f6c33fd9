"""A bot that notes its plan on every answer (`premiere_bot.Noted`): its decision number and
how many moves it could choose from; its 5th note is too long for the arbiter and its 6th holds
a NUL character. Slow enough to be watched while it plays."""

from __future__ import annotations

import time

from premiere_bot import Bot, Noted
from premiere_bot.bot import Decision
from premiere_wire import bot_gateway_pb2

SLOW_S = 0.2
LONG_NOTE = "x" * 600


class NotingBot(Bot):
    def __init__(self) -> None:
        self.asked = 0

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Decision:
        self.asked += 1
        time.sleep(SLOW_S)
        if self.asked == 5:
            answer = bot_gateway_pb2.DecisionAnswer(note=LONG_NOTE)  # past Noted's own check
            return _Raw(0, answer.note)
        if self.asked == 6:
            return _Raw(0, "plan 6\x00")
        return Noted(0, f"plan {self.asked}: first of {len(request.legal_moves)} moves")


class _Raw(Noted):
    """A note the SDK would refuse, sent anyway: what a hostile client could send."""

    def __post_init__(self) -> None:
        pass
