"""Misbehaving bots, each run as a real `premiere-bot run` process by the fault tests."""

from __future__ import annotations

import os
import time

from premiere_bot import Bot, Decision
from premiere_bot.examples.random_bot import RandomBot
from premiere_wire import bot_gateway_pb2, game_pb2


class SlowBot(Bot):
    """Never answers in time."""

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Decision:
        time.sleep((request.move_time_ms + request.time_bank_ms) / 1000 + 0.3)
        return 0


class IllegalBot(Bot):
    """Answers with an index out of range, a move that is not legal, or an empty move."""

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Decision:
        mode = request.decision_number % 3
        if mode == 0:
            return len(request.legal_moves) + 5
        if mode == 1:
            move = game_pb2.Move()
            move.magic_trick.play.slot = 99
            return move
        return game_pb2.Move()


class QuitterBot(Bot):
    """Plays a few decisions, then its process dies without a goodbye."""

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Decision:
        if request.decision_number >= 6:
            os._exit(3)
        return 0


class SteadyBot(RandomBot):
    """The deterministic random bot, taking 15 ms per decision so a test can interrupt it."""

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Decision:
        time.sleep(0.015)
        return super().decide_raw(request)
