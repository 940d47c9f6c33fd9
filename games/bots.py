"""Built-in bots: one small interface, a seeded random bot for every game, and a lookup."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from games.interface import Game
from games.rng import Rng


class Bot(Protocol):
    """Sees only its seat's observation and legal moves, and returns one of those moves."""

    def choose(self, observation: Any, legal_moves: Sequence[Any]) -> Any: ...


BotFactory = Callable[[Rng], Bot]


class RandomBot:
    """Uniform over the legal moves, from its own seeded generator."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, observation: Any, legal_moves: Sequence[Any]) -> Any:
        return self.rng.choice(legal_moves)


def bot_names(game: Game) -> tuple[str, ...]:
    return ("random", *sorted(game.heuristic_bots()))


def make_bot(game: Game, name: str, rng: Rng) -> Bot:
    """A built-in bot by name; raises KeyError naming the bots this game has."""
    factories: dict[str, BotFactory] = {"random": RandomBot, **game.heuristic_bots()}
    try:
        factory = factories[name]
    except KeyError:
        raise KeyError(
            f"no built-in bot {name!r} for {game.id}; choose from {', '.join(bot_names(game))}"
        ) from None
    return factory(rng)
