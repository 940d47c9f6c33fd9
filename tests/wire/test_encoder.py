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


def _request_fields(seat: int, ply: int) -> dict[str, object]:
    """The scalar fields the arbiter sets (`server.host`), some zero, some past 32 bits."""
    return {
        "request_id": f"m:{ply}",
        "match_id": "m",
        "game": "g",
        "seat": seat,
        "decision_number": ply,
        "deadline_unix_ms": 1_764_600_000_000 + ply,
        "move_time_ms": 1000,
        "time_bank_ms": 0 if ply % 3 else 60_000,
        "last_round_trip_ms": ply % 2,
        "last_round_trip_us": 300 * ply,
    }


@pytest.mark.parametrize("game_id", ["magic-trick", "movie-tricks"])
def test_fast_paths_write_the_reflective_bytes_over_many_random_matches(game_id: str) -> None:
    """Every seat and the spectator, at every decision of several random matches per player
    count and variant: the observation's bytes are the reflective message's own bytes, and the
    request parses to the message built field by field (the memos see many matches in turn,
    as an arbiter's do)."""
    game = next(g for g in all_games() if g.id == game_id)
    for players in game.player_counts:
        for options in game.variants():
            for match in range(2):
                state = game.new(players, f"fast/{match}", options)
                rng = Rng(derive_seed("fast", game_id, players, match))
                ply = 0
                while not state.is_over():
                    for viewer in (*range(players), None):
                        view = state.spectate() if viewer is None else state.observe(viewer)
                        reflective = observation_to_wire(game, view)
                        assert observation_bytes(game, view) == reflective.SerializeToString()
                    answers = []
                    for seat in state.to_move():
                        observation, legal = state.observe(seat), state.legal_moves(seat)
                        fields = _request_fields(seat, ply)
                        request = decision_request(game, observation, legal, **fields)
                        assert request == bot_gateway_pb2.DecisionRequest(
                            **fields,
                            observation=observation_to_wire(game, observation),
                            legal_moves=[move_to_wire(game, move) for move in legal],
                        )
                        answers.append((seat, rng.choice(legal)))
                    for seat, move in answers:
                        state.apply(seat, move)
                        ply += 1


def test_request_fields_the_direct_writer_does_not_take_behave_as_in_the_constructor() -> None:
    game = next(g for g in all_games() if g.id == "magic-trick")
    state = game.new(3, "header")
    seat = state.to_move()[0]
    observation, legal = state.observe(seat), state.legal_moves(seat)
    odd: list[dict[str, object]] = [
        {"seat": True},
        {"seat": -1},
        {"decision_number": -1},
        {"seat": 2**31},
        {"deadline_unix_ms": -5},
        {"match_id": b"m"},
        {"request_id": ""},
    ]
    for fields in odd:
        try:
            expected = bot_gateway_pb2.DecisionRequest(
                **fields,  # type: ignore[arg-type]
                observation=observation_to_wire(game, observation),
                legal_moves=[move_to_wire(game, move) for move in legal],
            )
        except (TypeError, ValueError) as error:
            with pytest.raises(type(error)):
                decision_request(game, observation, legal, **fields)
        else:
            assert decision_request(game, observation, legal, **fields) == expected
