"""Motion Pictures, the game: its rules (`state`), its moves in words (`notation`), its
heuristic bot and its estimate of a position (`evaluation`), gathered for the registry, with
what the rest of the house needs to know of it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from games.interface import Game, Labels, Options, OptionValue, ScoreBreakdown, State, Viewer
from games.levels import Rollouts, Tuning
from games.motion_pictures import notation as _notation
from games.motion_pictures.cards import DATA
from games.motion_pictures.data import describe
from games.motion_pictures.evaluation import estimate
from games.motion_pictures.heuristic import HeuristicBot
from games.motion_pictures.moves import MOVE_TYPES
from games.motion_pictures.state import RULES, MotionPicturesState
from games.rng import Rng


class MotionPictures(Game):
    id: ClassVar[str] = "motion-pictures"
    title: ClassVar[str] = "Motion Pictures"
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    move_types: ClassVar[tuple[type[Any], ...]] = MOVE_TYPES
    search_levels: ClassVar[Mapping[str, Tuning | Rollouts]] = {
        "search:100": Rollouts(worlds=4, candidates=4, horizon=8),
        "search:1000": Rollouts(worlds=12, candidates=4, horizon=16),
    }
    """The heuristic's rollouts: random playouts judge a move worse than the heuristic does
    here, and a tree search over them, scored by the estimate or not, was no better than the
    heuristic (docs/ratings.md)."""

    def _new(self, players: int, rng: Rng, options: Mapping[str, OptionValue]) -> State:
        return MotionPicturesState(players, rng)

    def max_decisions(self, players: int, options: Options | None = None) -> int:
        """Per turn at most one action, two discards, two fire choices and a refresh."""
        turns_per_era = RULES.era_rounds * players + 1
        return RULES.eras * turns_per_era * 6

    def describe(self, before: State, seat: int, move: Any, viewer: Viewer) -> str:
        assert isinstance(before, MotionPicturesState)
        return _notation.describe(before, seat, move, viewer)

    def group(self, before: State) -> str:
        assert isinstance(before, MotionPicturesState)
        return _notation.group(before)

    def labels(self) -> Labels:
        return _notation.labels()

    def names_in(self, view: Any) -> frozenset[str]:
        return _notation.names_in(view)

    def score_rules(self, players: int, options: Options | None = None) -> str:
        return _notation.score_rules()

    def explain_score(self, final: State) -> ScoreBreakdown:
        assert isinstance(final, MotionPicturesState)
        return _notation.explain_score(final)

    def data(self) -> Mapping[str, Any]:
        return describe()

    def data_version(self) -> int:
        return DATA.version

    def estimate(self, state: State) -> tuple[float, ...] | None:
        """The final scoring as things stand plus the worth of projects under way and of
        advanced filmmakers for the eras to come (`evaluation`)."""
        assert isinstance(state, MotionPicturesState)
        return estimate(state)

    def heuristic_bots(self) -> Mapping[str, Any]:
        return {"heuristic": HeuristicBot}
