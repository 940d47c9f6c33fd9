"""Every game's observations and moves cross the wire and come back unchanged."""

from __future__ import annotations

import pytest

from games import all_games
from games.errors import MalformedMove
from games.interface import Game
from games.rng import Rng, derive_seed
from premiere_wire import game_pb2
from premiere_wire.convert import build
from server.codec import (
    has_wire_messages,
    move_from_wire,
    move_to_wire,
    observation_to_wire,
    wire_field,
)


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_every_game_has_wire_messages(game: Game) -> None:
    assert has_wire_messages(game), f"add {game.id} to proto/premiere/v1/game.proto"


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
@pytest.mark.parametrize("seed", range(3))
def test_round_trip_through_protobuf(game: Game, seed: int) -> None:
    players = game.player_counts[seed % len(game.player_counts)]
    state = game.new(players, seed)
    rng = Rng(derive_seed("wire", seed))
    checked: set[object] = set()
    while not state.is_over():
        seat = state.to_move()[0]
        for observation in (state.observe(seat), state.spectate()):
            envelope = observation_to_wire(game, observation)
            wire = game_pb2.Observation.FromString(envelope.SerializeToString())
            assert build(type(observation), getattr(wire, wire_field(game.id))) == observation
        legal = state.legal_moves(seat)
        for move in set(legal) - checked:
            checked.add(move)
            wire_move = game_pb2.Move.FromString(move_to_wire(game, move).SerializeToString())
            assert move_from_wire(game, wire_move) == move
        state.apply(seat, rng.choice(legal))


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_empty_or_foreign_moves_are_malformed(game: Game) -> None:
    with pytest.raises(MalformedMove):
        move_from_wire(game, game_pb2.Move())
    typed = game_pb2.Move()
    getattr(typed, wire_field(game.id)).SetInParent()
    with pytest.raises(MalformedMove):
        move_from_wire(game, typed)
    others = [f.name for f in game_pb2.Move.DESCRIPTOR.fields if f.name != wire_field(game.id)]
    for other in others:
        foreign = game_pb2.Move()
        getattr(foreign, other).SetInParent()
        with pytest.raises(MalformedMove):
            move_from_wire(game, foreign)


def test_an_outcome_reaches_the_wire_from_its_stored_form() -> None:
    """One conversion for live matches, stored matches and the ladder's match lists."""
    from games.interface import Outcome, TieBreak
    from games.values import to_plain
    from premiere.outcome import outcome_to_wire

    outcome = Outcome.ranked(
        [5, 7, 7], [TieBreak("movies", (1, 2, 3), True)], detail={"x": 1}
    ).with_forfeits([0])
    message = outcome_to_wire(to_plain(outcome))  # type: ignore[arg-type]
    assert list(message.scores) == [5, 7, 7]
    assert list(message.ranks) == list(outcome.ranks) == [3, 2, 1]
    assert list(message.forfeited) == [0]
    (tiebreak,) = message.tiebreaks
    assert (tiebreak.name, list(tiebreak.values), tiebreak.higher_wins) == (
        "movies",
        [1, 2, 3],
        True,
    )
