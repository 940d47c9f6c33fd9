"""What the Node and Go clients are checked against: for every registered game, the decision
requests of a played match (every observation and legal move the arbiter sends) and the game's
data, as protobuf bytes, with Python protobuf's JSON of each and the data's tables keyed by
`number` or `id`. A client reads a message right when its JSON equals Python's, and looks data
up right when it finds every entry of every table by its key."""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import Message

import games
from games.rng import Rng
from premiere.game_data import game_data
from premiere_wire import bot_gateway_pb2, game_data_pb2
from server.codec import decision_request, wire_field

REQUESTS_PER_GAME = 120
"""Decision requests per game: the first of a played match, then every few, so the checked ones
span the match from its first decision to its last."""


def as_json(message: Message) -> Any:
    return json_format.MessageToDict(message, preserving_proto_field_name=True)


@dataclass(frozen=True)
class Case:
    """One line a client is given (`kind` and the message's bytes in base64) and what it must
    make of it."""

    game: str
    kind: str
    payload: bytes
    expected: dict[str, Any]

    @property
    def line(self) -> str:
        return f"{self.kind} {base64.b64encode(self.payload).decode()}"


def _requests(game_id: str) -> list[bot_gateway_pb2.DecisionRequest]:
    game = games.get(game_id)
    state = game.new(game.player_counts[-1], f"clients-{game_id}")
    rng = Rng(f"clients-{game_id}".encode())
    made = []
    while not state.is_over():
        seat = state.to_move()[0]
        legal = state.legal_moves(seat)
        made.append(
            decision_request(
                game,
                state.observe(seat),
                legal,
                request_id=f"{game_id}:{len(made)}",
                match_id=f"clients-{game_id}",
                game=game_id,
                seat=seat,
                decision_number=len(made),
            )
        )
        state.apply(seat, rng.choice(legal))
    step = max(1, len(made) // REQUESTS_PER_GAME)
    return [*made[::step][:REQUESTS_PER_GAME], made[-1]]


def tables(data: game_data_pb2.GameData) -> dict[str, list[Any]]:
    """The game's data tables a client indexes: its repeated messages keyed by number or id,
    with their keys in order."""
    own = getattr(data, data.WhichOneof("game_data") or "")
    found = {}
    for field in own.DESCRIPTOR.fields:
        if not field.is_repeated or field.message_type is None:
            continue
        keys = [k for k in ("number", "id") if k in field.message_type.fields_by_name]
        if keys:
            found[field.name] = [getattr(entry, keys[0]) for entry in getattr(own, field.name)]
    return found


def cases() -> list[Case]:
    """Every game's requests and data, driven by the registry."""
    made = []
    for game_id in games.ids():
        for request in _requests(game_id):
            expected = {
                "observation": as_json(request.observation),
                "legal_moves": [as_json(move) for move in request.legal_moves],
            }
            envelope = bot_gateway_pb2.ConnectResponse(decision=request)
            made.append(Case(game_id, "request", envelope.SerializeToString(), expected))
        data = game_data(game_id)
        reply = game_data_pb2.GetGameDataResponse(data=data)
        expected = {"data": as_json(data), "tables": tables(data)}
        made.append(Case(game_id, "data", reply.SerializeToString(), expected))
        assert wire_field(game_id) in as_json(data), f"{game_id} has no data on the wire"
    return made
