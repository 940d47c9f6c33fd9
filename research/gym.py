"""One seat of a Premiere game as a Gymnasium environment, the other seats built-in bots.

The agent plays seat ``seat``; every other seat is a built-in (`games.bots`: ``random``,
``first``, ``last``, the game's heuristics, or a search level such as ``search:100``),
deciding as the arbiter's built-ins do, seeded by the match seed, the seat and the decision
number. An observation is the seat's view as `research.encoding`'s vector; the legal actions
over the game's fixed universe (`research.actions`) are ``info["action_mask"]`` and
`PremiereEnv.action_masks`. An action outside them ends the episode with reward -1 and the
flag ``info["illegal"]``; otherwise the reward is 0 until the end, then the seat's return by
rank (`research.scoring.utilities`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from games import registry
from games.bots import bot_names, builtin_choice
from games.interface import OptionValue
from games.values import to_plain
from research import encoding
from research.actions import action_space
from research.scoring import utilities
from research.table import Table

Observation = npt.NDArray[np.float32]


class PremiereEnv(gymnasium.Env[Observation, np.int64]):
    """A match of ``game`` at a table of ``players`` from ``seat``'s chair."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012  (Gymnasium declares it so)

    def __init__(
        self,
        game: str,
        players: int | None = None,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        options: dict[str, OptionValue] | None = None,
        render_mode: str | None = None,
        tensor_size: int = encoding.SIZE,
    ) -> None:
        self.game = registry.get(game)
        self.players = players if players is not None else min(self.game.player_counts)
        if self.players not in self.game.player_counts:
            raise ValueError(f"{game} is played by {self.game.player_counts}, not {self.players}")
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} at a table of {self.players}")
        self.seat = seat
        names = [opponents] * self.players if isinstance(opponents, str) else list(opponents)
        if len(names) != self.players - 1 and len(names) != self.players:
            raise ValueError("name one built-in for every other seat, or one for all")
        if len(names) == self.players - 1:
            names.insert(seat, "")
        known = bot_names(self.game)
        for other, name in enumerate(names):
            if other != seat and name not in known:
                raise ValueError(f"no built-in {name!r} for {game}; choose from {known}")
        self.opponents = names
        self.options = self.game.resolve_options(options)
        self.actions = action_space(self.game.id)
        self.tensor_size = tensor_size
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-np.inf, np.inf, shape=(tensor_size,), dtype=np.float32)
        self.action_space = spaces.Discrete(len(self.actions))
        self.table: Table | None = None
        self.match_seed = 0
        self.decisions = [0] * self.players

    def action_masks(self) -> npt.NDArray[np.int8]:
        """1 at the agent's legal actions now (the convention of masked-policy learners)."""
        assert self.table is not None
        mask = np.zeros(len(self.actions), dtype=np.int8)
        mask[self.actions.ids(self.table.legal_moves(self.seat))] = 1
        return mask

    def _observation(self) -> Observation:
        assert self.table is not None
        return encoding.encode(self.table.observe(self.seat), self.tensor_size)

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seed": self.match_seed, **extra}

    def _others(self) -> None:
        """Let the built-ins play until the agent is asked or the match ends."""
        table = self.table
        assert table is not None
        while (seat := table.current()) is not None and seat != self.seat:
            move = builtin_choice(
                self.game,
                self.opponents[seat],
                self.match_seed,
                seat,
                self.decisions[seat],
                table.observe(seat),
                table.legal_moves(seat),
                table.state,
            )
            self.decisions[seat] += 1
            table.play(move)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        self.match_seed = int(self.np_random.integers(2**63))
        self.table = Table.new(self.game, self.players, self.match_seed, self.options)
        self.table.tell = False
        self.decisions = [0] * self.players
        self._others()
        return self._observation(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        table = self.table
        assert table is not None
        if table.is_over():
            raise RuntimeError("the match is over: reset the environment")
        move = self.actions.move(int(action))
        if move not in table.legal_moves(self.seat):
            return self._observation(), -1.0, True, False, self._info(illegal=True)
        table.play(move)
        self.decisions[self.seat] += 1
        self._others()
        outcome = table.outcome()
        reward = utilities(outcome)[self.seat] if outcome is not None else 0.0
        return self._observation(), reward, outcome is not None, False, self._info()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.table is None:
            return None
        return json.dumps(to_plain(self.table.state.spectate()), sort_keys=True)
