"""Bots for the SDK's own tests."""

from __future__ import annotations

import time
from typing import Any

from premiere_bot import Bot
from premiere_bot.examples.random_bot import RandomBot
from premiere_bot.magic_trick import Observation, PlayCard
from premiere_wire import bot_gateway_pb2


class ClumsyBot(Bot):
    """Magic Trick only; in every match a bad index, a card it does not hold, a crash, and one
    slow answer (50 ms)."""

    games = ("magic-trick",)

    def __init__(self) -> None:
        self.decisions = 0

    def match_started(self, event: bot_gateway_pb2.MatchStarted) -> None:
        if not event.resent:
            self.decisions = 0

    def decide(self, observation: Observation, legal_moves: tuple[Any, ...]) -> Any:
        self.decisions += 1
        if self.decisions == 2:
            return len(legal_moves) + 3
        if self.decisions == 4:
            return PlayCard(slot=99)
        if self.decisions == 6:
            raise RuntimeError("oops")
        if self.decisions == 8:
            time.sleep(0.05)
        return legal_moves[-1]


class ChallengeableBot(RandomBot):
    """The deterministic random bot, open to challenges from other bots."""

    accept_challenges = True


class PooledRandomBot(RandomBot):
    """The random bot on the thread pool, as any plain bot that does not declare itself inline."""

    inline = False
