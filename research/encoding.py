"""A seat's view as numbers: one fixed-length vector per game, derived from the view's type.

The view a seat is given (`State.observe`) is walked field by field and read as *facts*, each
a path from the view's root and, for a leaf, its value:

* a dataclass or named tuple: each field, under ``path.field``;
* a record with an integer ``id`` field (a card, a film, a tile): its id alone, under
  ``path.id`` (the rest is its printed data, the same in every match);
* a tuple: each item twice, under ``path[i]`` (where it stands) and under ``path[*]`` (that it
  is there at all);
* ``True``: the fact ``path``; ``False``: nothing;
* a number: the fact ``path=value`` and the number itself under ``path#``;
* a string or None: the fact ``path=value``.

Every fact adds its weight (1, or the number) at position ``blake2b(fact) mod size``: the
hashing trick, so views of any length fit one vector and a game's tensors keep one shape.
The vector is built from the seat's own view and from nothing else, so it never holds what
the seat may not see; two facts may share a position (rarely, at the default size).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

SIZE = 4096
"""Positions of an observation vector."""

_MODULUS = (1 << 31) - 1
_BASE = 1_000_003
_CACHE_LIMIT = 1 << 16


def facts(view: Any, path: str = "") -> list[tuple[str, float]]:
    """The facts of a view (see the module's documentation), as (fact, weight) pairs: what
    `encode` hashes, spelled out (for reading and testing; `encode` never builds them)."""
    found: list[tuple[str, float]] = []
    _spell(view, path, found.append)
    return found


def _spell(view: Any, path: str, add: Callable[[tuple[str, float]], None]) -> None:
    if view is None or isinstance(view, str):
        add((f"{path}={view}", 1.0))
    elif isinstance(view, bool):
        if view:
            add((path, 1.0))
    elif isinstance(view, int | float):
        add((f"{path}={view}", 1.0))
        add((f"{path}#", float(view)))
    elif _items(view) is not None:
        for place, item in enumerate(view):
            _spell(item, f"{path}[{place}]", add)
            _spell(item, f"{path}[*]", add)
    else:
        for name, value in _fields_of(view):
            _spell(value, f"{path}.{name}", add)


def _items(view: Any) -> Any:
    if isinstance(view, tuple | list | frozenset) and not hasattr(view, "_fields"):
        return view
    return None


def _fields_of(view: Any) -> list[tuple[str, Any]]:
    names = _field_names(type(view))  # type: ignore[arg-type]
    if names is None:
        raise TypeError(f"cannot encode a {type(view).__name__}")
    if "id" in names and isinstance(view.id, int) and not isinstance(view.id, bool):
        return [("id", view.id)]
    return [(name, getattr(view, name)) for name in names]


@functools.cache
def _field_names(cls: type[Any]) -> tuple[str, ...] | None:
    if dataclasses.is_dataclass(cls):
        return tuple(field.name for field in dataclasses.fields(cls))
    fields = getattr(cls, "_fields", None)
    return tuple(fields) if issubclass(cls, tuple) and fields is not None else None


@functools.lru_cache(maxsize=1 << 18)
def _token(text: str) -> int:
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") % _MODULUS


Hashed = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float32]]
"""A value's facts relative to it: per fact, its hash, the base raised to its number of
tokens, and its weight. A fact's hash under a path segment ``s`` is ``h(s) * power + hash``
(mod 2**31 - 1): the hash of a path is a polynomial in its tokens, so a part of a view is
hashed once and its facts moved under any path in a few array operations."""

_EMPTY: Hashed = (
    np.zeros(0, np.int64),
    np.zeros(0, np.int64),
    np.zeros(0, np.float32),
)
_cache: dict[int, tuple[Any, Hashed]] = {}


def _leaf(tokens: list[tuple[str, float]]) -> Hashed:
    return (
        np.array([_token(text) for text, _ in tokens], np.int64),
        np.full(len(tokens), _BASE, np.int64),
        np.array([weight for _, weight in tokens], np.float32),
    )


def _under(segment: str, hashed: Hashed) -> Hashed:
    hashes, powers, weights = hashed
    return (
        (_token(segment) * powers + hashes) % _MODULUS,
        powers * _BASE % _MODULUS,
        weights,
    )


@functools.lru_cache(maxsize=1 << 16)
def _scalar(kind: type[Any], view: Any, segment: str) -> Hashed:
    if view is None or kind is str:
        hashed = _leaf([(f"={view}", 1.0)])
    elif kind is bool:
        hashed = _leaf([("true", 1.0)]) if view else _EMPTY
    else:
        hashed = _leaf([(f"={view}", 1.0), ("#", float(view))])
    return _under(segment, hashed) if segment else hashed


def _hashed(view: Any, segment: str = "") -> Hashed:
    """The facts of ``view`` relative to it or, given a segment, to its parent."""
    if view is None or isinstance(view, str | int | float):
        return _scalar(type(view), view, segment)  # type: ignore[arg-type]
    return _under(segment, _composite(view)) if segment else _composite(view)


def _composite(view: Any) -> Hashed:
    found = _cache.get(id(view))
    if found is not None and found[0] is view:
        return found[1]
    parts: list[Hashed] = []
    items = _items(view)
    if items is not None:
        for place, item in enumerate(items):
            parts.append(_hashed(item, f"[{place}]"))
            parts.append(_hashed(item, "[*]"))
    else:
        for name, value in _fields_of(view):
            parts.append(_hashed(value, f".{name}"))
    result: Hashed = (
        (
            np.concatenate([part[0] for part in parts]),
            np.concatenate([part[1] for part in parts]),
            np.concatenate([part[2] for part in parts]),
        )
        if parts
        else _EMPTY
    )
    if len(_cache) >= _CACHE_LIMIT:
        _cache.clear()
    _cache[id(view)] = (view, result)
    return result


def encode(view: Any, size: int = SIZE, extra: Any = ()) -> npt.NDArray[np.float32]:
    """The vector of a view; ``extra`` is read as more facts under ``told`` (a history)."""
    vector = np.zeros(size, dtype=np.float32)
    hashes, _, weights = _hashed(view)
    np.add.at(vector, hashes % size, weights)
    if extra:
        hashes, _, weights = _hashed(extra, "told")
        np.add.at(vector, hashes % size, weights)
    return vector
