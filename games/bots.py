"""Built-in bots: one small interface, a seeded random bot for every game, and a lookup."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from games.interface import Game, State
from games.rng import Rng, Seed, derive_seed
from games.search import is_search, search_choice, search_names


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


class FirstMoveBot:
    """Always the first legal move: the arbiter's default move, as a baseline opponent."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, observation: Any, legal_moves: Sequence[Any]) -> Any:
        return legal_moves[0]


class LastMoveBot:
    """Always the last legal move: a second deterministic baseline."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, observation: Any, legal_moves: Sequence[Any]) -> Any:
        return legal_moves[-1]


GENERIC_BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "first": FirstMoveBot,
    "last": LastMoveBot,
}


def bot_names(game: Game) -> tuple[str, ...]:
    """Generic bots first, then the game's own, then the search levels (`games.search`)."""
    return (*observing_bots(game), *search_names())


def observing_bots(game: Game) -> tuple[str, ...]:
    """The built-ins that decide from their seat's observation alone (`make_bot` builds them):
    every one but the search levels."""
    return (*GENERIC_BOTS, *sorted(game.heuristic_bots()))


def needs_state(name: str) -> bool:
    """Whether the built-in decides from the match's state (through
    `State.indistinguishable`, so it still knows only its seat's view) rather than from the
    observation alone: the search levels."""
    return is_search(name)


def make_bot(game: Game, name: str, rng: Rng) -> Bot:
    """A built-in bot that decides from its observation, by name; raises KeyError naming the
    bots this game has (a search level is played with `builtin_choice` and the state)."""
    factories: dict[str, BotFactory] = {**GENERIC_BOTS, **game.heuristic_bots()}
    try:
        factory = factories[name]
    except KeyError:
        raise KeyError(
            f"no built-in bot {name!r} for {game.id}; choose from {', '.join(bot_names(game))}"
        ) from None
    return factory(rng)


def builtin_choice(
    game: Game,
    name: str,
    seed: Seed,
    seat: int,
    decision: int,
    observation: Any,
    legal_moves: Sequence[Any],
    state: State | None = None,
) -> Any:
    """One decision of a built-in bot, seeded by (game, match seed, seat, decision number).

    Built-in bots keep no memory between decisions (observations are complete), so a match
    resumed from its move log makes exactly the choices an uninterrupted one would. A search
    level (`needs_state`) needs ``state``: the match's state, which it reads only through
    `State.indistinguishable` and the seat's own observation.
    """
    if needs_state(name):
        if state is None:
            raise ValueError(f"built-in {name!r} decides from the match's state; none given")
        return search_choice(game, name, seed, seat, decision, state)
    rng = Rng(derive_seed(game.id, seed, "bot", seat, name, decision))
    return make_bot(game, name, rng).choose(observation, legal_moves)
