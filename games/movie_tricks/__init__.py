"""Movie Tricks: play a card for your place in the draft, and build four columns of movies."""

from games.movie_tricks.game import MovieTricks
from games.movie_tricks.state import MovieTricksState

__all__ = ["MovieTricks", "MovieTricksState"]
