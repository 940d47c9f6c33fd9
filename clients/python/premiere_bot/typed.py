"""Requests as typed views, typed moves back onto the wire.

The per-game dataclasses (`premiere_bot.magic_trick`, ...) are generated from the .proto files
(`make proto`) and mirror the messages field for field, so nothing here knows a game. Reading
is planned once per class from its type hints (scalar, optional, message, repeated), which
keeps decoding a request to some tens of microseconds.
"""

from __future__ import annotations

import dataclasses
import sys
import types
import typing
from collections.abc import Callable
from typing import Any

from google.protobuf.message import Message

from premiere_bot import entries, views
from premiere_wire import bot_gateway_pb2, game_pb2
from premiere_wire.convert import fill

_Reader = Callable[[Message], Any]
_READERS: dict[type, _Reader] = {}


def build(cls: type, message: Message) -> Any:
    """A generated dataclass from its message."""
    reader = _READERS.get(cls)
    if reader is None:
        reader = _READERS[cls] = _plan(cls)
    return reader(message)


def _plan(cls: type) -> _Reader:
    hints = typing.get_type_hints(cls)
    names = [field.name for field in dataclasses.fields(cls)]
    tables: dict[str, str] = getattr(cls, "DATA_ENTRIES", {})
    game = str(getattr(sys.modules[cls.__module__], "GAME", ""))
    readers = [
        _entry_reader(name, hints[name], game, tables[name])
        if name in tables
        else _field_reader(name, hints[name])
        for name in names
    ]

    def read(message: Message) -> Any:
        return cls(*[reader(message) for reader in readers])

    return read


def _field_reader(name: str, hint: Any) -> _Reader:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        (inner,) = [a for a in typing.get_args(hint) if a is not type(None)]
        if isinstance(inner, type) and dataclasses.is_dataclass(inner):
            return lambda m: build(inner, getattr(m, name)) if m.HasField(name) else None
        return lambda m: getattr(m, name) if m.HasField(name) else None
    if typing.get_origin(hint) is tuple:
        element = typing.get_args(hint)[0]
        if isinstance(element, type) and dataclasses.is_dataclass(element):
            return lambda m: tuple(build(element, item) for item in getattr(m, name))
        return lambda m: tuple(getattr(m, name))
    return lambda m: getattr(m, name)


def _entry_reader(name: str, hint: Any, game: str, table: str) -> _Reader:
    """A field naming entries of the game's data (`premiere_bot.entries`)."""
    make = entries.StrEntry if "StrEntry" in str(hint) else entries.Entry

    def one(value: Any) -> Any:
        return make(value, entries.lookup(game, table, value))

    if typing.get_origin(hint) is tuple:
        return lambda m: tuple(one(v) for v in getattr(m, name))
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return lambda m: one(getattr(m, name)) if m.HasField(name) else None
    return lambda m: one(getattr(m, name))


class UnknownGame(LookupError):
    """The request is for a game this SDK version has no typed views of: upgrade it, or
    override `Bot.decide_raw` to work from the raw message."""


def _field(game: str) -> str:
    return game.replace("-", "_")


def _views(game: str) -> types.ModuleType:
    found = views.module(game)
    if found is None:
        raise UnknownGame(f"no typed views of {game!r}; games: {sorted(views.MODULES)}")
    return found


def observation(request: bot_gateway_pb2.DecisionRequest) -> Any:
    """The request's observation as its game's `Observation` dataclass."""
    return build(
        _views(request.game).Observation, getattr(request.observation, _field(request.game))
    )


def move(game: str, message: game_pb2.Move) -> Any:
    """One wire move of `game` as its move dataclass."""
    kinds = _views(game).MOVES
    typed = getattr(message, _field(game))
    kind = typed.WhichOneof("kind")
    if kind is None:
        raise ValueError(f"a {game} move with no kind set")
    return build(kinds[kind.replace("_", "-")], getattr(typed, kind))


def legal_moves(request: bot_gateway_pb2.DecisionRequest) -> tuple[Any, ...]:
    return tuple(move(request.game, legal) for legal in request.legal_moves)


def move_to_wire(game: str, typed: Any) -> game_pb2.Move:
    """A move dataclass of `game` as a wire `Move` (the arbiter checks it is legal)."""
    kind = getattr(type(typed), "kind", None)
    known = views.module(game)
    if not isinstance(kind, str) or known is None or known.MOVES.get(kind) is not type(typed):
        raise TypeError(f"{typed!r} is not a {game} move")
    envelope = game_pb2.Move()
    fill(getattr(getattr(envelope, _field(game)), kind.replace("-", "_")), typed)
    return envelope
