"""A bot that reads what its cards are, run as a real `premiere-bot run` process: it writes the
card properties it read to the file PREMIERE_TEST_CARDS names, one JSON line per decision."""

from __future__ import annotations

import json
import os
from typing import Any

from premiere_bot import Bot, Decision
from premiere_bot.movie_fight import Observation, Play


class CardReader(Bot):
    games = ("movie-fight",)

    def decide(self, observation: Observation, legal_moves: tuple[Any, ...]) -> Decision:
        card = observation.offer[0]
        line = {"number": int(card), "genres": list(card.genres), "viewer": card.viewer}
        with open(os.environ["PREMIERE_TEST_CARDS"], "a") as out:
            out.write(json.dumps(line) + "\n")
        plays = [move for move in legal_moves if isinstance(move, Play)]
        return max(plays, key=lambda move: move.card.points) if plays else legal_moves[0]
