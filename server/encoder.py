"""Engine values straight to protobuf wire bytes, with one encoder precomputed per message type.

The same mapping as `premiere_bot.convert.fill` (a message mirrors a value by field name; an
absent or None field stays unset; a repeated message field whose items are not records wraps
each item in the element message's single field), written as bytes without building message
objects field by field. Parsing the bytes gives exactly the message `fill` builds, which
tests/wire/test_encoder.py checks for every game.

Sub-messages of immutable values (frozen dataclasses, named tuples) are remembered by identity:
an engine that hands out the same card object again gets its bytes back from a dictionary.
"""

from __future__ import annotations

import dataclasses
import struct
from collections.abc import Callable, Mapping
from typing import Any

from google.protobuf.descriptor import Descriptor, FieldDescriptor

Encoder = Callable[[Any], bytes]

_MEMO_LIMIT = 4096
"""Entries kept per memo before it starts again: it holds its values alive, and the values
worth remembering are those of the matches being played now."""

T = FieldDescriptor
_VARINT_TYPES = frozenset(
    {T.TYPE_INT32, T.TYPE_INT64, T.TYPE_UINT32, T.TYPE_UINT64, T.TYPE_ENUM, T.TYPE_BOOL}
)
_ZIGZAG_TYPES = frozenset({T.TYPE_SINT32, T.TYPE_SINT64})
_FIXED = {
    T.TYPE_DOUBLE: ("<d", 1),
    T.TYPE_FLOAT: ("<f", 5),
    T.TYPE_FIXED64: ("<Q", 1),
    T.TYPE_SFIXED64: ("<q", 1),
    T.TYPE_FIXED32: ("<I", 5),
    T.TYPE_SFIXED32: ("<i", 5),
}
"""struct format and wire type of the fixed-width scalars."""


def _varint(value: int) -> bytes:
    if value < 0:
        value += 1 << 64
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


_TABLE = 1 << 14
_VARINTS = [_varint(n) for n in range(_TABLE)]
"""Every one- and two-byte varint: the lengths and numbers of observations."""


def varint(value: int) -> bytes:
    if 0 <= value < _TABLE:
        return _VARINTS[value]
    return _varint(value)


def _tag(number: int, wire_type: int) -> bytes:
    return varint((number << 3) | wire_type)


def _is_repeated(field: Any) -> bool:
    if hasattr(field, "is_repeated"):
        return bool(field.is_repeated)
    return bool(field.label == FieldDescriptor.LABEL_REPEATED)


def _scalar(field: FieldDescriptor) -> tuple[int, Callable[[Any], bytes]]:
    """The wire type and the payload encoder of one scalar value of the field's type."""
    kind = field.type
    if kind == T.TYPE_BOOL:
        return 0, lambda v: b"\x01" if v else b"\x00"
    if kind in _VARINT_TYPES:
        return 0, varint
    if kind in _ZIGZAG_TYPES:
        return 0, lambda v: varint((v << 1) ^ (v >> 63))
    if kind == T.TYPE_STRING:
        return 2, lambda v: _delimited(v.encode())
    if kind == T.TYPE_BYTES:
        return 2, lambda v: _delimited(bytes(v))
    if kind in _FIXED:
        fmt, wire_type = _FIXED[kind]
        packer = struct.Struct(fmt).pack
        return wire_type, lambda v: packer(v)
    raise TypeError(f"no wire encoding for field {field.full_name}")


def _delimited(payload: bytes) -> bytes:
    size = len(payload)
    return (_VARINTS[size] if size < _TABLE else _varint(size)) + payload


def _get(value: Any, name: str) -> Any:
    if isinstance(value, Mapping):
        return value.get(name)
    return getattr(value, name, None)


_RECORDS: dict[type, bool] = {}


