"""Movie Fight, the game: its rules (`state`), its moves in words (`notation`), its heuristic
bot and its estimate of a position (`evaluation`), gathered for the registry, with what the
rest of the house needs to know of it."""

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
from games.movie_fight import notation as _notation
from games.movie_fight.cards import DATA
from games.movie_fight.data import describe
from games.movie_fight.evaluation import estimate
from games.movie_fight.heuristic import HeuristicBot
from games.movie_fight.moves import MOVE_TYPES
from games.movie_fight.state import LEVELS, SIDES, MovieFightState, automa_player
from games.rng import Rng


class MovieFight(Game):
    id: ClassVar[str] = "movie-fight"
    title: ClassVar[str] = "Movie Fight"
    player_counts: ClassVar[tuple[int, ...]] = (1, 2, 3, 4, 5)
    options: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("side", "A", SIDES, "Cinema tile side: A (20 points) or the harder B (25)."),
        OptionSpec("level", 1, LEVELS, "Solo only: the automa's level, 1 (15 points) to 4 (30)."),
    )
    move_types: ClassVar[tuple[type[Any], ...]] = MOVE_TYPES
    private_information: ClassVar[bool] = False
    reference_players: ClassVar[Mapping[str, float]] = {
        automa_player(1): 1200.0,
        automa_player(2): 1400.0,
        automa_player(3): 1600.0,
        automa_player(4): 1800.0,
    }
    search_levels: ClassVar[Mapping[str, Tuning | Rollouts]] = {
        "search:100": Rollouts(worlds=4, candidates=4, horizon=8),
        "search:1000": Rollouts(worlds=12, candidates=4, horizon=16),
    }
    """The heuristic's rollouts: random playouts judge a move worse than the heuristic does
    here, and a tree search over them, scored by the estimate or not, was no better than the
    heuristic, with a lighter prior far worse (docs/ratings.md)."""

    def _new(self, players: int, rng: Rng, options: Mapping[str, OptionValue]) -> State:
        return MovieFightState(players, rng, str(options["side"]), int(options["level"]))

    def max_decisions(self, players: int, options: Options | None = None) -> int:
        per_turn = 3 + max(players, 1)
        return DATA.rounds * (players * per_turn + (1 if players == 1 else 0))

    def variants(self) -> list[dict[str, OptionValue]]:
        """Both sides at every player count, and every automa level in solo: the level only
        matters with one player, so four variants cover every combination that differs."""
        return [
            {"side": side, "level": level}
            for side, level in (("A", 1), ("B", 2), ("A", 3), ("B", 4))
        ]

    def golden_player_counts(self) -> tuple[int, ...]:
        return (1, 4)

    def describe(self, before: State, seat: int, move: Any, viewer: Viewer) -> str:
        assert isinstance(before, MovieFightState)
        return _notation.describe(before, seat, move, viewer)

    def group(self, before: State) -> str:
        assert isinstance(before, MovieFightState)
        return _notation.group(before)

    def labels(self) -> Labels:
        return _notation.labels()

    def names_in(self, view: Any) -> frozenset[str]:
        return _notation.names_in(view)

    def score_rules(self, players: int, options: Options | None = None) -> str:
        return _notation.score_rules(solo=players == 1)

    def explain_score(self, final: State) -> ScoreBreakdown:
        assert isinstance(final, MovieFightState)
        return _notation.explain_score(final)

    def data(self) -> Mapping[str, Any]:
        return describe()

    def data_version(self) -> int:
        return DATA.version

    def estimate(self, state: State) -> tuple[float, ...] | None:
        """The score now plus the heuristic's hope for the cards to come (`evaluation`); None
        in the solo game, whose result is against the automa."""
        assert isinstance(state, MovieFightState)
        if state.solo:
            return None
        return estimate(state.current_scores(), state.cinemas, state.side)

    def heuristic_bots(self) -> Mapping[str, Any]:
        return {"heuristic": HeuristicBot}
