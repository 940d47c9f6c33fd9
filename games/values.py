"""Plain values: converting moves and observations to and from JSON-ready data."""

from __future__ import annotations

import dataclasses
import enum
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from games.errors import MalformedMove

T = TypeVar("T")

JSON = None | bool | int | float | str | list["JSON"] | dict[str, "JSON"]


def to_plain(value: Any) -> JSON:
    """Dataclasses become dicts, tuples lists, enums their values; the rest must be JSON."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, enum.Enum):
        return to_plain(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        plain: dict[str, JSON] = {}
        kind = getattr(type(value), "kind", None)
        if isinstance(kind, str):
            plain["kind"] = kind
        for field in dataclasses.fields(value):
            plain[field.name] = to_plain(getattr(value, field.name))
        return plain
    if isinstance(value, Mapping):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, Sequence | frozenset | set):
        return [to_plain(v) for v in value]
    raise TypeError(f"not a plain value: {value!r}")


def move_from_plain(data: object, move_types: Sequence[type[Any]], seat: int = -1) -> Any:
    """Rebuild a move dataclass from ``{"kind": ..., field: value}``; strict about types."""
    if not isinstance(data, Mapping):
        raise MalformedMove(seat, data, "a move is an object with a 'kind'")
    by_kind = {t.kind: t for t in move_types}
    kind = data.get("kind")
    cls = by_kind.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise MalformedMove(seat, data, f"unknown move kind {kind!r}")
    hints = _hints(cls)
    fields = {f.name for f in dataclasses.fields(cls)}
    extra = set(data) - fields - {"kind"}
    if extra:
        raise MalformedMove(seat, data, f"unexpected fields {sorted(extra)}")
    args: dict[str, Any] = {}
    for name in fields:
        if name not in data:
            raise MalformedMove(seat, data, f"missing field {name!r}")
        args[name] = _coerce(data[name], hints[name], seat, data)
    return cls(**args)


_HINTS: dict[type[Any], dict[str, Any]] = {}


def _hints(cls: type[Any]) -> dict[str, Any]:
    """Type hints of a move class, worked out once (it compiles the annotations)."""
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _coerce(value: object, hint: Any, seat: int, data: object) -> Any:
    options = (
        typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, _UnionType) else (hint,)
    )
    for option in options:
        if option is type(None) and value is None:
            return None
        if option is bool and isinstance(value, bool):
            return value
        if option is int and isinstance(value, int) and not isinstance(value, bool):
            return value
        if option is str and isinstance(value, str):
            return value
    raise MalformedMove(seat, data, f"field value {value!r} is not {hint}")


_UnionType = type(int | None)


class Interner:
    """Equal keys give back the same frozen value, made once: views built from the same facts
    are the same objects, so whoever remembers work by identity (the wire encoder) finds it.
    Bounded: past `limit` keys it starts again. Values must be immutable."""

    def __init__(self, limit: int = 8192) -> None:
        self.limit = limit
        self._values: dict[Any, Any] = {}

    def get(self, key: Any, make: Callable[[], T]) -> T:
        found: T | None = self._values.get(key)
        if found is None:
            if len(self._values) >= self.limit:
                self._values.clear()
            found = self._values[key] = make()
        return found


def frozen_record(cls: type[T], fields: dict[str, Any]) -> T:
    """An instance of the frozen dataclass ``cls`` holding ``fields``, which must name every
    field of it and nothing else: equal to ``cls(**fields)``, without the generated
    ``__init__`` (one ``object.__setattr__`` per field). For views built at every decision."""
    value = object.__new__(cls)
    object.__setattr__(value, "__dict__", fields)
    return value


@dataclass(frozen=True)
class Among:
    """Every value a move field can ever take, at any table and with any options: metadata on
    the field's type (``card: Annotated[int, Among(label="card")]``) from which a fixed
    universe of moves is enumerated (one action id per move, for learning and search tools).

    ``values`` lists them; ``label`` names instead a kind of `Game.labels` whose ids they are.
    A ``bool`` field needs neither."""

    values: tuple[Any, ...] = ()
    label: str | None = None


def field_domains(cls: type[Any]) -> dict[str, Among | None]:
    """A move class's fields, in order, with their `Among` metadata (None when a field
    declares none)."""
    hints = typing.get_type_hints(cls, include_extras=True)
    found: dict[str, Among | None] = {}
    for field in dataclasses.fields(cls):
        hint = hints[field.name]
        metadata = getattr(hint, "__metadata__", ())
        found[field.name] = next((m for m in metadata if isinstance(m, Among)), None)
    return found