def _is_record(value: Any) -> bool:
    """A dataclass instance, a named tuple or a mapping: filled field by field."""
    kind = type(value)
    known = _RECORDS.get(kind)
    if known is None:
        known = _RECORDS[kind] = (
            dataclasses.is_dataclass(kind) or hasattr(kind, "_fields") or issubclass(kind, Mapping)
        )
    return known


_IMMUTABLE: dict[type, bool] = {}


def _is_immutable(value: Any) -> bool:
    return _type_immutable(type(value))


def _type_immutable(kind: type) -> bool:
    known = _IMMUTABLE.get(kind)
    if known is None:
        frozen = dataclasses.is_dataclass(kind) and kind.__dataclass_params__.frozen  # type: ignore[attr-defined]
        known = _IMMUTABLE[kind] = bool(frozen) or (
            issubclass(kind, tuple) and hasattr(kind, "_fields")
        )
    return known


def _shallow_frozen(value: Any) -> bool:
    """A tuple of frozen records or of tuples (engines' views are frozen all the way down,
    State.observe's contract; the check looks one level deep)."""
    if value is _verified[0]:
        return True
    if type(value) is not tuple:
        return False
    for kind in set(map(type, value)):
        if kind is not tuple and not _type_immutable(kind):
            return False
    return True


class _Usefulness:
    """Whether remembering values of one kind pays: a field whose values are new every time
    (the current trick, a pile rebuilt per view) stops being remembered after a trial, so it
    does not churn the memo that the fields whose values come back use."""

    __slots__ = ("hits", "skipped", "stores")

    TRIAL = 512

    def __init__(self) -> None:
        self.hits = 0
        self.stores = 0
        self.skipped = 0

    def worth(self) -> bool:
        if self.stores < self.TRIAL:
            return True
        if self.stores > 64 * self.TRIAL:  # a long run: weigh the recent past
            self.hits //= 2
            self.stores //= 2
        if self.hits * 4 >= self.stores:
            return True
        self.skipped += 1
        if self.skipped > 64 * self.TRIAL:  # try again now and then: uses change
            self.hits = self.stores = self.skipped = 0
        return False


class Memo:
    """Bytes by the identity of the value they encode. `alive` holds every value whose id is
    a key of `data`, so no other object can have that id meanwhile: a key found is the value
    asked about, with no check and no (value, bytes) pair made per entry (fewer objects for
    the garbage collector to walk)."""

    __slots__ = ("alive", "data", "limit")

    def __init__(self, limit: int = _MEMO_LIMIT) -> None:
        self.data: dict[int, bytes] = {}
        self.alive: list[Any] = []
        self.limit = limit


def remember(memo: Memo, value: Any, data: bytes) -> None:
    if len(memo.alive) >= memo.limit:
        memo.data.clear()
        memo.alive.clear()
    memo.data[id(value)] = data
    memo.alive.append(value)


_verified: list[Any] = [None]
"""The tuple last found to hold only remembered (so frozen) items: the caller that framed
it asks `_shallow_frozen` about it next."""


_ENCODERS: dict[str, Encoder] = {}


def encoder(descriptor: Descriptor) -> Encoder:
    """The encoder of a message type: value -> the serialized message `fill` would build."""
    found = _ENCODERS.get(descriptor.full_name)
    if found is None:
        found = _ENCODERS[descriptor.full_name] = _compile(descriptor)
    return found


def fresh_encoder(descriptor: Descriptor) -> Encoder:
    """The encoder of a message type for values that are new every time (a seat's
    observation, made per decision): `encoder` without looking its values up."""
    encoder(descriptor)  # compiles both forms
    return _FRESH[descriptor.full_name]


_FRESH: dict[str, Encoder] = {}


