"""Every Premiere game as a PettingZoo AEC environment.

Agents are ``player_0`` .. ``player_{n-1}``, one per seat. An observation is a dict: the
seat's view as `research.encoding`'s vector under ``observation`` and, under ``action_mask``,
a 0/1 vector over the game's fixed action universe (`research.actions`) marking the legal
moves (all zero when the agent is not asked). Simultaneous steps are served in turn, each
answer held unapplied until the step is complete (`research.table`). Rewards come at the end:
each seat's return by rank (`research.openspiel.utilities`).
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from games import registry
from games.interface import Game, OptionValue
from games.values import to_plain
from research import encoding
from research.actions import ActionSpace, action_space
from research.scoring import utilities
from research.table import Table


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class PremiereAEC(AECEnv):  # type: ignore[misc]
    """One game at one table size; ``render_mode="ansi"`` renders the spectator's view."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "premiere",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        players: int | None = None,
        options: dict[str, OptionValue] | None = None,
        render_mode: str | None = None,
        tensor_size: int = encoding.SIZE,
    ) -> None:
        super().__init__()
        self.game: Game = registry.get(game)
        self.players = players if players is not None else min(self.game.player_counts)
        if self.players not in self.game.player_counts:
            raise ValueError(f"{game} is played by {self.game.player_counts}, not {self.players}")
        self.options = self.game.resolve_options(options)
        self.actions: ActionSpace = action_space(self.game.id)
        self.tensor_size = tensor_size
        self.render_mode = render_mode
        self.possible_agents = [agent_name(seat) for seat in range(self.players)]
        self._seats = {agent_name(seat): seat for seat in range(self.players)}
        observation = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, shape=(tensor_size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(len(self.actions),), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(len(self.actions)))
        self.table: Table | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        match_seed = seed if seed is not None else int(np.random.SeedSequence().entropy % 2**63)  # type: ignore[operator]
        self.table = Table.new(self.game, self.players, match_seed, self.options)
        self.table.tell = False
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        assert self.table is not None
        seat = self.table.current()
        if seat is not None:
            self.agent_selection = agent_name(seat)

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        assert self.table is not None
        mask = np.zeros(len(self.actions), dtype=np.int8)
        mask[self.actions.ids(self.table.legal_moves(seat))] = 1
        return mask

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.table is not None
        seat = self._seats[agent]
        return {
            "observation": encoding.encode(self.table.observe(seat), self.tensor_size),
            "action_mask": self.mask(seat),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.table is not None and action is not None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.table.play(self.actions.move(int(action)))
        outcome = self.table.outcome()
        if outcome is not None:
            for seat, value in enumerate(utilities(outcome)):
                self.rewards[agent_name(seat)] = value
            self.terminations = dict.fromkeys(self.agents, True)
            next_seat = (self._seats[agent] + 1) % self.players
            self.agent_selection = agent_name(next_seat)
        else:
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.table is None:
            return None
        return json.dumps(to_plain(self.table.state.spectate()), sort_keys=True)

    def close(self) -> None:
        pass


def env(game: str, players: int | None = None, **kwargs: Any) -> PremiereAEC:
    return PremiereAEC(game, players, **kwargs)
