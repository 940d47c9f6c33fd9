"""Movie Trailer: a Director lays clue tiles for a secret film, Spectators race to name it."""

from games.movie_trailer.state import MovieTrailer, MovieTrailerState

__all__ = ["MovieTrailer", "MovieTrailerState"]
