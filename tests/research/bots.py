"""OpenSpiel policies as ladder bots, run by `premiere-bot run` in tests/research."""

from __future__ import annotations

from typing import Any

import pyspiel
from open_spiel.python import policy

from premiere_bot.openspiel import OpenSpielBot, SeatState


class UniformBot(OpenSpielBot):
    """OpenSpiel's uniform random policy."""

    def make_policy(self, game: pyspiel.Game) -> Any:
        return policy.UniformRandomPolicy(game)


class HighestActionBot(OpenSpielBot):
    """A callable deciding from the observation tensor's shape and the legal actions: the
    legal action with the highest id."""

    def make_policy(self, game: pyspiel.Game) -> Any:
        def decide(state: SeatState) -> int:
            assert len(state.observation_tensor()) == game.observation_tensor_shape()[0]
            return max(state.legal_actions())

        return decide
