"""Cursors of the paged lists: an opaque token naming the keyset position of a page's last row
(e.g. ``(finished_at, id)`` of a match), never an offset, so that rows inserted or removed
between two requests neither repeat nor skip a row on the next page.

A cursor is the URL-safe base64 of ``[kind, *values]`` in JSON; ``kind`` names the list it
belongs to, so a cursor of one list handed to another is refused (400), as is any token that
does not decode to the values that list's keyset holds. A cursor is client text that reaches
SQL: a string holding NUL (``"\\u0000"`` in its JSON: PostgreSQL text holds none) or a whole
number beyond a bigint is refused too, never a failed query (500).
"""

from __future__ import annotations

import base64
import binascii
import datetime
import json
from collections.abc import Sequence
from typing import Any

from ladder.errors import BadRequest

Value = str | int | float | bool | None | datetime.datetime
"""One column of a keyset position; a datetime travels as ISO 8601 text."""

_STAMP = "t:"

INT8 = 1 << 63
"""A keyset's whole numbers are PostgreSQL bigints at most: -INT8 <= value < INT8."""


def encode(kind: str, values: Sequence[Value]) -> str:
    """The cursor after a row whose keyset columns are ``values``."""
    wire = [
        _STAMP + value.isoformat() if isinstance(value, datetime.datetime) else value
        for value in values
    ]
    raw = json.dumps([kind, *wire], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode(kind: str, token: str, types: Sequence[type]) -> tuple[Any, ...]:
    """The keyset position of ``token``, each value of the type in ``types``; BadRequest for a
    token that is not a cursor of list ``kind``."""
    bad = BadRequest(f"bad cursor {token[:80]!r}: pass back the `next` of the previous page")
    if len(token) > 1024:
        raise bad
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        found = json.loads(raw.decode())
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise bad from None
    if not isinstance(found, list) or len(found) != len(types) + 1 or found[0] != kind:
        raise bad
    values: list[Any] = []
    for value, expected in zip(found[1:], types, strict=True):
        if expected is datetime.datetime:
            if not isinstance(value, str) or not value.startswith(_STAMP):
                raise bad
            try:
                value = datetime.datetime.fromisoformat(value.removeprefix(_STAMP))
            except ValueError:
                raise bad from None
            if value.tzinfo is None:
                raise bad
        elif expected is float:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise bad
            value = float(value)
        elif type(value) is not expected or not _storable(value):
            raise bad
        values.append(value)
    return tuple(values)


def _storable(value: Any) -> bool:
    """Whether PostgreSQL takes the value as a query parameter: text without NUL, a whole
    number within a bigint."""
    if isinstance(value, str):
        return "\x00" not in value
    if isinstance(value, int) and not isinstance(value, bool):
        return -INT8 <= value < INT8
    return True


def clamp(limit: int, maximum: int) -> int:
    """A requested page size within 1..``maximum``: a larger request gets ``maximum`` rows (and
    a ``next`` cursor for the rest); zero or less is refused."""
    if limit < 1:
        raise BadRequest(f"limit must be at least 1 (at most {maximum} rows are sent a page)")
    return min(limit, maximum)
