"""Movie Trailer, the game: its rules (`state`), its moves in words (`notation`) and its
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
from games.movie_trailer import notation as _notation
from games.movie_trailer.catalog import catalog
from games.movie_trailer.data import describe
from games.movie_trailer.heuristic import HeuristicBot
from games.movie_trailer.moves import MOVE_TYPES
from games.movie_trailer.state import FILM, MAX_ROUNDS, SHORT, STANDARD, MovieTrailerState
from games.rng import Rng


class MovieTrailer(Game):
    id: ClassVar[str] = "movie-trailer"
    title: ClassVar[str] = "Movie Trailer"
    player_counts: ClassVar[tuple[int, ...]] = (3, 4, 5, 6, 7, 8)
    options: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("length", STANDARD, (STANDARD, SHORT), "Turns per the rulebook's table."),
        OptionSpec(
            "rounds",
            0,
            tuple(range(MAX_ROUNDS + 1)),
            "When not 0: play this many rounds (turns = rounds x players) instead of `length`.",
        ),
        OptionSpec("speed", False, (False, True), "Speed game: every Spectator guesses at once."),
    )
    move_types: ClassVar[tuple[type[Any], ...]] = MOVE_TYPES
    search_levels: ClassVar[Mapping[str, Tuning | Rollouts]] = {
        "search:100": Rollouts(worlds=4, candidates=4, horizon=0),
        "search:1000": Rollouts(worlds=24, candidates=6, horizon=0),
    }
    """The heuristic's rollouts, each playout cut at horizon 0: the end of the turn under way,
    where the estimate begins. A tree search stopped at the same estimates was as strong for a
    third of the CPU of one played out, and the rollouts beat both (docs/ratings.md)."""

    def _new(self, players: int, rng: Rng, options: Mapping[str, OptionValue]) -> State:
        return MovieTrailerState(players, rng, self.turns(players, options), bool(options["speed"]))

    def turns(self, players: int, options: Options) -> int:
        rounds = int(options.get("rounds", 0))
        if rounds:
            return rounds * players
        standard, short = catalog().lengths[players]
        return short if options.get("length", STANDARD) == SHORT else standard

    def variants(self) -> list[dict[str, OptionValue]]:
        """The standard game and the speed game, one round each (every seat directs once).

        Not the full product: ``length`` and ``rounds`` only change how many identical turns
        are played (tests/movie_trailer checks the turn counts), so the conformance suite stays
        quick.
        """
        return [
            {"length": SHORT, "rounds": 1, "speed": False},
            {"length": STANDARD, "rounds": 1, "speed": True},
        ]

    def golden_variants(self) -> list[dict[str, OptionValue]]:
        return [{"length": SHORT}, {"length": SHORT, "speed": True}]

    def max_decisions(self, players: int, options: Options | None = None) -> int:
        turns = self.turns(players, self.resolve_options(options))
        data = catalog()
        per_turn = 1 + len(data.slot_category) + 2 * len(data.scoring) * players
        return turns * per_turn

    def describe(self, before: State, seat: int, move: Any, viewer: Viewer) -> str:
        assert isinstance(before, MovieTrailerState)
        return _notation.describe(before, seat, move, viewer)

    def group(self, before: State) -> str:
        assert isinstance(before, MovieTrailerState)
        return _notation.group(before)

    def labels(self) -> Labels:
        return _notation.labels()

    def names_in(self, view: Any) -> frozenset[str]:
        return _notation.names_in(view)

    def score_rules(self, players: int, options: Options | None = None) -> str:
        return _notation.score_rules()

    def explain_score(self, final: State) -> ScoreBreakdown:
        assert isinstance(final, MovieTrailerState)
        return _notation.explain_score(final)

    def data(self) -> Mapping[str, Any]:
        return describe()

    def data_version(self) -> int:
        return catalog().version

    def estimate(self, state: State) -> tuple[float, ...] | None:
        """Between turns, the scores so far (every seat directs as often in the turns left);
        None while a turn is under way, whose points are still open."""
        assert isinstance(state, MovieTrailerState)
        if state.phase != FILM:
            return None
        return tuple(float(score) for score in state.scores)

    def heuristic_bots(self) -> Mapping[str, Any]:
        return {"heuristic": HeuristicBot}
