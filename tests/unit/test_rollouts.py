"""The heuristic's rollouts (`games.rollouts`): which candidate wins, and on what evidence.

A tiny game stands in for a real one (pure logic): seat 0 picks a box, seat 1 passes a few
times, and seat 0 scores its box's worth plus a bonus drawn in secret, which every
determinisation draws again."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from games import all_games
from games.interface import Game, Outcome, State
from games.movie_trailer.catalog import catalog
from games.movie_trailer.heuristic import rich_films
from games.movie_trailer.moves import ChooseFilm, PassGuess
from games.rng import Rng, derive_seed
from games.rollouts import RolloutPlayer, Rollouts
from games.search import heuristic_bot, search_choice

BOXES = ("a", "b", "c")
PASSES = 3


class Boxes(State):
    game_id = "boxes"
    move_types = (str,)

    def __init__(self, worth: dict[str, int], estimate: dict[str, int] | None = None) -> None:
        self.worth = worth
        self.estimated = estimate
        self.picked: str | None = None
        self.passes = 0
        self.bonus = 0

    @property
    def players(self) -> int:
        return 2

    def to_move(self) -> tuple[int, ...]:
        if self.picked is None:
            return (0,)
        return (1,) if self.passes < PASSES else ()

    def legal_moves(self, seat: int) -> tuple[Any, ...]:
        if seat not in self.to_move():
            return ()
        return BOXES if seat == 0 else ("pass",)

    def _apply(self, seat: int, move: Any) -> None:
        if seat == 0:
            self.picked = move
        else:
            self.passes += 1

    def observe(self, seat: int) -> Any:
        return (seat, self.picked, self.passes)

    def spectate(self) -> Any:
        return self.observe(-1)

    def current_scores(self) -> tuple[int, ...]:
        mine = self.worth[self.picked] + self.bonus if self.picked else 0
        return (mine, 5)

    def estimate(self) -> tuple[float, ...] | None:
        if self.estimated is None or self.picked is None:
            return None
        return (float(self.estimated[self.picked]), 5.0)

    def outcome(self) -> Outcome | None:
        return None if self.to_move() else Outcome.ranked(self.current_scores())

    def clone(self) -> Boxes:
        twin = Boxes(self.worth, self.estimated)
        twin.picked, twin.passes, twin.bonus = self.picked, self.passes, self.bonus
        return twin

    def indistinguishable(self, seat: int, rng: Rng) -> Boxes:
        twin = self.clone()
        twin.bonus = rng.below(3)
        return twin


class Greedy:
    """Picks box a and ranks the boxes in their printed order."""

    def choose(self, observation: Any, legal_moves: Sequence[Any]) -> Any:
        return "a" if "a" in legal_moves else legal_moves[0]

    def ranked(self, observation: Any, legal_moves: Sequence[Any]) -> list[Any]:
        return list(legal_moves)


def estimate(state: State) -> tuple[float, ...] | None:
    """The tiny game's estimate (`Game.estimate`)."""
    assert isinstance(state, Boxes)
    return state.estimate()


def choose(state: Boxes, candidates: int = 3, horizon: int | None = None) -> Any:
    budget = Rollouts(worlds=4, candidates=candidates, horizon=horizon)
    return RolloutPlayer(Rng(b"boxes"), Greedy(), budget, estimate).choose_in(state, 0)


def test_the_best_played_out_candidate_wins() -> None:
    assert choose(Boxes({"a": 4, "b": 6, "c": 9})) == "c"


def test_only_the_heuristics_best_few_are_candidates() -> None:
    """c, the best box, is third in the heuristic's order: with two candidates it is not
    weighed at all."""
    assert choose(Boxes({"a": 4, "b": 6, "c": 9}), candidates=2) == "b"


def test_the_heuristics_choice_wins_a_tie() -> None:
    assert choose(Boxes({"a": 7, "b": 7, "c": 7})) == "a"
    assert choose(Boxes({"a": 7, "b": 7, "c": 7}), candidates=1) == "a"


