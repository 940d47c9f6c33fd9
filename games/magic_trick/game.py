"""Magic Trick, the game: its rules (`state`), its moves in words (`notation`) and its heuristic
bot, gathered for the registry, with what the rest of the house needs to know of it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from games.interface import (
    Game,
    Labels,
    Options,
    OptionSpec,
    OptionValue,
    ScoreBreakdown,
    State,
    Viewer,
)
from games.levels import Rollouts, Tuning
from games.magic_trick import notation as _notation
from games.magic_trick.cards import HAND_SIZE
from games.magic_trick.data import describe
from games.magic_trick.heuristic import HeuristicBot
from games.magic_trick.moves import MOVE_TYPES
from games.magic_trick.state import MagicTrickState
from games.rng import Rng


class MagicTrick(Game):
    id: ClassVar[str] = "magic-trick"
    title: ClassVar[str] = "Magic Trick"
    player_counts: ClassVar[tuple[int, ...]] = (3, 4, 5)
    options: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "prestige",
            True,
            (True, False),
            "Score the prestige bonus (+2 for a met bid whose rank equals the suits taken).",
        ),
    )
    move_types: ClassVar[tuple[type[Any], ...]] = MOVE_TYPES
    search_levels: ClassVar[Mapping[str, Tuning | Rollouts]] = {
        "search:100": Tuning(prior_visits=15, margin=0.5),
    }
    """At search:100 a lighter prior (15 virtual playouts) and half the result from the score
    margin beat the default tree search against the heuristic (docs/ratings.md)."""
    openspiel_peer: ClassVar[str | None] = "oh_hell"

    def _new(self, players: int, rng: Rng, options: Mapping[str, OptionValue]) -> State:
        return MagicTrickState(players, rng, bool(options["prestige"]))

    def max_decisions(self, players: int, options: Options | None = None) -> int:
        size = HAND_SIZE[players]
        per_hand = players * (size + (size - 1) + (size - 2))
        return players * per_hand

    def describe(self, before: State, seat: int, move: Any, viewer: Viewer) -> str:
        assert isinstance(before, MagicTrickState)
        return _notation.describe(before, seat, move, viewer)

    def group(self, before: State) -> str:
        assert isinstance(before, MagicTrickState)
        return _notation.group(before)

    def labels(self) -> Labels:
        return _notation.labels()

    def names_in(self, view: Any) -> frozenset[str]:
        return _notation.names_in(view)

    def score_rules(self, players: int, options: Options | None = None) -> str:
        return _notation.score_rules(bool(self.resolve_options(options)["prestige"]))

    def explain_score(self, final: State) -> ScoreBreakdown:
        assert isinstance(final, MagicTrickState)
        return _notation.explain_score(final)

    def data(self) -> Mapping[str, Any]:
        return describe()

    def heuristic_bots(self) -> Mapping[str, Any]:
        return {"heuristic": HeuristicBot}
