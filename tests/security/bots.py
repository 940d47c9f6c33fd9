"""Bots for the security tests, run as real `premiere-bot run` processes."""

from __future__ import annotations

import time

from premiere_bot import Bot, Decision
from premiere_wire import bot_gateway_pb2


class FumbleThenSlowBot(Bot):
    """Answers its first two decisions out of range (two faults with a detail), then plays the
    first legal move slowly enough for a test to look at the running match."""

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Decision:
        if request.decision_number < 6:
            return len(request.legal_moves) + 7
        time.sleep(0.08)
        return 0


class PatientBot(Bot):
    """Plays every game, the first legal move, 20 ms per decision: a match stays observable
    while it runs, even when the spectator surfaces (a replay re-executes the match) take a
    second or two to read on a loaded machine."""

    max_matches = 32

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Decision:
        time.sleep(0.02)
        return 0
