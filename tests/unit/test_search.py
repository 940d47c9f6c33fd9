"""The search player: legal, deterministic per match seed and decision, leaves the real state
alone, and beats random play."""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

import pytest

from games import all_games, get
from games.bots import bot_names, builtin_choice
from games.interface import Game, Options, State
from games.play import play_match
from games.rng import Rng, derive_seed
from games.search import LEVELS, SearchPlayer, Tuning, search_choice


def expected(game: Game) -> ModuleType:
    """What these tests expect of one game in particular, kept with its own tests:
    tests/<game>/expected.py."""
    return import_module(f"tests.{type(game).__module__.split('.')[1]}.expected")


PLAYOUTS = 12
"""Enough to exercise the tree (expansion, selection, several determinisations) quickly."""


def first_real_decision(game: Game, players: int, options: Options) -> tuple[State, int]:
    state = game.new(players, "search", options)
    while True:
        seat = max(state.to_move())
        if len(state.legal_moves(seat)) > 1:
            return state, seat
        state.apply(seat, state.legal_moves(seat)[0])


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_a_legal_choice_the_same_for_the_same_seed_and_decision(game: Game) -> None:
    players = max(min(game.player_counts), 2)
    for options in game.golden_variants():
        state, seat = first_real_decision(game, players, options)
        before = state.clone()
        choices = [
            SearchPlayer(Rng(b"same seed and decision"), PLAYOUTS).choose_in(state, seat)
            for _ in range(2)
        ]
        assert choices[0] == choices[1]
        assert choices[0] in state.legal_moves(seat)
        assert state == before, "searching leaves the real state alone"


def test_search_levels_are_builtins_of_play_match() -> None:
    """One match: that the same seed and decision give the same choice is the tests above."""
    game = get("movie-fight")
    record = play_match(game, 2, "search level", ["search:100", "random"])
    assert record.illegal == 0 and record.outcome is not None
    assert set(LEVELS) == {"search:100", "search:1000"}


GUARD_MATCHES = 1


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_search_100_beats_random_seats(game: Game) -> None:
    """A guard, not a strength measurement (that is `bench.search`): at the smallest table of
    two or more, ``search:100`` in a rotating seat finishes first against random seats."""
    players = min(n for n in game.player_counts if n >= 2)
    for index in range(GUARD_MATCHES):
        seat = index % players
        bots = ["random"] * players
        bots[seat] = "search:100"
        options: Options | None = getattr(expected(game), "GUARD_OPTIONS", None)
        outcome = play_match(game, players, f"guard/{index}", bots, options).outcome
        assert outcome.ranks[seat] == 1, (index, outcome.scores)


def test_search_choice_is_seeded_by_match_and_decision() -> None:
    game = get("movie-tricks")
    state, seat = first_real_decision(game, 3, {})
    move = search_choice(game, "search:100", "match", seat, 7, state)
    assert move == search_choice(game, "search:100", "match", seat, 7, state)
    assert move in state.legal_moves(seat)


def test_search_levels_are_built_ins_that_decide_from_the_state() -> None:
    game = get("movie-fight")
    assert all(set(LEVELS) <= set(bot_names(g)) for g in all_games())
    state, seat = first_real_decision(game, 2, {})
    observation, legal = state.observe(seat), state.legal_moves(seat)
    with pytest.raises(ValueError, match="state"):
        builtin_choice(game, "search:100", "s", seat, 3, observation, legal)
    move = builtin_choice(game, "search:100", "s", seat, 3, observation, legal, state)
    assert move == search_choice(game, "search:100", "s", seat, 3, state) and move in legal


def pinned(game: Game) -> dict[int, dict[str, object]]:
    """The game's pinned search choices (``SEARCH_PINNED`` in its `expected`)."""
    pins: dict[int, dict[str, object]] = expected(game).SEARCH_PINNED
    return pins


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_search_choices_are_pinned(game: Game) -> None:
    """search:100 chooses as it did when its choices were pinned (`pinned`)."""
    pins = pinned(game)
    players = min(n for n in game.player_counts if n >= 2)
    options = game.golden_variants()[-1]
    state = game.new(players, "pinned", options)
    walk = Rng(derive_seed("pinned-walk", game.id))
    index = 0
    while not state.is_over():
        seat = state.to_move()[0]
        legal = state.legal_moves(seat)
        if len(legal) > 1:
            if index in pins:
                move = search_choice(game, "search:100", "pinned", seat, index, state)
                assert game.encode_move(move) == pins[index], index
            index += 1
        state.apply(seat, walk.choice(legal))
    assert index > max(pins)


def test_a_horizon_stops_playouts_at_the_games_estimate(monkeypatch: pytest.MonkeyPatch) -> None:
    """With `Tuning.horizon` a playout is scored by `Game.estimate` (Movie Fight has one);
    without, every playout is played to the end and the estimate is never asked."""
    game = get("movie-fight")
    calls = 0
    original = type(game).estimate

    def counted(self: Game, state: State) -> tuple[float, ...] | None:
        nonlocal calls
        calls += 1
        return original(self, state)

    monkeypatch.setattr(type(game), "estimate", counted)
    state, seat = first_real_decision(game, 2, {})
    SearchPlayer(Rng(b"horizon"), PLAYOUTS, estimate=game.estimate).choose_in(state, seat)
    assert calls == 0
    cut = Tuning(horizon=2)
    move = SearchPlayer(Rng(b"horizon"), PLAYOUTS, tuning=cut, estimate=game.estimate).choose_in(
        state, seat
    )
    assert calls >= PLAYOUTS and move in state.legal_moves(seat)
    assert move == SearchPlayer(
        Rng(b"horizon"), PLAYOUTS, tuning=cut, estimate=game.estimate
    ).choose_in(state, seat)


def test_an_estimate_ranks_and_spreads_the_seats_results() -> None:
    player = SearchPlayer(Rng(b"estimate"), PLAYOUTS)
    ahead, behind = player._estimated((30.0, 20.0))
    assert 1.0 >= ahead > 0.5 > behind >= 0.0
    first, second, third = player._estimated((30.0, 25.0, 10.0))
    assert first > second > third


def test_the_search_weighs_only_plausible_moves() -> None:
    """Movie Trailer: a Spectator's search names only films the board still allows (or
    passes), not any of some 300 films."""
    game = get("movie-trailer")
    state = game.new(3, "plausible", {"rounds": 1})
    walk = Rng(b"walk")
    while state.phase != "guess":  # type: ignore[attr-defined]
        seat = state.to_move()[0]
        state.apply(seat, walk.choice(state.legal_moves(seat)))
    seat = state.to_move()[0]
    plausible = state.plausible_moves(seat)
    assert len(plausible) < len(state.legal_moves(seat))
    for index in range(3):
        move = SearchPlayer(Rng(b"plausible%d" % index), 40).choose_in(state, seat)
        assert move in plausible
