"""Games by id. Engines are registered explicitly so the list is plain to read."""

from __future__ import annotations

from games.interface import Game
from games.magic_trick import MagicTrick
from games.motion_pictures import MotionPictures
from games.movie_fight import MovieFight
from games.movie_trailer import MovieTrailer
from games.movie_tricks import MovieTricks

_GAMES: dict[str, Game] = {
    game.id: game
    for game in (MagicTrick(), MotionPictures(), MovieFight(), MovieTrailer(), MovieTricks())
}


def get(game_id: str) -> Game:
    try:
        return _GAMES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(sorted(_GAMES))}") from None


def all_games() -> tuple[Game, ...]:
    return tuple(_GAMES[game_id] for game_id in sorted(_GAMES))


def ids() -> tuple[str, ...]:
    return tuple(sorted(_GAMES))


def register(game: Game) -> None:
    """Serve one more game beside the built-in ones, from now on in this process: the hook a
    test uses to play a throwaway game. The protocol must carry its messages (`make proto`
    with the game's .proto file and its line in proto/games.toml)."""
    if game.id in _GAMES:
        raise ValueError(f"a game {game.id!r} is registered already")
    _GAMES[game.id] = game
