"""Engine values on the protobuf wire: ``*_to_wire`` and ``*_from_wire``. (The engines' own
``Game.encode_move`` and ``decode_move`` are the plain JSON form kept in the move log.)

Generic: a game's messages mirror its dataclasses by field name, the game's oneof field is its
id in snake case, and a move's oneof field is its `kind`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.errors import MalformedMove
from games.interface import Game
from premiere_wire import bot_gateway_pb2, game_pb2
from premiere_wire.convert import ConversionError, build, fill, kind_field, wire_field
from server.encoder import Memo, encoder, fresh_encoder, remember, varint


def has_wire_messages(game: Game) -> bool:
    field = wire_field(game.id)
    return (
        field in game_pb2.Observation.DESCRIPTOR.fields_by_name
        and field in game_pb2.Move.DESCRIPTOR.fields_by_name
    )


def observation_to_wire(game: Game, observation: Any) -> game_pb2.Observation:
    envelope = game_pb2.Observation()
    fill(getattr(envelope, wire_field(game.id)), observation)
    return envelope


def move_to_wire(game: Game, move: Any) -> game_pb2.Move:
    envelope = game_pb2.Move()
    typed = getattr(envelope, wire_field(game.id))
    fill(getattr(typed, kind_field(move.kind)), move)
    return envelope


def move_from_wire(game: Game, envelope: game_pb2.Move, seat: int = -1) -> Any:
    """A typed move from the wire, or `MalformedMove` saying what was wrong with it."""
    field = wire_field(game.id)
    if envelope.WhichOneof("game") != field:
        raise MalformedMove(seat, envelope.WhichOneof("game"), f"not a {game.id} move")
    typed = getattr(envelope, field)
    kind = typed.WhichOneof("kind")
    classes = {kind_field(cls.kind): cls for cls in game.move_types}
    if kind not in classes:
        raise MalformedMove(seat, kind, "no move kind set")
    try:
        return build(classes[kind], getattr(typed, kind))
    except (ConversionError, TypeError, ValueError) as error:
        raise MalformedMove(seat, kind, str(error)) from None


def observation_bytes(game: Game, observation: Any) -> bytes:
    """`observation_to_wire(game, observation).SerializeToString()`, written directly."""
    head, data = _observation_parts(game, observation)
    return head + data


def _observation_parts(game: Game, observation: Any) -> tuple[bytes, bytes]:
    """The serialized `Observation` envelope in two parts: the game's tag and length, then
    the game's observation message (not copied into one)."""
    found = _OBSERVATIONS.get(game.id)
    if found is None:
        field = game_pb2.Observation.DESCRIPTOR.fields_by_name[wire_field(game.id)]
        assert field.message_type is not None
        found = _OBSERVATIONS[game.id] = (_tag(field.number), fresh_encoder(field.message_type))
    tag, encode = found
    data = encode(observation)
    return tag + varint(len(data)), data


_OBSERVATIONS: dict[str, tuple[bytes, Callable[[Any], bytes]]] = {}


_MOVES: dict[str, Memo] = {}
_MOVES_KEPT = 8192
"""Moves remembered: engines make their moves once, and a game has up to a few hundred (the
per-field memos of observations are smaller: most of what they hold is soon replaced)."""


def move_bytes(game: Game, move: Any) -> bytes:
    """`move_to_wire(game, move).SerializeToString()`, remembered per move object."""
    memo = _MOVES.get(game.id)
    if memo is None:
        memo = _MOVES[game.id] = Memo(_MOVES_KEPT)
    found = memo.data.get(id(move))
    if found is not None:
        return found
    field = game_pb2.Move.DESCRIPTOR.fields_by_name[wire_field(game.id)]
    assert field.message_type is not None
    kind = field.message_type.fields_by_name[kind_field(move.kind)]
    assert kind.message_type is not None
    typed = _tag(kind.number) + _sized(encoder(kind.message_type)(move))
    data = _tag(field.number) + _sized(typed)
    remember(memo, move, data)
    return data


def _tag(number: int) -> bytes:
    return varint(number << 3 | 2)


def _sized(payload: bytes) -> bytes:
    return varint(len(payload)) + payload


_OBSERVATION_TAG = _tag(bot_gateway_pb2.DecisionRequest.OBSERVATION_FIELD_NUMBER)
_LEGAL_MOVE_TAG = _tag(bot_gateway_pb2.DecisionRequest.LEGAL_MOVES_FIELD_NUMBER)


_FRAMED = Memo(_MOVES_KEPT)
_framed = _FRAMED.data


def _legal_move(game: Game, move: Any) -> bytes:
    """A move as one `legal_moves` entry of a request (tag, length, bytes), remembered."""
    found = _framed.get(id(move))
    if found is not None:
        return found
    data = _LEGAL_MOVE_TAG + _sized(move_bytes(game, move))
    remember(_FRAMED, move, data)
    return data


def _legal_moves(game: Game, legal: Sequence[Any]) -> bytes:
    """Every legal move as `legal_moves` entries; in one pass in C when all are remembered
    (engines hand out the same move objects again)."""
    try:
        return b"".join(map(_framed.__getitem__, map(id, legal)))
    except KeyError:
        return b"".join([_legal_move(game, move) for move in legal])


def decision_request_bytes(
    game: Game, observation: Any, legal: Sequence[Any], /, **fields: Any
) -> bytes:
    """The serialized request asking a seat to decide: its observation and legal moves on the
    wire, plus the scalar ``fields`` (ids, seat, clock), written by the precomputed encoders
    instead of filled field by field."""
    head, observed = _observation_parts(game, observation)
    return b"".join(
        (
            # The scalar fields (ids, seat, clock) through protobuf's own C serializer: three
            # times faster than writing them here in Python.
            bot_gateway_pb2.DecisionRequest(**fields).SerializeToString(),
            _OBSERVATION_TAG,
            varint(len(head) + len(observed)),
            head,
            observed,
            _legal_moves(game, legal),
        )
    )


def decision_request(
    game: Game, observation: Any, legal: Sequence[Any], /, **fields: Any
) -> bot_gateway_pb2.DecisionRequest:
    """`decision_request_bytes`, parsed."""
    return bot_gateway_pb2.DecisionRequest.FromString(
        decision_request_bytes(game, observation, legal, **fields)
    )
