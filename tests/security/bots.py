"""Bots for the security tests, run as real `premiere-bot run` processes."""

from __future__ import annotations

import os
import time
from pathlib import Path

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
    """Plays every game, the first legal move, 20 ms per decision; holds the first decision of
    each match until the test releases it (a file named after the match appears in
    ``$PREMIERE_TEST_RELEASE_DIR``), so the match is certainly running while the test reads
    every surface, however slowly a loaded machine serves them. It never holds past two seconds
    before the answer's deadline: a forgotten release is a slow match, not a timeout."""

    max_matches = 32

    def __init__(self) -> None:
        super().__init__()
        self._held: set[str] = set()
        self._release = Path(os.environ["PREMIERE_TEST_RELEASE_DIR"])

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Decision:
        if request.match_id not in self._held:
            self._held.add(request.match_id)
            until = request.deadline_unix_ms / 1000 - 2
            while not (self._release / request.match_id).exists() and time.time() < until:
                time.sleep(0.02)
        time.sleep(0.02)
        return 0
