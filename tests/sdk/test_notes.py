"""The Python SDK's notes: `Noted(decision, note)` from `decide` puts the note on the answer
(`DecisionAnswer.note`), the move going out as its index when it is one of the legal moves;
a note past the arbiter's 512 bytes is refused at once, in the bot's own process."""

from __future__ import annotations

from typing import Any

import pytest

from premiere_bot import Bot, Noted
from premiere_bot.bot import MAX_NOTE_BYTES, answer
from premiere_wire import bot_gateway_pb2
from tests.sdk.test_node_wire import decision_requests


class Planner(Bot):
    def decide(self, observation: Any, legal_moves: tuple[Any, ...]) -> Any:
        return Noted(legal_moves[-1], f"last of {len(legal_moves)}: é")


def test_a_noted_decision_answers_with_its_index_and_its_note() -> None:
    bot = Planner()
    for request in decision_requests(per_game=2):
        reply = answer(request, bot.decide_raw(request))
        assert reply.WhichOneof("choice") == "legal_move_index"
        assert reply.legal_move_index == len(request.legal_moves) - 1
        assert reply.note == f"last of {len(request.legal_moves)}: é"
        assert reply.request_id == request.request_id
    plain = answer(bot_gateway_pb2.DecisionRequest(request_id="r"), 0)
    assert plain.note == ""


def test_a_note_too_long_for_the_arbiter_is_refused_in_the_bot() -> None:
    Noted(0, "é" * (MAX_NOTE_BYTES // 2))
    with pytest.raises(ValueError, match="a note of 514 bytes"):
        Noted(0, "é" * (MAX_NOTE_BYTES // 2 + 1))
    with pytest.raises(ValueError, match="NUL character"):
        Noted(0, "plan\x00")
