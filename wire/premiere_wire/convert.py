"""Between protobuf messages and plain frozen values (dataclasses, named tuples), by field name.

Premiere's wire messages mirror the engines' observation and move dataclasses field for field,
so one reflective codec serves every game: nothing here knows a game.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

T = TypeVar("T")

_SCALARS = (bool, int, float, str, bytes)


class ConversionError(ValueError):
    """A message does not fit the value type it was asked to become, or the reverse."""


def wire_field(game_id: str) -> str:
    """The oneof field that carries a game's messages: "magic-trick" -> "magic_trick"."""
    return game_id.replace("-", "_")


def kind_field(kind: str) -> str:
    """The oneof field of a move kind: "bonus-hand" -> "bonus_hand"."""
    return kind.replace("-", "_")


def _get(value: Any, name: str) -> Any:
    if isinstance(value, Mapping):
        return value.get(name)
    return getattr(value, name, None)


def _is_record(value: Any) -> bool:
    return (dataclasses.is_dataclass(value) and not isinstance(value, type)) or hasattr(
        value, "_fields"
    )


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """A class's resolved type hints, worked out once per class (resolving them is slow)."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


_MAP, _REPEATED_SCALAR, _REPEATED_MESSAGE, _MESSAGE, _SCALAR = range(5)
_PLANS: dict[Any, list[tuple[str, int]]] = {}


def _plan(descriptor: Any) -> list[tuple[str, int]]:
    """How to fill each field of a message type, worked out once per type."""
    plan = _PLANS.get(descriptor)
    if plan is None:
        plan = []
        for field in descriptor.fields:
            if field.message_type is not None and field.message_type.GetOptions().map_entry:
                kind = _MAP
            elif _is_repeated(field):
                kind = _REPEATED_SCALAR if field.message_type is None else _REPEATED_MESSAGE
            else:
                kind = _SCALAR if field.message_type is None else _MESSAGE
            plan.append((field.name, kind))
        _PLANS[descriptor] = plan
    return plan


def fill(message: Message, value: Any) -> Message:
    """Copy every field of `value` whose name the message has; absent or None stays unset."""
    message.SetInParent()
    for name, kind in _plan(message.DESCRIPTOR):
        item = _get(value, name)
        if item is None:
            continue
        if kind == _SCALAR:
            setattr(message, name, item)
        elif kind == _MESSAGE:
            fill(getattr(message, name), item)
        elif kind == _REPEATED_SCALAR:
            getattr(message, name).extend(item)
        elif kind == _REPEATED_MESSAGE:
            _fill_messages(getattr(message, name), item)
        else:
            getattr(message, name).update({str(k): str(v) for k, v in item.items()})
    return message


def _is_repeated(field: Any) -> bool:
    if hasattr(field, "is_repeated"):
        return bool(field.is_repeated)
    return bool(field.label == FieldDescriptor.LABEL_REPEATED)


def _fill_messages(container: Any, items: Sequence[Any]) -> None:
    for item in items:
        element = container.add()
        if _is_record(item) or isinstance(item, Mapping):
            fill(element, item)
        else:
            ((inner, kind),) = _plan(element.DESCRIPTOR)
            if kind == _REPEATED_MESSAGE:
                _fill_messages(getattr(element, inner), item)
            else:
                getattr(element, inner).extend(item)


def build(cls: type[T], message: Message) -> T:
    """Rebuild a dataclass or named tuple of type `cls` from a message, guided by type hints."""
    hints = _hints(cls)
    if dataclasses.is_dataclass(cls):
        names = [f.name for f in dataclasses.fields(cls)]
    else:
        names = list(getattr(cls, "_fields", ()))
    fields = message.DESCRIPTOR.fields_by_name
    args = {}
    for name in names:
        if name not in fields:
            raise ConversionError(f"{message.DESCRIPTOR.full_name} has no field {name!r}")
        args[name] = _read(message, fields[name], hints[name])
    return cls(**args)


def _read(message: Message, field: Any, hint: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(options) != 1:
            raise ConversionError(f"cannot read a field typed {hint}")
        if not message.HasField(field.name):
            return None
        return _read(message, field, options[0])
    if origin is tuple:
        (element, _ellipsis) = typing.get_args(hint)
        return tuple(_element(item, element) for item in getattr(message, field.name))
    value = getattr(message, field.name)
    if isinstance(value, Message):
        return _element(value, hint)
    if hint in _SCALARS and isinstance(value, hint):
        return value
    if hint is int and isinstance(value, int):
        return value
    raise ConversionError(f"field {field.name} holds {value!r}, expected {hint}")


def _element(item: Any, hint: Any) -> Any:
    if typing.get_origin(hint) is tuple:
        (inner_field,) = item.DESCRIPTOR.fields
        (element, _ellipsis) = typing.get_args(hint)
        return tuple(_element(x, element) for x in getattr(item, inner_field.name))
    if isinstance(item, Message):
        return build(hint, item)
    return item
