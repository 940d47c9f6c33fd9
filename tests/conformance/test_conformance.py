"""Every registered game, every player count and variant, held to the interface's promises."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import all_games
from games.bots import GENERIC_BOTS, make_bot, observing_bots
from games.errors import (
    IllegalMove,
    MalformedMove,
    MoveError,
    NotYourTurn,
    OptionError,
    PlayerCountError,
)
from games.interface import Game, Outcome, State, rank_by_keys, sort_keys
from games.play import Request, replay, step
from games.rng import Rng, derive_seed
from games.values import to_plain


def _label(variant: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in variant.items()) or "standard"


CASES = [
    pytest.param(game, players, variant, id=f"{game.id}-{players}p-{_label(variant)}")
    for game in all_games()
    for players in game.player_counts
    for variant in game.variants()
]

HEAVY_EVERY = 7
"""Clone-based checks (refusals, twins) run on every 7th decision to keep the suite quick."""

MALFORMED: tuple[object, ...] = (None, 42, "play", object(), ("slot", 1), {"kind": "nope"})

playout_settings = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def check_outcome(outcome: Outcome | None, players: int) -> None:
    assert outcome is not None
    assert len(outcome.scores) == len(outcome.ranks) == players
    assert all(isinstance(s, int) for s in outcome.scores)
    for tb in outcome.tiebreaks:
        assert len(tb.values) == players
    assert outcome.ranks == rank_by_keys(sort_keys(outcome.scores, outcome.tiebreaks))
    assert min(outcome.ranks) == 1
    assert max(outcome.ranks) <= players
    json.dumps(to_plain(outcome))


def check_refusals(state: State, seen: list[Any]) -> None:
    """Wrong seat, malformed and illegal moves all raise typed errors and change nothing."""
    snapshot = state.clone()
    movers = state.to_move()
    for seat in range(state.players):
        if seat not in movers:
            assert state.legal_moves(seat) == ()
            if seen:
                with pytest.raises(NotYourTurn):
                    state.apply(seat, seen[-1])
    seat = movers[0]
    legal = set(state.legal_moves(seat))
    for junk in MALFORMED:
        with pytest.raises(MalformedMove):
            state.apply(seat, junk)
    for move in seen:
        if move not in legal:
            with pytest.raises(IllegalMove):
                state.apply(seat, move)
            break
    assert state == snapshot


APPLY_SAMPLE = 48
"""Longer legal-move lists (every film of a catalog) are checked on a random sample this big."""


def check_every_legal_move_applies(state: State, rng: Rng) -> None:
    for seat in state.to_move():
        legal = state.legal_moves(seat)
        if len(legal) > APPLY_SAMPLE:
            picks = (rng.below(len(legal)) for _ in range(APPLY_SAMPLE - 2))
            legal = (legal[0], legal[-1], *(legal[i] for i in picks))
        for move in legal:
            state.clone().apply(seat, move)


def check_twins(state: State, rng: Rng, private: bool = True) -> bool:
    """Hidden information re-drawn: each seat's observation and legal moves are unchanged.

    Returns whether some twin really differed for another seat (the check was not vacuous);
    for a game without private information, whether some twin re-drew hidden chance (a deck
    order), not counting the fresh generator every twin gets.
    """
    changed = False
    for seat in range(state.players):
        twin = state.indistinguishable(seat, rng)
        assert twin.observe(seat) == state.observe(seat)
        assert twin.legal_moves(seat) == state.legal_moves(seat)
        assert twin.spectate() == state.spectate()
        if private:
            others = [o for o in range(state.players) if o != seat]
            changed |= any(twin.observe(o) != state.observe(o) for o in others)
        else:
            changed |= _without_generators(twin) != _without_generators(state)
    return changed


def check_answer_stays_private(state: State, waiting: list[Request]) -> None:
    """In a simultaneous step, an applied answer changes nothing the seats still to answer
    see or may do: none of their requests can carry it."""
    for request in waiting:
        assert request.seat in state.to_move()
        assert state.observe(request.seat) == request.observation
        assert state.legal_moves(request.seat) == request.legal


def _without_generators(state: State) -> dict[str, Any]:
    """A state's fields minus its generators (a twin always gets a fresh one)."""
    return {k: v for k, v in vars(state).items() if not isinstance(v, Rng)}


