"""Movie Trailer: a Director lays clue tiles for a secret film, Spectators race to name it."""

from games.movie_trailer.game import MovieTrailer
from games.movie_trailer.state import MovieTrailerState

__all__ = ["MovieTrailer", "MovieTrailerState"]
