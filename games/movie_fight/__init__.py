"""Movie Fight: draft twelve entertainment cards into a two-floor cinema, solo against an automa."""

from games.movie_fight.game import MovieFight
from games.movie_fight.state import MovieFightState

__all__ = ["MovieFight", "MovieFightState"]