@pytest.mark.parametrize(("game", "players", "variant"), CASES)
@playout_settings
@given(seed=st.integers(min_value=0, max_value=2**63), bot_mix=st.integers(0, 2**16))
def test_random_playouts_keep_every_promise(
    game: Game, players: int, variant: dict[str, Any], seed: int, bot_mix: int
) -> None:
    names = observing_bots(game)
    bots = [
        make_bot(game, names[(bot_mix >> seat) % len(names)], Rng(derive_seed(seed, seat)))
        for seat in range(players)
    ]
    rng = Rng(derive_seed("conformance", seed))
    state = game.new(players, seed, variant)
    assert state == game.new(players, seed, variant)
    bound = game.max_decisions(players, variant)
    moves: list[tuple[int, Any]] = []
    seen: list[Any] = []
    encoded: set[Any] = set()
    twins_changed = False
    while not state.is_over():
        assert len(moves) < bound, "the match ran past the game's declared bound"
        movers = state.to_move()
        assert len(set(movers)) == len(movers)
        for seat in movers:
            legal = state.legal_moves(seat)
            assert legal, f"seat {seat} is to move but has no legal move"
            for move in legal:
                if move not in encoded:
                    assert game.decode_move(json.loads(json.dumps(game.encode_move(move)))) == move
                    encoded.add(move)
        heavy = len(moves) % HEAVY_EVERY == 0
        if heavy:
            check_refusals(state, seen)
            check_every_legal_move_applies(state, rng)
            twins_changed |= check_twins(state, rng, game.private_information)
        asked = step(state)
        answers = []
        for request in asked:
            if heavy:
                json.dumps(to_plain(request.observation))
            move = bots[request.seat].choose(request.observation, request.legal)
            assert move in request.legal
            seen.extend(request.legal)
            answers.append(move)
        for k, (request, move) in enumerate(zip(asked, answers, strict=True)):
            state.apply(request.seat, move)
            moves.append((request.seat, move))
            check_answer_stays_private(state, asked[k + 1 :])
    assert state.legal_moves(0) == ()
    check_outcome(state.outcome(), players)
    assert twins_changed, "indistinguishable() never re-dealt anything another seat could see"
    replayed = replay(game, players, seed, moves, variant)
    assert replayed == state
    assert replayed.outcome() == state.outcome()


@pytest.mark.parametrize(("game", "players", "variant"), CASES)
def test_seeds_give_different_matches(game: Game, players: int, variant: dict[str, Any]) -> None:
    views = {json.dumps(to_plain(game.new(players, s, variant).spectate())) for s in range(5)}
    views |= {json.dumps(to_plain(game.new(players, s, variant).observe(0))) for s in range(5)}
    assert len(views) > 2


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_options_and_player_counts_are_checked(game: Game) -> None:
    with pytest.raises(PlayerCountError):
        game.new(max(game.player_counts) + 1, 1)
    with pytest.raises(OptionError):
        game.new(game.player_counts[0], 1, {"no-such-option": True})


PROPERTY_SEEDS = 2
PROPERTY_POSITIONS = 10
"""Positions checked per match, spread over the whole match."""
PER_KIND = 12
"""Moves of each type drawn from the match's pool for each seat at each checked position."""


def _match_log(
    game: Game, players: int, variant: dict[str, Any], seed: int
) -> tuple[list[tuple[int, Any]], list[list[Any]]]:
    """A match of generic bots: its moves and, per decision, every seat's legal moves then."""
    names = tuple(GENERIC_BOTS)
    bots = [
        make_bot(game, names[(seed + s) % len(names)], Rng(derive_seed(seed, s)))
        for s in range(players)
    ]
    state = game.new(players, seed, variant)
    moves: list[tuple[int, Any]] = []
    legal_then: list[list[Any]] = []
    while not state.is_over():
        legal_then.append([m for s in range(players) for m in state.legal_moves(s)])
        asked = step(state)
        answers = [bots[a.seat].choose(a.observation, a.legal) for a in asked]
        for request, move in zip(asked, answers, strict=True):
            state.apply(request.seat, move)
            moves.append((request.seat, move))
    return moves, legal_then


def _distinct(moves: Iterable[Any]) -> list[Any]:
    found: dict[Any, None] = {}
    for move in moves:
        found.setdefault(move, None)
    return list(found)


@pytest.mark.parametrize(("game", "players", "variant"), CASES)
def test_moves_of_other_seats_and_moments_are_refused(
    game: Game, players: int, variant: dict[str, Any]
) -> None:
    """Every move legal for another seat now, or for anyone at another point of the match (an
    earlier or later position, another phase), is refused with `MoveError` unless it is in
    `legal_moves(seat)` now, and leaves the state as it was; `is_legal` is that membership."""
    for seed in range(PROPERTY_SEEDS):
        moves, legal_then = _match_log(game, players, variant, seed)
        by_kind: dict[type, list[Any]] = {}
        for move in _distinct(m for legal in legal_then for m in legal):
            by_kind.setdefault(type(move), []).append(move)
        stride = max(1, len(legal_then) // PROPERTY_POSITIONS)
        checked = range(0, len(legal_then), stride)
        rng = Rng(derive_seed("conformance-property", game.id, seed))
        state = game.new(players, seed, variant)
        refused = 0
        for decision, (seat_moved, move_made) in enumerate(moves):
            if decision in checked:
                nearby = [
                    m
                    for k in (decision - 1, decision + 1)
                    if 0 <= k < len(legal_then)
                    for m in legal_then[k]
                ]
                drawn = [rng.choice(pool) for pool in by_kind.values() for _ in range(PER_KIND)]
                candidates = _distinct([*legal_then[decision], *nearby, *drawn])
                snapshot = state.clone()
                for seat in range(players):
                    legal = state.legal_moves(seat)
                    for move in candidates:
                        inside = move in legal
                        assert state.is_legal(seat, move) == inside, (seat, move)
                        if not inside:
                            with pytest.raises(MoveError):
                                state.apply(seat, move)
                            refused += 1
                assert state == snapshot
            state.apply(seat_moved, move_made)
        assert refused, "no move from elsewhere in the match was tried"