def _compile(descriptor: Descriptor) -> Encoder:
    fields = sorted(descriptor.fields, key=lambda f: f.number)
    parts = [_field_part(field) for field in fields]
    steps = [_field_step(f.name, part.emit) for f, part in zip(fields, parts, strict=True)]
    memo = Memo()
    known = memo.data
    use = _Usefulness()
    by_type: dict[type, Encoder] = {}

    def generic(value: Any) -> bytes:
        out: list[bytes] = []
        for step in steps:
            step(value, out)
        return b"".join(out)

    def encode(value: Any) -> bytes:
        kind = type(value)
        found = by_type.get(kind)
        if found is None:
            found = by_type[kind] = _specialize(descriptor, kind, parts) or generic
        return found(value)

    _FRESH[descriptor.full_name] = encode

    def remembered(value: Any) -> bytes:
        found = known.get(id(value))
        if found is not None:
            use.hits += 1
            return found
        data = encode(value)
        if _is_immutable(value) and use.worth():
            use.stores += 1
            remember(memo, value, data)
        return data

    return remembered


Emit = Callable[[Any, list[bytes]], None]
"""Writes one field, given the field's value as read from the record (None: unset)."""


@dataclasses.dataclass(frozen=True)
class _Part:
    """How one field is written: `emit` for any value; for the specialized encoders also the
    memo of its framed bytes by identity (message fields) or by content (tuples of scalars),
    with `miss` writing (and perhaps remembering) what the memo did not hold."""

    emit: Emit
    memo: dict[int, bytes] | None = None
    use: _Usefulness | None = None
    miss: Encoder | None = None
    known: dict[tuple[Any, ...], bytes] | None = None
    items: dict[int, bytes] | None = None
    """A repeated message field's framed items by identity."""


def _specialize(descriptor: Descriptor, kind: type, parts: list[_Part]) -> Encoder | None:
    """Straight-line code for one Python type: its fields read as attributes, scalars written
    inline, remembered sub-messages and scalar tuples looked up inline, the rest handed to
    their emitters. None for mappings."""
    if issubclass(kind, Mapping):
        return None
    if dataclasses.is_dataclass(kind):
        own = {f.name for f in dataclasses.fields(kind)}
    else:
        own = set(getattr(kind, "_fields", ()))
    space: dict[str, Any] = {"varint": varint, "id": id, "tuple": tuple, "type": type}
    lines = ["def encode(value):", "    out = []", "    append = out.append"]
    fields = sorted(descriptor.fields, key=lambda f: f.number)
    for k, (field, part) in enumerate(zip(fields, parts, strict=True)):
        name = field.name
        if name in own:
            read = f"value.{name}"
        elif hasattr(kind, name):
            read = f"getattr(value, {name!r}, None)"
        else:
            continue  # the type has no such field: always unset
        message = field.message_type
        simple = message is None and not _is_repeated(field)
        if simple and (field.type == T.TYPE_STRING or field.type in _VARINT_TYPES):
            wire_type = 2 if field.type == T.TYPE_STRING else 0
            space[f"tag{k}"] = _tag(field.number, wire_type)
            test = "is not None" if field.has_presence else ""
            lines.append(f"    v = {read}")
            lines.append(f"    if v {test}:")
            if field.type == T.TYPE_STRING:
                space[f"texts{k}"] = {}
                lines.append(f"        b = texts{k}.get(v)")
                lines.append("        if b is None:")
                lines.append("            b = v.encode()")
                lines.append(f"            b = tag{k} + varint(len(b)) + b")
                lines.append(f"            if len(texts{k}) < {_MEMO_LIMIT}:")
                lines.append(f"                texts{k}[v] = b")
                lines.append("        append(b)")
            elif field.type == T.TYPE_BOOL:
                lines.append(f"        append(tag{k} + (b'\\x01' if v else b'\\x00'))")
            else:
                space[f"small{k}"] = [_tag(field.number, 0) + varint(n) for n in range(128)]
                lines.append(f"        append(small{k}[v] if 0 <= v < 128 else tag{k} + varint(v))")
        elif part.memo is not None:
            space[f"memo{k}"] = part.memo
            space[f"use{k}"] = part.use
            space[f"miss{k}"] = part.miss
            lines.append(f"    v = {read}")
            lines.append("    if v is not None:" if not _is_repeated(field) else "    if v:")
            lines.append(f"        b = memo{k}.get(id(v))")
            lines.append("        if b is not None:")
            lines.append(f"            use{k}.hits += 1")
            lines.append("            append(b)")
            lines.append("        else:")
            lines.append(f"            append(miss{k}(v))")
        elif part.known is not None:
            space[f"known{k}"] = part.known
            space[f"emit{k}"] = part.emit
            lines.append(f"    v = {read}")
            lines.append("    if v:")
            lines.append(f"        b = known{k}.get(v) if type(v) is tuple else None")
            lines.append("        if b is None:")
            lines.append(f"            emit{k}(v, out)")
            lines.append("        else:")
            lines.append("            append(b)")
        else:
            space[f"emit{k}"] = part.emit
            lines.append(f"    emit{k}({read}, out)")
    lines.append("    return b''.join(out)")
    exec("\n".join(lines), space)  # generated from the descriptor alone, no outside input
    made: Encoder = space["encode"]
    return made


