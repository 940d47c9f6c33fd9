"""The SDK's typed views read every observation and move the arbiter sends, for every game,
and a typed answer reaches the arbiter as the very move it names."""

from __future__ import annotations

import dataclasses
import time

import pytest

import games
from games.play import step
from premiere_bot import magic_trick, typed
from premiere_bot.bot import answer
from premiere_wire import bot_gateway_pb2
from server.codec import move_from_wire, move_to_wire, observation_to_wire


def requests(game_id: str, matches: int = 2) -> list[tuple[bot_gateway_pb2.DecisionRequest, tuple]]:
    game = games.get(game_id)
    found = []
    for number in range(matches):
        state = game.new(game.player_counts[number % len(game.player_counts)], f"typed-{number}")
        while not state.is_over():
            asked = step(state)
            for request in asked:
                message = bot_gateway_pb2.DecisionRequest(
                    request_id=f"r{len(found)}",
                    game=game_id,
                    seat=request.seat,
                    observation=observation_to_wire(game, request.observation),
                    legal_moves=[move_to_wire(game, move) for move in request.legal],
                )
                found.append((message, request.legal))
            for request in asked:
                state.apply(request.seat, request.legal[len(found) % len(request.legal)])
    return found


@pytest.mark.parametrize("game_id", sorted(games.ids()))
def test_every_request_decodes_and_every_typed_move_goes_back_as_itself(game_id: str) -> None:
    game = games.get(game_id)
    for message, legal in requests(game_id):
        observation = typed.observation(message)
        assert dataclasses.is_dataclass(observation)
        assert type(observation).__module__ == f"premiere_bot.{game_id.replace('-', '_')}"
        moves = typed.legal_moves(message)
        assert len(moves) == len(legal) == len(set(moves))
        assert [move.kind for move in moves] == [move.kind for move in legal]
        for move, engine_move in list(zip(moves, legal, strict=True))[:: max(1, len(legal) // 4)]:
            reply = answer(message, move)
            assert reply.WhichOneof("choice") == "move"
            assert move_from_wire(game, reply.move, message.seat) == engine_move


def test_answers_by_index_by_typed_move_and_by_raw_move() -> None:
    message, _ = requests("magic-trick", matches=1)[0]
    assert answer(message, 2).legal_move_index == 2
    assert answer(message, message.legal_moves[1]).move == message.legal_moves[1]
    with pytest.raises(TypeError, match="not a magic-trick move"):
        answer(message, object())
    played = answer(message, magic_trick.PlayCard(slot=3))
    assert played.move.magic_trick.play.slot == 3


def test_decoding_a_request_is_cheap_next_to_the_move_clock() -> None:
    found = requests("magic-trick", matches=1)
    started = time.perf_counter()
    for message, _ in found:
        typed.observation(message)
        typed.legal_moves(message)
    per_request = (time.perf_counter() - started) / len(found)
    assert per_request < 0.002, f"{per_request * 1e6:.0f} µs per request"
