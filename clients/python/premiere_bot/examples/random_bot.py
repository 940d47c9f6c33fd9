"""Plays any game by picking a legal move at random, from the raw request (`decide_raw`).

The pick is a hash of what the seat sees, so the same position always gets the same move: a
match replayed from the same seed, or resumed after an arbiter restart, plays out identically.
It answers in microseconds, so it runs `inline`: on the event loop, with no thread hop.
"""

from __future__ import annotations

import hashlib

from premiere_bot import Bot, Decision
from premiere_wire import bot_gateway_pb2


class RandomBot(Bot):
    max_matches = 8
    inline = True

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Decision:
        seen = request.observation.SerializeToString(deterministic=True)
        key = request.decision_number.to_bytes(4, "big") + seen
        draw = int.from_bytes(hashlib.sha256(key).digest()[:8], "big")
        return draw % len(request.legal_moves)
