"""Every game's observations and moves cross the wire and come back unchanged."""

from __future__ import annotations

import pytest

from games import all_games
from games.errors import MalformedMove
from games.interface import Game
from games.rng import Rng, derive_seed
from premiere_bot.convert import build
from premiere_bot.wire import game_pb2
from server.codec import decode_move, encode_move, encode_observation, has_wire_messages, wire_field


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
            envelope = encode_observation(game, observation)
            wire = game_pb2.Observation.FromString(envelope.SerializeToString())
            assert build(type(observation), getattr(wire, wire_field(game.id))) == observation
        legal = state.legal_moves(seat)
        for move in set(legal) - checked:
            checked.add(move)
            wire_move = game_pb2.Move.FromString(encode_move(game, move).SerializeToString())
            assert decode_move(game, wire_move) == move
        state.apply(seat, rng.choice(legal))


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_empty_or_foreign_moves_are_malformed(game: Game) -> None:
    with pytest.raises(MalformedMove):
        decode_move(game, game_pb2.Move())
    typed = game_pb2.Move()
    getattr(typed, wire_field(game.id)).SetInParent()
    with pytest.raises(MalformedMove):
        decode_move(game, typed)
    others = [f.name for f in game_pb2.Move.DESCRIPTOR.fields if f.name != wire_field(game.id)]
    for other in others:
        foreign = game_pb2.Move()
        getattr(foreign, other).SetInParent()
        with pytest.raises(MalformedMove):
            decode_move(game, foreign)
