"""The only source of chance in `games/`: a counter-mode SHA-256 generator owned by a match.

Python's `random` is stable in practice but not promised across versions, and `hash()` is
salted per process, so neither may decide a deal. This generator is defined entirely by
hashlib, so any language can reproduce a match from its seed.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

Seed = int | str | bytes

_MASK64 = 1 << 64
_WORD = struct.Struct(">Q")
"""A 64-bit big-endian unsigned integer: the counter's bytes, and a draw read from a digest."""
_sha256 = hashlib.sha256


def seed_bytes(seed: Seed) -> bytes:
    """Canonical bytes of a seed: ints and strings are tagged so that 1 and "1" differ."""
    if isinstance(seed, bool):
        raise TypeError("a seed is an int, str or bytes, not a bool")
    if isinstance(seed, int):
        return b"i" + str(seed).encode()
    if isinstance(seed, str):
        return b"s" + seed.encode()
    if isinstance(seed, bytes):
        return b"b" + seed
    raise TypeError(f"a seed is an int, str or bytes, not {type(seed).__name__}")


def derive_seed(*parts: Seed) -> bytes:
    """A 32-byte seed derived from labelled parts, e.g. ``derive_seed(game.id, 7)``."""
    digest = hashlib.sha256(b"premiere-seed")
    for part in parts:
        data = seed_bytes(part)
        digest.update(len(data).to_bytes(4, "big"))
        digest.update(data)
    return digest.digest()


class Rng:
    """Deterministic generator: draw i is SHA-256(key || i), read as a 64-bit integer."""

    __slots__ = ("_counter", "_key")

    def __init__(self, seed: bytes) -> None:
        self._key = hashlib.sha256(b"premiere-rng" + seed).digest()
        self._counter = 0

    def _next64(self) -> int:
        counter = self._counter
        self._counter = counter + 1
        draw: int = _WORD.unpack_from(_sha256(self._key + _WORD.pack(counter)).digest())[0]
        return draw

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``, without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _MASK64 - _MASK64 % n
        draw = self._next64()
        while draw >= limit:
            draw = self._next64()
        return draw % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place: ``j = below(i + 1)`` for each ``i`` from the end,
        with `below` and `_next64` written out in the loop (a shuffle is most of the draws of
        a deal or a determinisation)."""
        key = self._key
        counter = self._counter
        pack, unpack = _WORD.pack, _WORD.unpack_from
        for i in range(len(items) - 1, 0, -1):
            bound = i + 1
            limit = _MASK64 - _MASK64 % bound
            draw = unpack(_sha256(key + pack(counter)).digest())[0]
            counter += 1
            while draw >= limit:
                draw = unpack(_sha256(key + pack(counter)).digest())[0]
                counter += 1
            j = draw % bound
            items[i], items[j] = items[j], items[i]
        self._counter = counter

    def pair(self, n: int) -> tuple[int, int]:
        """Two different uniform indices in ``range(n)``, ordered as drawn, from one draw (a
        random swap, where `sample` would shuffle all ``n`` items to take two)."""
        if n < 2:
            raise ValueError("pair() needs at least two items")
        first, second = divmod(self.below(n * (n - 1)), n - 1)
        return first, second + (second >= first)

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]

    def fork(self, label: str) -> Rng:
        """An independent generator for a named purpose, leaving this one untouched."""
        child = Rng(b"")
        child._key = hashlib.sha256(self._key + b"/" + label.encode()).digest()
        return child

    def copy(self) -> Rng:
        twin = Rng(b"")
        twin._key = self._key
        twin._counter = self._counter
        return twin

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Rng) and self._key == other._key and self._counter == other._counter
        )

    def __hash__(self) -> int:
        return hash((self._key, self._counter))

    def __repr__(self) -> str:
        return f"Rng(key={self._key.hex()[:12]}…, counter={self._counter})"
