"""OpenSpiel policies and bots on the ladder: the same object trained or tuned in OpenSpiel
(`research.openspiel`, from ``pip install premiere[research]``) answers the arbiter.

Subclass `OpenSpielBot` and return, from `make_policy`, what decides for a seat of an
OpenSpiel game: an ``open_spiel.python.policy.Policy`` (its ``action_probabilities``;
sampled, or its most likely action with ``greedy = True``), an object with ``step(state)``
returning an action (OpenSpiel's bot interface), or any callable ``state -> action``.

Each request is turned into a `SeatState`: the OpenSpiel state as that seat sees it. The
request's observation is rebuilt as the engine's own view (the wire mirrors it field for
field), so its ``observation_tensor`` and ``observation_string`` are exactly those the game
gives in OpenSpiel, and its legal actions are the request's legal moves as ids of the game's
action universe. The wire carries what the seat sees now, not the game's account of every
earlier move, so a `SeatState` has no information-state string or tensor and cannot be
played forward: a policy that reads the observation plays here as it played in OpenSpiel;
a search that needs the whole state (ISMCTS, MCTS) cannot run from a request alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar

try:
    import numpy as np
    import pyspiel

    from games import registry
    from games.interface import Game, OptionValue, parse_option_value
    from research import openspiel as premiere_openspiel
    from research.actions import ActionSpace, action_space
    from research.encoding import encode
    from research.openspiel import PremiereGame
except ImportError as error:  # pragma: no cover - exercised without the extra installed
    raise ImportError(
        "premiere_bot.openspiel plays OpenSpiel policies on Premiere's engines: install them"
        " with `pip install 'premiere[research]'`"
    ) from error

from premiere_bot.bot import Bot, Decision
from premiere_wire import bot_gateway_pb2
from premiere_wire.convert import build


class SeatState:
    """One seat's decision as an OpenSpiel state reads it (see the module's documentation)."""

    def __init__(self, game: PremiereGame, seat: int, view: Any, legal: list[int]) -> None:
        self._game = game
        self._seat = seat
        self._view = view
        self._legal = legal

    def get_game(self) -> PremiereGame:
        return self._game

    def current_player(self) -> int:
        return self._seat

    def num_players(self) -> int:
        return int(self._game.num_players())

    def is_terminal(self) -> bool:
        return False

    def is_chance_node(self) -> bool:
        return False

    def is_simultaneous_node(self) -> bool:
        return False

    def is_player_node(self) -> bool:
        return True

    def legal_actions(self, player: int | None = None) -> list[int]:
        return list(self._legal) if player in (None, self._seat) else []

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        mask = [0] * self._game.num_distinct_actions()
        for action in self.legal_actions(player):
            mask[action] = 1
        return mask

    def _own(self, player: int | None) -> None:
        if player not in (None, self._seat):
            raise ValueError(f"seat {self._seat} cannot see what seat {player} sees")

    def observation_tensor(self, player: int | None = None) -> list[float]:
        self._own(player)
        return [float(x) for x in encode(self._view, self._game.tensor_size)]

    def observation_string(self, player: int | None = None) -> str:
        self._own(player)
        return premiere_openspiel.view_string(self._view)

    def information_state_string(self, player: int | None = None) -> str:
        raise NotImplementedError(
            "a request carries the seat's view, not the game's account of every earlier"
            " move: decide from observation_string / observation_tensor"
        )

    information_state_tensor = information_state_string

    def __str__(self) -> str:
        return self.observation_string()


class OpenSpielBot(Bot):
    """A bot whose decisions an OpenSpiel policy or bot makes (see the module's
    documentation); `make_policy` is called once per game, table size and options."""

    greedy: ClassVar[bool] = False
    """Play a policy's most likely action rather than a draw from its probabilities."""

    seed: ClassVar[int] = 0
    """Seeds the draws from policies' probabilities."""

    parameters: ClassVar[dict[str, int]] = {}
    """More parameters of the OpenSpiel game the policy was made for (``tensor_size``)."""

    def __init__(self) -> None:
        self._tables: dict[str, tuple[str, int, dict[str, OptionValue]]] = {}
        self._policies: dict[str, tuple[PremiereGame, Any]] = {}
        self._random = random.Random(self.seed)

    def make_policy(self, game: pyspiel.Game) -> Any:
        raise NotImplementedError("an OpenSpielBot returns its policy or bot from make_policy")

    def match_started(self, event: bot_gateway_pb2.MatchStarted) -> None:
        engine = registry.get(event.game)
        specs = {spec.name: spec for spec in engine.options}
        options = {
            name: parse_option_value(specs[name], text)
            for name, text in event.options.items()
            if name in specs
        }
        self._tables[event.match_id] = (event.game, event.players, options)

    def match_ended(self, event: bot_gateway_pb2.MatchEnded) -> None:
        self._tables.pop(event.match_id, None)

    def _policy(self, match_id: str, game_id: str) -> tuple[PremiereGame, Any]:
        engine = registry.get(game_id)
        _, players, options = self._tables.get(match_id, (game_id, 0, {}))
        players = players or min(engine.player_counts)
        key = repr((game_id, players, sorted(engine.resolve_options(options).items())))
        found = self._policies.get(key)
        if found is None:
            params = ",".join(
                f"{name}={value}"
                for name, value in {"players": players, **options, **self.parameters}.items()
            )
            game = pyspiel.load_game(f"{premiere_openspiel.short_name(engine)}({params})")
            found = self._policies[key] = (game, self.make_policy(game))
        return found

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Decision:
        game, policy = self._policy(request.match_id, request.game)
        engine = registry.get(request.game)
        space = action_space(engine.id)
        field = request.game.replace("-", "_")
        view = build(_view_class(engine), getattr(request.observation, field))
        moves = [_move(engine, legal) for legal in request.legal_moves]
        ids = [space.id(move) for move in moves]
        state = SeatState(game, request.seat, view, sorted(ids))
        action = self._choose(policy, state)
        return ids.index(action)

    def _choose(self, policy: Any, state: SeatState) -> int:
        if hasattr(policy, "action_probabilities"):
            probabilities = policy.action_probabilities(state, state.current_player())
            actions = [a for a in state.legal_actions() if probabilities.get(a, 0.0) > 0]
            if not actions:
                return state.legal_actions()[0]
            weights = [probabilities[a] for a in actions]
            if self.greedy:
                return actions[int(np.argmax(weights))]
            return self._random.choices(actions, weights)[0]
        if hasattr(policy, "step"):
            return int(policy.step(state))
        decide: Callable[[SeatState], int] = policy
        return int(decide(state))


_VIEWS: dict[str, type[Any]] = {}


def _view_class(engine: Game) -> type[Any]:
    """The class of the game's views, found from a state of the game."""
    found = _VIEWS.get(engine.id)
    if found is None:
        found = _VIEWS[engine.id] = type(engine.new(min(engine.player_counts), 0).observe(0))
    return found


def _move(engine: Game, message: Any) -> Any:
    typed = getattr(message, engine.id.replace("-", "_"))
    kind = typed.WhichOneof("kind")
    classes = {cls.kind.replace("-", "_"): cls for cls in engine.move_types}
    return build(classes[kind], getattr(typed, kind))


__all__ = ["ActionSpace", "OpenSpielBot", "SeatState"]
