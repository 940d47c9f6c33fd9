"""An OpenSpiel policy as a hosted bot: the policy object OpenSpiel's algorithms would train or
evaluate (here uniform over the legal actions; return yours from `make_policy`) plays the
seat from the observation the request carries."""

from __future__ import annotations

from typing import Any

from open_spiel.python import policy

from premiere_bot.openspiel import OpenSpielBot


class SpielBot(OpenSpielBot):
    games = ("movie-tricks",)

    def make_policy(self, game: Any) -> Any:
        return policy.UniformRandomPolicy(game)