def _is_map(field: FieldDescriptor) -> bool:
    message = field.message_type
    return message is not None and bool(message.GetOptions().map_entry)


def _field_step(name: str, emit: Emit) -> Callable[[Any, list[bytes]], None]:
    """The field's writer for any record (mappings included): reads the field, emits it."""

    def step(value: Any, out: list[bytes]) -> None:
        emit(_get(value, name), out)

    return step


def _field_part(field: FieldDescriptor) -> _Part:
    number = field.number
    message = field.message_type
    if message is not None and message.GetOptions().map_entry:
        tag = _tag(number, 2)
        key_tag, value_tag = _tag(1, 2), _tag(2, 2)

        def emit_map(item: Any, out: list[bytes]) -> None:
            if item is None:
                return
            for k, v in item.items():
                entry = key_tag + _delimited(str(k).encode()) + value_tag
                entry += _delimited(str(v).encode())
                out.append(tag + _delimited(entry))

        return _Part(emit_map)
    if message is not None:
        return _message_part(field, message)
    wire_type, payload = _scalar(field)
    if _is_repeated(field):
        return _repeated_scalar_part(number, wire_type, payload)
    tag = _tag(number, wire_type)
    if field.has_presence:

        def emit_optional(item: Any, out: list[bytes]) -> None:
            if item is not None:
                out.append(tag + payload(item))

        return _Part(emit_optional)

    def emit_scalar(item: Any, out: list[bytes]) -> None:
        if item:  # proto3 leaves zero, "" and False off the wire
            out.append(tag + payload(item))

    return _Part(emit_scalar)


