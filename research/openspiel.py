"""Every Premiere game as an OpenSpiel Python game, at every table size it is played at.

``import research.openspiel`` registers ``premiere_<game id with underscores>`` for each game
of the registry, so ``pyspiel.load_game("premiere_movie_tricks(players=3)")`` is a three-seat
Movie Tricks; the game's options are parameters too (``family=True``), and ``seed`` numbers
the sequence of deals its initial states draw (every `new_initial_state` is the next match).

Chance stays inside the engine (sampled stochastic: no chance nodes; a state's clone keeps its
generator). Actions are the game's fixed universe (`research.actions`). Simultaneous steps are
served in turn (`research.table`). Strings are the game's own words: an observation string is
the seat's view as plain values, an information-state string adds every move as the game told
it to that seat. Tensors are `research.encoding`'s vectors of the same. Returns are by rank:
each seat scores +1 for every seat it finished ahead of and -1 for every seat ahead of it,
divided by the number of other seats (a one-seat game against a reference player: +1 win,
-1 loss, 0 tie).
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from games import registry
from games.interface import Game, OptionValue
from games.rng import Rng
from games.values import to_plain
from research import encoding
from research.actions import ActionSpace, action_space
from research.scoring import utilities
from research.table import Table

PREFIX = "premiere_"
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def short_name(game: Game) -> str:
    return PREFIX + game.id.replace("-", "_")


_strings: dict[int, tuple[Any, str]] = {}


def view_string(view: Any) -> str:
    """A seat's view as an observation string: its plain values, as sorted JSON (remembered
    for the last views met, by identity: views are immutable)."""
    found = _strings.get(id(view))
    if found is not None and found[0] is view:
        return found[1]
    text = json.dumps(to_plain(view), sort_keys=True)
    if len(_strings) >= 1 << 10:
        _strings.clear()
    _strings[id(view)] = (view, text)
    return text


class PremiereObserver:
    """OpenSpiel's Python observer: a seat's observation, with or without its recall."""

    def __init__(self, recall: bool, size: int) -> None:
        self.recall = recall
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: PremiereState, player: int) -> None:
        told = state.table.told[player] if self.recall else ()
        self.tensor[:] = encoding.encode(state.view(player), len(self.tensor), told)

    def string_from(self, state: PremiereState, player: int) -> str:
        view = view_string(state.view(player))
        if not self.recall:
            return view
        return "\n".join((*state.table.told[player], view))


class PremiereGame(pyspiel.Game):  # type: ignore[misc]
    """One Premiere game at one table size, with its options."""

    engine: Game

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        registered = _GAME_TYPES[self.engine.id]
        given = {**registered.parameter_specification, **params}
        self.players = int(given["players"])
        if self.players not in self.engine.player_counts:
            raise ValueError(
                f"{self.engine.id} is played by {self.engine.player_counts}, not {self.players}"
            )
        self.options: dict[str, OptionValue] = self.engine.resolve_options(
            {spec.name: given[spec.name] for spec in self.engine.options}
        )
        self.actions: ActionSpace = action_space(self.engine.id)
        self.seeds = random.Random(int(given["seed"]))
        self.tensor_size = int(given["tensor_size"])
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.actions),
            max_chance_outcomes=0,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if self.players > 1 else None,
            max_game_length=self.engine.max_decisions(self.players, self.options),
        )
        super().__init__(_game_type(self.engine, zero_sum=self.players > 1), info, params)

    def new_initial_state(self) -> PremiereState:
        seed = self.seeds.getrandbits(63)
        return PremiereState(self, Table.new(self.engine, self.players, seed, self.options))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> PremiereObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return PremiereObserver(recall, self.tensor_size)


class PremiereState(pyspiel.State):  # type: ignore[misc]
    """A match in progress; `table` is its engine state and held answers."""

    def __init__(self, game: PremiereGame, table: Table) -> None:
        super().__init__(game)
        self.table = table
        self.actions = game.actions
        self._player: int | None = None
        self._legal: list[int] | None = None
        self._views: dict[int, Any] = {}
        """The player asked now, its legal action ids and the seats' views, once asked (until
        the next action): OpenSpiel asks for them several times a decision."""

    def view(self, player: int) -> Any:
        """``player``'s view now (`State.observe`), made once per state."""
        found = self._views.get(player)
        if found is None:
            found = self._views[player] = self.table.observe(player)
        return found

    def current_player(self) -> int:
        player = self._player
        if player is None:
            seat = self.table.current()
            player = self._player = _TERMINAL if seat is None else seat
        return player

    def legal_actions(self, player: int | None = None) -> list[int]:
        """OpenSpiel's `legal_actions`, answered here for a Python caller (OpenSpiel's own
        answers through C++, which asks `current_player` and `_legal_actions` back): the
        player asked now has its legal actions, every other player none."""
        current = self.current_player()
        if current < 0 or (player is not None and player != current):
            return []
        return list(self._legal_actions(current))

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return self.actions.ids(self.table.legal_moves(player))
        if self._legal is None:
            self._legal = self.actions.ids(self.table.legal_moves(player))
        return self._legal

    def _apply_action(self, action: int) -> None:
        self._player = self._legal = None
        if self._views:
            self._views = {}
        self.table.play(self.actions.move(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.actions.text(action)

    def is_terminal(self) -> bool:
        return self.current_player() == _TERMINAL

    def returns(self) -> list[float]:
        outcome = self.table.outcome()
        if outcome is None:
            return [0.0] * self.table.players
        return utilities(outcome)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PremiereState:
        """A state ``player_id`` cannot tell from this one (for ISMCTS): its seed drawn from
        the sampler, the draw itself the engine's `State.indistinguishable`."""
        seed = int(probability_sampler() * 2**53)
        resampled = self.table.resample(player_id, Rng(seed.to_bytes(8, "little")))
        return PremiereState(self.get_game(), resampled)

    def clone(self) -> PremiereState:
        return PremiereState(self.get_game(), self.table.clone())

    def __str__(self) -> str:
        return json.dumps(to_plain(self.table.state.spectate()), sort_keys=True)


_GAME_TYPES: dict[str, Any] = {}


def register() -> None:
    """Register every game of the registry with OpenSpiel (done once, on import)."""
    for game in registry.all_games():
        name = short_name(game)
        if name in _GAME_TYPES or name in pyspiel.registered_names():
            continue
        game_type = _game_type(game, zero_sum=False)
        _GAME_TYPES[game.id] = game_type
        cls = type(
            f"Premiere{game.id.title().replace('-', '')}Game",
            (PremiereGame,),
            {"engine": game, "__doc__": f"{game.title} as an OpenSpiel game."},
        )
        pyspiel.register_game(game_type, cls)


def _game_type(game: Game, zero_sum: bool) -> Any:
    """The registered type is general-sum (a one-seat table is); a table of several seats
    declares itself zero-sum."""
    parameters: dict[str, Any] = {
        "players": min(game.player_counts),
        "seed": 0,
        "tensor_size": encoding.SIZE,
        **{spec.name: spec.default for spec in game.options},
    }
    Utility = pyspiel.GameType.Utility
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"Premiere {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=Utility.ZERO_SUM if zero_sum else Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(game.player_counts),
        min_num_players=min(game.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


register()
