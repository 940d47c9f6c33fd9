"""A search that improves on a game's heuristic by playing its best few moves out with it.

The rollout algorithm of dynamic programming (Bertsekas; Tesauro and Galperin's backgammon
rollouts): the heuristic names its choice and its next best moves (`Ranked`), and each of those
candidates is played out by the heuristic itself, every seat reading its own observation, from
the same few determinisations (`State.indistinguishable`, so the searcher knows no more than its
seat). A playout stops after `Rollouts.horizon` moves at the first position the game estimates
(`Game.estimate`), or plays to the end. The candidate with the best mean result is chosen; the
heuristic's own choice wins a tie.

Where random playouts judge a move worse than the heuristic does (the games that declare this
search for a level, `Game.search_levels`; docs/ratings.md), tree search over them cannot beat
the heuristic it starts from, while this search compares the candidates by what the heuristic
would make of each, so it can only part from the heuristic's choice where the heuristic's own
play says another move ends better. Every candidate meets the same determinisations, and the
heuristic is deterministic but for its ties, so a comparison between two candidates is paired
and a few playouts decide it.

A playout's result is half the seat's rank, half its score margin over the others' mean mapped
to [0, 1] by (1 + tanh(margin / scale)) / 2, the scale being the mean absolute margin of the
decision's playouts (`games.search` scores its playouts the same way).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from games.interface import State
from games.levels import Rollouts
from games.rng import Rng


class Ranked(Protocol):
    """A heuristic bot that can order the legal moves, its choice's rivals best first."""

    def choose(self, observation: Any, legal_moves: Sequence[Any]) -> Any: ...

    def ranked(self, observation: Any, legal_moves: Sequence[Any]) -> list[Any]: ...


Estimate = Callable[[State], tuple[float, ...] | None]
"""A game's estimate of every seat's final score from a position (`Game.estimate`)."""


def no_estimate(state: State) -> None:
    """No estimate anywhere: every playout is played to the end."""
    return None


class RolloutPlayer:
    """Chooses among ``bot``'s best moves by playing each out with ``bot`` on shared
    determinisations drawn with ``rng``."""

    def __init__(
        self, rng: Rng, bot: Ranked, budget: Rollouts, estimate: Estimate = no_estimate
    ) -> None:
        self.rng = rng
        self.bot = bot
        self.budget = budget
        self.estimate = estimate

    def choose_in(self, state: State, seat: int) -> Any:
        legal = state.legal_moves(seat)
        if len(legal) == 1:
            return legal[0]
        candidates = self.candidates(state, seat, legal)
        if len(candidates) == 1:
            return candidates[0]
        scores: list[list[tuple[float, ...]]] = [[] for _ in candidates]
        for _ in range(self.budget.worlds):
            world = state.indistinguishable(seat, self.rng)
            for index, move in enumerate(candidates):
                playout = world.clone()
                playout._apply(seat, move)
                scores[index].append(self._play_out(playout))
        means = self._means(scores, seat)
        best = max(range(len(candidates)), key=lambda index: (means[index], -index))
        return candidates[best]

    def candidates(self, state: State, seat: int, legal: Sequence[Any]) -> list[Any]:
        """The heuristic's choice, then its next best moves, ``Rollouts.candidates`` in all."""
        observation = state.observe(seat)
        choice = self.bot.choose(observation, legal)
        rivals = [move for move in self.bot.ranked(observation, legal) if move != choice]
        return [choice, *rivals[: self.budget.candidates - 1]]

    def _play_out(self, world: State) -> tuple[float, ...]:
        """Every seat's final (or, past the horizon, estimated) score with the heuristic
        playing every seat."""
        horizon = self.budget.horizon
        left = horizon or 0
        choose = self.bot.choose
        while movers := world.to_move():
            if horizon is not None and left <= 0:
                estimate = self.estimate(world)
                if estimate is not None:
                    return estimate
            left -= 1
            actor = movers[0]
            legal = world.legal_moves(actor)
            move = legal[0] if len(legal) == 1 else choose(world.observe(actor), legal)
            world._apply(actor, move)
        outcome = world.outcome()
        assert outcome is not None
        if world.players == 1:
            return (solo_result(outcome.detail),)
        return tuple(float(score) for score in outcome.scores)

    def _means(self, scores: list[list[tuple[float, ...]]], seat: int) -> list[float]:
        """Each candidate's mean result for ``seat`` (the rank and margin mix above)."""
        if len(scores[0][0]) == 1:
            return [sum(result[0] for result in results) / len(results) for results in scores]
        overs = [margins(result)[seat] for results in scores for result in results]
        scale = max(sum(abs(over) for over in overs) / len(overs), 1e-6)
        weight = self.budget.margin
        return [
            sum(
                (1 - weight) * _rank(result, seat)
                + weight * 0.5 * (1 + math.tanh(margins(result)[seat] / scale))
                for result in results
            )
            / len(results)
            for results in scores
        ]


def margins(scores: Sequence[float]) -> tuple[float, ...]:
    """Each seat's score over the mean of the others' (two seats or more)."""
    total = sum(scores)
    others = len(scores) - 1
    return tuple(score - (total - score) / others for score in scores)


def _rank(scores: tuple[float, ...], seat: int) -> float:
    """The seat's place among the others scaled to [0, 1], a tie counting half."""
    mine = scores[seat]
    beaten = sum(1.0 if other < mine else 0.5 if other == mine else 0.0 for other in scores)
    return (beaten - 0.5) / (len(scores) - 1)


def solo_result(detail: Mapping[str, Any]) -> float:
    """Alone against a reference player (a solo game's automa): 1 a win, 1/2 a draw."""
    automa = detail.get("automa")
    result = automa.get("result") if isinstance(automa, dict) else "win"
    return {"win": 1.0, "draw": 0.5}.get(str(result), 0.0)
