"""A search player for every game: determinised Monte Carlo tree search over what a seat may
know, below, or, where a game declares it for a level (`Game.search_levels`: the games whose
random playouts judge a move worse than their heuristic does), the heuristic's own rollouts
(`games.rollouts`).

Each playout takes a determinisation drawn with `State.indistinguishable` (a state that differs
from the real one only in what the searching seat cannot know), walks one tree shared by all
determinisations (single-observer information-set MCTS: a node is a sequence of moves from
the decision, its children the moves seen plausible there, selected by UCB among those
plausible in this determinisation), adds one node, and finishes the match with a rollout. The
moves weighed, in the tree and in rollouts, are `State.plausible_moves`: every legal move,
unless the game narrows them (a guess among hundreds of titles narrowed to those the board
allows, which 100 playouts could not even try once each). Every seat's result is its rank
scaled to [0, 1] (in some games half of it the seat's score margin instead, `Tuning.margin`);
each node is credited with the result of the seat that moved into it.

A rollout can stop short (`Tuning.horizon`): after that many moves, at the first position
where the game gives an estimate of the final scores (`Game.estimate`; None, the default,
plays on to the end), the playout's result is the estimate's rank and margin
(`Tuning.leaf_margin`). No tree-search level uses it now: the games with an estimate are
searched by the heuristic's rollouts, which stop at the same estimates, and an
estimate-scored tree search was no better there than the heuristic (docs/ratings.md).

The game's heuristic can guide the search twice, because uniformly random play says little about
a move in these games (an unguided search lost every match to the heuristic):

- progressive bias: at the root the heuristic's own choice (from the seat's real observation)
  starts with `Tuning.prior_visits` virtual playouts worth `Tuning.prior_result` each, so the
  search leaves it only for a move its playouts show to be better;
- rollouts: the first `GUIDED_PLIES` moves of each rollout can be the heuristic's (every seat
  reading its own observation of the determinisation), the rest uniformly random. Off: in
  short trials the prior alone did as well, and where the heuristic's play judges a move
  better than random play does, its rollouts (`games.rollouts`) are the search instead.

How far the heuristic's choice is trusted, and whether the score margin counts, is tuned per
game and level (`Game.search_levels`, each game's declaration giving its measurements).

Determinisations are drawn once per decision (`WORLDS` of them, fewer for a small budget) and
cloned for each playout: drawing one costs up to a few milliseconds in the trick-taking games,
a clone a few microseconds.

The searcher reads the real state only through `indistinguishable` and its own observation,
so it knows no more than that seat. In a simultaneous step (a sorting or guessing step where
several seats answer at once) the answers of the other awaited seats are hidden from the
searching seat, and each determinisation re-draws them. The budget is playouts per decision;
a seat with a single legal move does not search.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.interface import Game, Outcome, State
from games.levels import Rollouts, Tuning
from games.rng import Rng, Seed, derive_seed
from games.rollouts import Estimate, RolloutPlayer, margins, no_estimate, solo_result

LEVELS: dict[str, int] = {"search:100": 100, "search:1000": 1000}
"""Built-in names and their playouts per decision."""

EXPLORATION = 0.7
"""UCB's exploration constant for results in [0, 1]."""
WORLDS = 16
"""Determinisations drawn per decision, shared round-robin by the playouts."""
GUIDED_PLIES = 0
"""Rollout moves chosen by the game's heuristic before random play takes over."""


DEFAULT_TUNING = Tuning()
"""A level's tree search where its game declares nothing else (`Game.search_levels`: a
lighter prior or a margin where measured better, or the heuristic's rollouts instead)."""


Policy = Callable[[Any, Sequence[Any]], Any]
"""A bot's `choose`: (observation, legal moves) -> move."""


@dataclass
class _Node:
    visits: int = 0
    total: float = 0.0
    available: int = 0
    children: dict[Any, _Node] = field(default_factory=dict)


