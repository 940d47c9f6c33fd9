"""Every game's typed views by game id, for `premiere_bot.typed`.
Generated from proto/premiere/v1 by `make proto`. Do not edit.
"""

from __future__ import annotations

from typing import Any

from premiere_bot import magic_trick, motion_pictures, movie_fight, movie_trailer, movie_tricks

OBSERVATIONS: dict[str, type[Any]] = {
    movie_tricks.GAME: movie_tricks.Observation,
    magic_trick.GAME: magic_trick.Observation,
    movie_trailer.GAME: movie_trailer.Observation,
    motion_pictures.GAME: motion_pictures.Observation,
    movie_fight.GAME: movie_fight.Observation,
}

MOVES: dict[str, dict[str, type[Any]]] = {
    movie_tricks.GAME: movie_tricks.MOVES,
    magic_trick.GAME: magic_trick.MOVES,
    movie_trailer.GAME: movie_trailer.MOVES,
    motion_pictures.GAME: motion_pictures.MOVES,
    movie_fight.GAME: movie_fight.MOVES,
}
