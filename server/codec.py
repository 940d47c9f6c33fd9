"""Engine values on the wire. Generic: a game's messages mirror its dataclasses by field name,
the game's oneof field is its id in snake case, and a move's oneof field is its `kind`."""

from __future__ import annotations

from typing import Any

from games.errors import MalformedMove
from games.interface import Game, Outcome
from premiere_bot.convert import ConversionError, build, fill
from premiere_bot.wire import game_pb2, outcome_pb2


def wire_field(game_id: str) -> str:
    """The oneof field that carries a game's messages: "magic-trick" -> "magic_trick"."""
    return game_id.replace("-", "_")


def kind_field(kind: str) -> str:
    """The oneof field of a move kind: "bonus-hand" -> "bonus_hand"."""
    return kind.replace("-", "_")


def has_wire_messages(game: Game) -> bool:
    field = wire_field(game.id)
    return (
        field in game_pb2.Observation.DESCRIPTOR.fields_by_name
        and field in game_pb2.Move.DESCRIPTOR.fields_by_name
    )


def encode_observation(game: Game, observation: Any) -> game_pb2.Observation:
    envelope = game_pb2.Observation()
    fill(getattr(envelope, wire_field(game.id)), observation)
    return envelope


def encode_move(game: Game, move: Any) -> game_pb2.Move:
    envelope = game_pb2.Move()
    typed = getattr(envelope, wire_field(game.id))
    fill(getattr(typed, kind_field(move.kind)), move)
    return envelope


def decode_move(game: Game, envelope: game_pb2.Move, seat: int = -1) -> Any:
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


def encode_outcome(outcome: Outcome) -> outcome_pb2.Outcome:
    message = outcome_pb2.Outcome(
        scores=list(outcome.scores),
        ranks=list(outcome.ranks),
        forfeited=list(outcome.forfeited),
    )
    for tiebreak in outcome.tiebreaks:
        message.tiebreaks.add(
            name=tiebreak.name, values=list(tiebreak.values), higher_wins=tiebreak.higher_wins
        )
    return message
