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


def _get(value: Any, name: str) -> Any:
    if isinstance(value, Mapping):
        return value.get(name)
    return getattr(value, name, None)


def _is_record(value: Any) -> bool:
    return (dataclasses.is_dataclass(value) and not isinstance(value, type)) or hasattr(
        value, "_fields"
    )


def fill(message: Message, value: Any) -> Message:
    """Copy every field of `value` whose name the message has; absent or None stays unset."""
    message.SetInParent()
    for field in message.DESCRIPTOR.fields:
        item = _get(value, field.name)
        if item is None:
            continue
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            getattr(message, field.name).update({str(k): str(v) for k, v in item.items()})
        elif _is_repeated(field):
            _fill_repeated(message, field, item)
        elif field.message_type is not None:
            fill(getattr(message, field.name), item)
        else:
            setattr(message, field.name, item)
    return message


def _is_repeated(field: Any) -> bool:
    if hasattr(field, "is_repeated"):
        return bool(field.is_repeated)
    return bool(field.label == FieldDescriptor.LABEL_REPEATED)


def _fill_repeated(message: Message, field: Any, items: Sequence[Any]) -> None:
    container = getattr(message, field.name)
    if field.message_type is None:
        container.extend(items)
        return
    for item in items:
        element = container.add()
        if _is_record(item) or isinstance(item, Mapping):
            fill(element, item)
        else:
            (inner,) = element.DESCRIPTOR.fields
            _fill_repeated(element, inner, item)


def build(cls: type[T], message: Message) -> T:
    """Rebuild a dataclass or named tuple of type `cls` from a message, guided by type hints."""
    hints = typing.get_type_hints(cls)
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
