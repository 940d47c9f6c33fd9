"""Movie Tricks, the game: its rules (`state`), its moves in words (`notation`) and its
heuristic bot, gathered for the registry, with what the rest of the house needs to know of it."""

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
from games.movie_tricks import notation as _notation
from games.movie_tricks.cards import DATA
from games.movie_tricks.data import describe
from games.movie_tricks.heuristic import HeuristicBot
from games.movie_tricks.moves import MOVE_TYPES
from games.movie_tricks.state import MovieTricksState, rounds_in_game
from games.rng import Rng


class MovieTricks(Game):
    id: ClassVar[str] = "movie-tricks"
    title: ClassVar[str] = "Movie Tricks"
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4, 5)
    options: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "family",
            False,
            (False, True),
            "Family variant: smaller bonus deck without a display, no props goals, and scoring "
            "by completed movies plus 2 points per symbol.",
        ),
    )
    move_types: ClassVar[tuple[type[Any], ...]] = MOVE_TYPES
    search_levels: ClassVar[Mapping[str, Tuning | Rollouts]] = {
        "search:100": Tuning(prior_visits=15, margin=0.5),
    }
    """At search:100 a lighter prior (15 virtual playouts) and half the result from the score
    margin beat the default tree search against the heuristic; at search:1000 it did no better,
    so that level keeps the defaults (docs/ratings.md)."""
    bench_players: ClassVar[int | None] = 3
    openspiel_peer: ClassVar[str | None] = "oh_hell"

    def _new(self, players: int, rng: Rng, options: Mapping[str, OptionValue]) -> State:
        return MovieTricksState(players, rng, bool(options["family"]))

    def max_decisions(self, players: int, options: Options | None = None) -> int:
        family = bool(self.resolve_options(options)["family"])
        setup = DATA.setup[players]
        cards_per_round = players * setup.plays
        per_round = 3 * cards_per_round + 3 * setup.bonus_picks
        return rounds_in_game(players, family) * per_round

    def describe(self, before: State, seat: int, move: Any, viewer: Viewer) -> str:
        assert isinstance(before, MovieTricksState)
        return _notation.describe(before, seat, move, viewer)

    def group(self, before: State) -> str:
        assert isinstance(before, MovieTricksState)
        return _notation.group(before)

    def labels(self) -> Labels:
        return _notation.labels()

    def names_in(self, view: Any) -> frozenset[str]:
        return _notation.names_in(view)

    def score_rules(self, players: int, options: Options | None = None) -> str:
        return _notation.score_rules(bool(self.resolve_options(options)["family"]))

    def explain_score(self, final: State) -> ScoreBreakdown:
        assert isinstance(final, MovieTricksState)
        return _notation.explain_score(final)

    def data(self) -> Mapping[str, Any]:
        return describe()

    def data_version(self) -> int:
        return DATA.version

    def heuristic_bots(self) -> Mapping[str, Any]:
        return {"heuristic": HeuristicBot}
