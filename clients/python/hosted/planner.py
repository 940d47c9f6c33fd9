"""An example hosted bot: the SDK's Magic Trick planner, and the first legal move elsewhere.

Its folder is a bundle: `premiere-bot bundle check .` plays it in a sandbox as the arena
would, and `premiere-bot upload . --bot NAME` makes it a new version of your bot.
"""

from __future__ import annotations

from typing import Any

from premiere_bot import Bot
from premiere_bot.examples.magic_trick import MagicTrickBot


class Planner(Bot):
    games = ("magic-trick", "movie-tricks")
    max_matches = 4

    def __init__(self) -> None:
        self.magic = MagicTrickBot()

    def decide(self, observation: Any, legal_moves: tuple[Any, ...]) -> Any:
        if type(observation).__module__.endswith("magic_trick"):
            return self.magic.decide(observation, legal_moves)
        return 0
