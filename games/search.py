"""A search player for every game: determinised Monte Carlo tree search over what a seat may know.

Each playout draws a determinisation with `State.indistinguishable` (a state that differs from
the real one only in what the searching seat cannot know), walks one tree shared by all
determinisations (single-observer information-set MCTS: a node is a sequence of moves from
the decision, its children the moves seen legal there, selected by UCB among those legal in
this determinisation), adds one node, and finishes the match with uniformly random moves.
Every seat's result is its rank scaled to [0, 1]; each node is credited with the result of
the seat that moved into it.

The searcher reads the real state only through `indistinguishable`, so it knows no more than
its observation. In a simultaneous step (Magic Trick's sorting, Movie Trailer's speed game)
the answers of the other awaited seats are hidden from the searching seat, and each
determinisation re-draws them. The budget is playouts per decision; a seat with a single
legal move does not search.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.interface import Game, Outcome, State
from games.rng import Rng, Seed, derive_seed

LEVELS: dict[str, int] = {"search:100": 100, "search:1000": 1000}
"""Built-in names and their playouts per decision."""

EXPLORATION = 0.7
"""UCB's exploration constant for results in [0, 1]."""


@dataclass
class _Node:
    visits: int = 0
    total: float = 0.0
    available: int = 0
    children: dict[Any, _Node] = field(default_factory=dict)


def _results(outcome: Outcome) -> tuple[float, ...]:
    """Each seat's result in [0, 1]: its rank scaled, or alone against a reference player
    (Movie Fight's automa) 1 for a win, 1/2 for a draw."""
    players = len(outcome.ranks)
    if players > 1:
        return tuple((players - rank) / (players - 1) for rank in outcome.ranks)
    automa = outcome.detail.get("automa")
    result = automa.get("result") if isinstance(automa, dict) else "win"
    return ({"win": 1.0, "draw": 0.5}.get(str(result), 0.0),)


class SearchPlayer:
    """Determinised MCTS with a fixed number of playouts per decision."""

    def __init__(self, rng: Rng, playouts: int) -> None:
        self.rng = rng
        self.playouts = playouts

    def choose_in(self, state: State, seat: int) -> Any:
        legal = state.legal_moves(seat)
        if len(legal) == 1:
            return legal[0]
        root = _Node()
        for _ in range(self.playouts):
            self._playout(state.indistinguishable(seat, self.rng), seat, root)
        return max(
            legal, key=lambda move: root.children[move].visits if move in root.children else -1
        )

    def _playout(self, world: State, seat: int, root: _Node) -> None:
        rng = self.rng
        path: list[tuple[_Node, int]] = []
        node = root
        actor = seat
        expanded = False
        while not world.is_over():
            movers = world.to_move()
            if node is not root:
                actor = movers[0]
            legal = world.legal_moves(actor)
            if expanded:
                world.apply(actor, legal[rng.below(len(legal))])
                continue
            untried = [move for move in legal if move not in node.children]
            for move in legal:
                child = node.children.get(move)
                if child is not None:
                    child.available += 1
            if untried:
                move = untried[rng.below(len(untried))]
                child = node.children[move] = _Node(available=1)
                expanded = True
            else:
                move = max(legal, key=lambda m: _ucb(node.children[m]))
                child = node.children[move]
            world.apply(actor, move)
            path.append((child, actor))
            node = child
        outcome = world.outcome()
        assert outcome is not None
        results = _results(outcome)
        root.visits += 1
        for child, mover in path:
            child.visits += 1
            child.total += results[mover]


def _ucb(node: _Node) -> float:
    """Mean result plus exploration, counted against the playouts the move was available in."""
    if not node.visits:
        return math.inf
    return node.total / node.visits + EXPLORATION * math.sqrt(
        math.log(node.available) / node.visits
    )


def search_choice(game: Game, name: str, seed: Seed, seat: int, decision: int, state: State) -> Any:
    """One decision of a search built-in, seeded by (game, match seed, seat, name, decision)
    like every built-in, so a match resumed from its log makes the same choices."""
    rng = Rng(derive_seed(game.id, seed, "bot", seat, name, decision))
    return SearchPlayer(rng, LEVELS[name]).choose_in(state, seat)


def is_search(name: str) -> bool:
    return name in LEVELS


def search_names() -> Sequence[str]:
    return tuple(LEVELS)
