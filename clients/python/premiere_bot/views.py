"""Every game's typed views by game id, for `premiere_bot.typed`: a game's module is
imported when its first request is read, so a bot does not start by building the
dataclasses of games it never plays (tens of milliseconds of a hosted bot's start).
Generated from proto/premiere/v1 by `make proto`. Do not edit.
"""

from __future__ import annotations

import importlib
from types import ModuleType

MODULES: dict[str, str] = {
    "movie-tricks": "premiere_bot.movie_tricks",
    "magic-trick": "premiere_bot.magic_trick",
    "movie-trailer": "premiere_bot.movie_trailer",
    "motion-pictures": "premiere_bot.motion_pictures",
    "movie-fight": "premiere_bot.movie_fight",
}

_LOADED: dict[str, ModuleType] = {}


def module(game: str) -> ModuleType | None:
    """The typed views of `game` (its `Observation`, its `MOVES`); None for a game this
    SDK does not know."""
    loaded = _LOADED.get(game)
    if loaded is None and game in MODULES:
        loaded = _LOADED[game] = importlib.import_module(MODULES[game])
    return loaded
