"""The precomputed wire encoders write exactly the messages the reflective `fill` builds, for
every game's observations and moves, and their identity memos never serve stale bytes."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from games import all_games
from games.interface import Game
from games.rng import Rng, derive_seed
from games.values import Interner
from premiere_wire import bot_gateway_pb2, game_pb2, magic_trick_pb2
from server.codec import (
    decision_request,
    move_bytes,
    move_to_wire,
    observation_bytes,
    observation_to_wire,
)
from server.encoder import encoder, varint


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_encoded_observations_and_moves_equal_the_filled_messages(game: Game) -> None:
    for players in sorted({min(game.player_counts), max(game.player_counts)}):
        for options in game.variants()[:2]:
            state = game.new(players, f"encoder/{players}", options)
            rng = Rng(derive_seed("encoder", players))
            while not state.is_over():
                answers = []
                for seat in state.to_move():
                    for view in (state.observe(seat), state.spectate()):
                        parsed = game_pb2.Observation.FromString(observation_bytes(game, view))
                        assert parsed == observation_to_wire(game, view)
                    legal = state.legal_moves(seat)
                    for move in legal:
                        assert game_pb2.Move.FromString(move_bytes(game, move)) == move_to_wire(
                            game, move
                        )
                    answers.append((seat, rng.choice(legal)))
                for seat, move in answers:
                    state.apply(seat, move)


def test_a_decision_request_carries_its_fields_observation_and_moves() -> None:
    game = next(g for g in all_games() if g.id == "magic-trick")
    state = game.new(3, "request")
    seat = state.to_move()[0]
    observation, legal = state.observe(seat), state.legal_moves(seat)
    request = decision_request(
        game, observation, legal, request_id="m:1", match_id="m", game=game.id, seat=seat
    )
    expected = bot_gateway_pb2.DecisionRequest(
        request_id="m:1",
        match_id="m",
        game=game.id,
        seat=seat,
        observation=observation_to_wire(game, observation),
        legal_moves=[move_to_wire(game, move) for move in legal],
    )
    assert request == expected


@dataclass(frozen=True)
class _Frozen:
    suit: str
    rank: int | None


def test_memos_follow_identity_and_skip_mutable_values() -> None:
    card = encoder(
        magic_trick_pb2.MagicTrickObservation.DESCRIPTOR.fields_by_name["sorting"].message_type
    )
    first = _Frozen("red", 3)
    assert card(first) == magic_trick_pb2.MagicTrickCard(suit="red", rank=3).SerializeToString()
    assert (
        card(_Frozen("red", 4))
        == magic_trick_pb2.MagicTrickCard(suit="red", rank=4).SerializeToString()
    )
    mutable = {"suit": "blue", "rank": 1}
    assert card(mutable) == magic_trick_pb2.MagicTrickCard(suit="blue", rank=1).SerializeToString()
    mutable["rank"] = 2
    assert card(mutable) == magic_trick_pb2.MagicTrickCard(suit="blue", rank=2).SerializeToString()
    fan = encoder(magic_trick_pb2.MagicTrickObservation.DESCRIPTOR)
    slots = [{"suit": "red", "rank": 1, "place": "hand"}]
    view = {"fans": [slots]}
    before = magic_trick_pb2.MagicTrickObservation.FromString(fan(view))
    slots.append({"suit": "red", "rank": None, "place": "played"})
    after = magic_trick_pb2.MagicTrickObservation.FromString(fan(view))
    assert len(before.fans[0].slots) == 1 and len(after.fans[0].slots) == 2
    assert not after.fans[0].slots[1].HasField("rank")


def test_varint_matches_protobuf_for_negative_and_large_numbers() -> None:
    assert varint(0) == b"\x00"
    for value in (1, 127, 128, 300, 2**31 - 1, -1, -(2**31)):
        message = magic_trick_pb2.MagicTrickPlay(seat=value)
        assert message.SerializeToString() == b"\x08" + varint(value)


def test_an_interner_gives_back_the_same_value_for_equal_keys_and_stays_bounded() -> None:
    interner = Interner(limit=2)
    a = interner.get((1, 2), lambda: ("made", 1))
    assert interner.get((1, 2), lambda: ("other", 2)) is a
    interner.get((3,), lambda: ("b",))
    interner.get((4,), lambda: ("c",))
    assert interner.get((1, 2), lambda: ("again",)) == ("again",)