def test_a_horizon_scores_playouts_by_the_games_estimate() -> None:
    """The estimate favours b where the end favours c: with a horizon the estimate decides,
    with none the end does."""
    worth, estimate = {"a": 4, "b": 6, "c": 9}, {"a": 4, "b": 12, "c": 1}
    assert choose(Boxes(worth, estimate), horizon=0) == "b"
    assert choose(Boxes(worth, estimate), horizon=1) == "b"
    assert choose(Boxes(worth, estimate)) == "c"


def test_the_same_seed_chooses_the_same() -> None:
    state = Boxes({"a": 6, "b": 6, "c": 7})
    budget = Rollouts(worlds=2, candidates=3, horizon=None)
    choices = {RolloutPlayer(Rng(b"same"), Greedy(), budget).choose_in(state, 0) for _ in range(3)}
    assert len(choices) == 1


ROLLOUT_GAMES = [
    game
    for game in all_games()
    if any(isinstance(level, Rollouts) for level in game.search_levels.values())
]


@pytest.mark.parametrize("game", ROLLOUT_GAMES, ids=lambda g: g.id)
def test_the_heuristic_ranks_every_legal_move_its_choice_among_the_first(game: Game) -> None:
    """Along a seeded walk: `ranked` orders every legal move once, and the move `choose`
    picks is first, or as good as the first where the heuristic draws among equals (Movie
    Fight's ties, Movie Trailer's films), or second where `choose` passes on its likeliest
    film (Movie Trailer)."""
    players = min(n for n in game.player_counts if n >= 2)
    state = game.new(players, "ranked")
    walk = Rng(derive_seed("ranked-walk", game.id))
    bot = heuristic_bot(game, Rng(b"ranked"))
    checked = 0
    while not state.is_over():
        seat = state.to_move()[0]
        legal = state.legal_moves(seat)
        if len(legal) > 1:
            observation = state.observe(seat)
            ranked = bot.ranked(observation, legal)
            assert sorted(map(repr, ranked)) == sorted(map(repr, legal))
            choice = bot.choose(observation, legal)
            if hasattr(bot, "worths"):  # a heuristic that draws among moves of equal worth
                worths = dict(zip(map(repr, legal), bot.worths(observation, legal), strict=True))
                assert worths[repr(ranked[0])] == pytest.approx(worths[repr(choice)])
            elif isinstance(choice, ChooseFilm):
                rich = [catalog().film(m.film).index in rich_films() for m in ranked]
                assert rich[ranked.index(choice)] and rich == sorted(rich, reverse=True)
            elif isinstance(choice, PassGuess):
                assert ranked[1] == choice
            else:
                assert ranked[0] == choice
            checked += 1
        state.apply(seat, walk.choice(legal))
    assert checked > 20


def test_alone_against_the_automa_playouts_end_in_its_result() -> None:
    """Solo Movie Fight has no estimate and no other seat: playouts run to the automa's
    verdict, and the choice is a legal move made again for the same seed."""
    game = next(g for g in all_games() if g.id == "movie-fight")
    state = game.new(1, "solo")
    seat = state.to_move()[0]
    while len(state.legal_moves(seat)) == 1:
        state.apply(seat, state.legal_moves(seat)[0])
        seat = state.to_move()[0]
    move = search_choice(game, "search:100", "solo", seat, 0, state)
    assert move in state.legal_moves(seat)
    assert move == search_choice(game, "search:100", "solo", seat, 0, state)


def test_a_searching_directors_film_is_no_easier_to_guess() -> None:
    """The Director's heuristic draws its film at random among the rich ones; the rollouts
    weigh it against other rich films drawn at random too, never the same few (a Spectator
    who knew them would name them at once): twelve matches' first films are nearly all
    different."""
    game = next(g for g in all_games() if g.id == "movie-trailer")
    films = set()
    for index in range(12):
        state = game.new(3, f"films/{index}")
        seat = state.to_move()[0]
        films.add(search_choice(game, "search:100", f"films/{index}", seat, 0, state).film)
    assert len(films) >= 10
