"""Premiere bot SDK: subclass `Bot`, implement `decide`, and `run` it against an arbiter.

Typed views of each game are in `premiere_bot.magic_trick`, `movie_tricks`, `movie_trailer`,
`motion_pictures` and `movie_fight`; `challenge` asks the arbiter for a match now.
"""

from premiere_bot.bot import Bot, Decision, Noted
from premiere_bot.challenge import ChallengeRefused, challenge
from premiere_bot.runner import run

__all__ = ["Bot", "ChallengeRefused", "Decision", "Noted", "challenge", "run"]