def _results(outcome: Outcome, margin: float = 0.0, scale: float = 0.0) -> tuple[float, ...]:
    """Each seat's result in [0, 1]: its rank scaled, or alone against a reference player
    (a solo game's automa) 1 for a win, 1/2 for a draw. With a ``margin`` weight and a
    ``scale``, that much of it is instead the seat's score margin over the others' mean,
    mapped to [0, 1] by (1 + tanh(margin / scale)) / 2."""
    players = len(outcome.ranks)
    if players > 1:
        ranks = tuple((players - rank) / (players - 1) for rank in outcome.ranks)
        if not margin or not scale:
            return ranks
        return tuple(
            (1 - margin) * rank + margin * 0.5 * (1 + math.tanh(over / scale))
            for rank, over in zip(ranks, margins(outcome.scores), strict=True)
        )
    return (solo_result(outcome.detail),)


class SearchPlayer:
    """Determinised MCTS with a fixed number of playouts per decision, guided by ``policy``
    (a game's heuristic) when one is given."""

    def __init__(
        self,
        rng: Rng,
        playouts: int,
        policy: Policy | None = None,
        tuning: Tuning = DEFAULT_TUNING,
        estimate: Estimate = no_estimate,
    ) -> None:
        self.rng = rng
        self.playouts = playouts
        self.policy = policy
        self.tuning = tuning
        self.estimate = estimate
        self._fast = random.Random(rng.fork("rollouts").below(1 << 63))
        """Rollouts draw many numbers; a seeded Mersenne Twister keeps them cheap and exact."""
        self._margin_sum = 0.0
        self._margin_playouts = 0
        """This decision's sum of mean absolute score margins, over its playouts (`_scale`)."""

    def choose_in(self, state: State, seat: int) -> Any:
        legal = state.legal_moves(seat)
        if len(legal) == 1:
            return legal[0]
        root = _Node()
        self._margin_sum, self._margin_playouts = 0.0, 0
        if self.policy is not None:
            guess = self.policy(state.observe(seat), legal)
            prior = self.tuning.prior_visits
            root.children[guess] = _Node(prior, prior * self.tuning.prior_result, prior)
        worlds = [
            state.indistinguishable(seat, self.rng) for _ in range(min(WORLDS, self.playouts))
        ]
        for index in range(self.playouts):
            self._playout(worlds[index % len(worlds)].clone(), seat, root)
        return max(
            legal, key=lambda move: root.children[move].visits if move in root.children else -1
        )

    def _playout(self, world: State, seat: int, root: _Node) -> None:
        path: list[tuple[_Node, int]] = []
        node = root
        actor = seat
        while movers := world.to_move():
            if node is not root:
                actor = movers[0]
            legal = world.plausible_moves(actor)
            children = node.children
            untried: list[Any] = []
            tried: list[_Node] = []
            for move in legal:  # one look-up per move: a legal move is tried or not
                child = children.get(move)
                if child is None:
                    untried.append(move)
                else:
                    child.available += 1
                    tried.append(child)
            if untried:
                move = untried[self._fast.randrange(len(untried))]
                child = children[move] = _Node(available=1)
                _play(world, actor, move)
                path.append((child, actor))
                break
            # Every legal move tried: ``tried`` lines up with ``legal``; the first best wins.
            move, child = max(zip(legal, tried, strict=True), key=_ucb_of)
            _play(world, actor, move)
            path.append((child, actor))
            node = child
        results = self._rollout(world)
        root.visits += 1
        for child, mover in path:
            child.visits += 1
            child.total += results[mover]

    def _scale(self, scores: Sequence[float]) -> float:
        """The mean absolute score margin (a seat's score over the others' mean) of this
        decision's playouts so far, this one included: the unit of `Tuning.margin`'s term."""
        if len(scores) < 2:
            return 0.0
        self._margin_sum += sum(abs(over) for over in margins(scores)) / len(scores)
        self._margin_playouts += 1
        return max(self._margin_sum / self._margin_playouts, 1e-6)

    def _rollout(self, world: State) -> tuple[float, ...]:
        """The rest of the match: the heuristic's moves first, then uniformly random ones;
        every seat's result (`_results`), or after `Tuning.horizon` moves, where the game
        estimates the final scores, its result by that estimate (`_estimated`).

        The innermost loop of the search, so written out flat: a random index is drawn as
        `random.Random.randrange` draws it (``getrandbits`` of its bit length until below the
        bound: the same numbers, without two calls of argument checks per move), and a move
        taken from the legal moves is applied without `State.apply` checking it again."""
        getrandbits = self._fast.getrandbits
        guided = GUIDED_PLIES if self.policy is not None else 0
        horizon = self.tuning.horizon
        players = world.players
        left = horizon or 0
        while movers := world.to_move():
            if left <= 0 and horizon is not None and players > 1:
                estimate = self.estimate(world)
                if estimate is not None:
                    return self._estimated(estimate)
            left -= 1
            actor = movers[0]
            legal = world.plausible_moves(actor)
            count = len(legal)
            if count == 1:
                move = legal[0]
            elif not count:  # an engine fault: never loop drawing below zero
                raise RuntimeError(f"{world.game_id}: seat {actor} is to move with no legal move")
            elif guided > 0 and self.policy is not None:
                guided -= 1
                move = self.policy(world.observe(actor), legal)
            else:
                bits = count.bit_length()
                index = getrandbits(bits)
                while index >= count:
                    index = getrandbits(bits)
                move = legal[index]
            world._apply(actor, move)
        outcome = world.outcome()
        assert outcome is not None
        margin = self.tuning.margin
        return _results(outcome, margin, self._scale(outcome.scores) if margin else 0.0)

    def _estimated(self, scores: Sequence[float]) -> tuple[float, ...]:
        """Every seat's result from estimated final scores (two seats or more): its rank by
        estimate scaled to [0, 1], `Tuning.leaf_margin` of it its estimated margin instead,
        mapped as `_results` maps a final margin."""
        players = len(scores)
        margin = self.tuning.leaf_margin
        ranks = [1 + sum(other > score for other in scores) for score in scores]
        scale = self._scale(scores)
        return tuple(
            (1 - margin) * (players - rank) / (players - 1)
            + margin * 0.5 * (1 + math.tanh(over / scale))
            for rank, over in zip(ranks, margins(scores), strict=True)
        )