def _message_part(field: FieldDescriptor, message: Descriptor) -> _Part:
    """A message field, single or repeated, whose framed bytes (tag, length, message) are
    remembered by identity for immutable values: whole tuples and single items."""
    tag = _tag(field.number, 2)
    memo = Memo()
    coder: list[Encoder] = []

    def encode(item: Any) -> bytes:
        """A record's message (its framed bytes are remembered here, not it)."""
        if not coder:  # found on first use: message types may nest
            coder.append(fresh_encoder(message))
        return coder[0](item)

    if not _is_repeated(field):
        use = _Usefulness()

        def single(item: Any) -> bytes:
            data = tag + _delimited(encode(item))
            if use.worth() and _is_immutable(item):
                use.stores += 1
                remember(memo, item, data)
            return data

        def emit_message(item: Any, out: list[bytes]) -> None:
            if item is None:
                return
            found = memo.data.get(id(item))
            if found is not None:
                use.hits += 1
                out.append(found)
                return
            out.append(single(item))

        return _Part(emit_message, memo.data, use, single)
    wrap, inner = _wrapper(message)
    items = Memo()
    item_bytes = items.data
    items_use = _Usefulness()
    whole_use = _Usefulness()

    def framed(item: Any) -> bytes:
        if _is_record(item):
            payload = encode(item)
            frozen = _is_immutable(item)
        else:
            known = inner()
            found = list(map(known.get, map(id, item))) if known is not None else [None]
            if all(found) and type(item) is tuple:  # its items were remembered: all frozen
                payload = b"".join(found)  # type: ignore[arg-type]
                frozen = True
            else:
                payload = wrap(item)
                frozen = _shallow_frozen(item)
        data = tag + _delimited(payload)
        if frozen and items_use.worth():
            items_use.stores += 1
            remember(items, item, data)
        return data

    def whole(values: Any) -> bytes:
        """Every item's framed bytes: looked up in one pass in C, the items not remembered
        then written one by one (framed bytes are never empty, so a miss is the only falsy)."""
        if type(values) is not tuple and type(values) is not list:
            values = tuple(values)
        found = list(map(item_bytes.get, map(id, values)))
        if all(found):
            items_use.hits += len(found)
            frozen = type(values) is tuple  # its items were all remembered, so all are frozen
        else:
            misses = 0
            for index, data in enumerate(found):
                if data is None:
                    found[index] = framed(values[index])
                    misses += 1
            items_use.hits += len(found) - misses
            frozen = _shallow_frozen(values)
        data = b"".join(found)  # type: ignore[arg-type]  # no None is left
        if frozen:
            _verified[0] = values
            if whole_use.worth():
                whole_use.stores += 1
                remember(memo, values, data)
        return data

    def emit_messages(values: Any, out: list[bytes]) -> None:
        if not values:
            return
        found = memo.data.get(id(values))
        if found is not None:
            whole_use.hits += 1
            out.append(found)
            return
        out.append(whole(values))

    return _Part(emit_messages, memo.data, whole_use, whole, items=item_bytes)


def _repeated_scalar_part(number: int, wire_type: int, payload: Callable[[Any], bytes]) -> _Part:
    """Repeated scalars; a tuple's bytes are remembered by content: the same scores, counts
    or names come back decision after decision (a tuple of scalars is its own safe key)."""
    known: dict[tuple[Any, ...], bytes] = {}
    if wire_type == 2:
        tag = _tag(number, 2)

        def encode(items: Any) -> bytes:
            return b"".join([tag + payload(item) for item in items])

    else:
        packed_tag = _tag(number, 2)

        def encode(items: Any) -> bytes:
            return packed_tag + _delimited(b"".join(map(payload, items)))

    def emit_repeated(items: Any, out: list[bytes]) -> None:
        if not items:
            return
        if type(items) is tuple:
            data = known.get(items)
            if data is None:
                data = encode(items)
                if len(known) >= _MEMO_LIMIT:
                    known.clear()
                known[items] = data
            out.append(data)
            return
        out.append(encode(items))

    return _Part(emit_repeated, known=known)


def _wrapper(message: Descriptor) -> tuple[Encoder, Callable[[], dict[int, bytes] | None]]:
    """For items that are not records: the element message's single field holds the item.
    Also, when that field is a repeated message, the memo of its framed items, so a caller can
    write a tuple of remembered items in one pass. (The caller remembers the framed bytes of
    frozen items.)"""
    if len(message.fields) != 1:
        return (lambda item: _not_a_record(message, item)), lambda: None
    field = message.fields[0]
    parts: list[_Part] = []

    def part() -> _Part:
        if not parts:  # made on first use: message types may nest
            parts.append(_field_part(field))
        return parts[0]

    def wrap(item: Any) -> bytes:
        found = part()
        if found.items is not None:
            if not item:  # a repeated message field: its remembered bytes, or all of them
                return b""
            data = found.memo.get(id(item)) if found.memo is not None else None
            return data if data is not None else found.miss(item)  # type: ignore[misc]
        out: list[bytes] = []
        found.emit(item, out)
        return b"".join(out)

    return wrap, lambda: part().items


def _not_a_record(message: Descriptor, item: Any) -> bytes:
    raise TypeError(f"{message.full_name} cannot hold {item!r}")