def _play(world: State, seat: int, move: Any) -> None:
    """Apply a move the search took from ``world.legal_moves(seat)``: already known legal, so
    the engine's `_apply` is called without `State.apply`'s gate looking it up again."""
    world._apply(seat, move)


def _ucb_of(pair: tuple[Any, _Node]) -> float:
    return _ucb(pair[1])


def _ucb(node: _Node) -> float:
    """Mean result plus exploration, counted against the playouts the move was available in."""
    if not node.visits:
        return math.inf
    return node.total / node.visits + EXPLORATION * math.sqrt(
        math.log(node.available) / node.visits
    )


def heuristic_bot(game: Game, rng: Rng) -> Any:
    """The game's own heuristic bot (the first by name), or None if it has none."""
    factories = game.heuristic_bots()
    return factories[min(factories)](rng) if factories else None


def heuristic_policy(game: Game, rng: Rng) -> Policy | None:
    """The game's own heuristic bot's `choose`, or None if it has none."""
    bot = heuristic_bot(game, rng)
    if bot is None:
        return None
    choose: Policy = bot.choose
    return choose


def search_choice(game: Game, name: str, seed: Seed, seat: int, decision: int, state: State) -> Any:
    """One decision of a search built-in, seeded by (game, match seed, seat, name, decision)
    like every built-in, so a match resumed from its log makes the same choices."""
    rng = Rng(derive_seed(game.id, seed, "bot", seat, name, decision))
    declared = game.search_levels.get(name, DEFAULT_TUNING)
    if isinstance(declared, Rollouts):
        bot = heuristic_bot(game, rng.fork("heuristic"))
        return RolloutPlayer(rng, bot, declared, game.estimate).choose_in(state, seat)
    policy = heuristic_policy(game, rng.fork("heuristic"))
    return SearchPlayer(rng, LEVELS[name], policy, declared, game.estimate).choose_in(state, seat)


def is_search(name: str) -> bool:
    return name in LEVELS


def search_names() -> Sequence[str]:
    return tuple(LEVELS)
