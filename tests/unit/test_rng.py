"""The match generator: fixed by hashlib alone, so its draws are pinned here forever."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rng import Rng, derive_seed, seed_bytes


def test_draws_are_pinned() -> None:
    rng = Rng(derive_seed("golden", 1))
    assert [rng.below(100) for _ in range(8)] == [70, 29, 80, 86, 81, 58, 72, 52]
    items = list(range(10))
    rng.shuffle(items)
    assert items == [6, 8, 4, 0, 9, 7, 2, 1, 5, 3]
    expected = "7dacc7b3ae0de8863800b162a0987ea9a0c527b4c18cbf3e7d626c6431435cae"
    assert derive_seed("magic-trick", 1).hex() == expected


def test_seed_kinds_are_distinct() -> None:
    assert len({seed_bytes(1), seed_bytes("1"), seed_bytes(b"1")}) == 3
    assert derive_seed("a", "bc") != derive_seed("ab", "c")
    with pytest.raises(TypeError):
        seed_bytes(True)


@given(st.integers(min_value=1, max_value=10**12), st.binary(max_size=16))
def test_below_stays_in_range(bound: int, seed: bytes) -> None:
    rng = Rng(seed)
    assert all(0 <= rng.below(bound) < bound for _ in range(20))


def test_roughly_uniform() -> None:
    rng = Rng(b"uniform")
    counts = Counter(rng.below(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(850 < c < 1150 for c in counts.values())


def test_copy_fork_and_equality() -> None:
    rng = Rng(b"x")
    rng.below(10)
    twin = rng.copy()
    assert twin == rng
    assert twin.below(1000) == rng.below(1000)
    child = rng.fork("deal")
    assert child != rng
    assert rng.fork("deal") == child
    with pytest.raises(ValueError):
        rng.below(0)


def test_a_pair_is_two_different_indices_every_ordered_pair_as_likely() -> None:
    rng = Rng(b"pair")
    counts = Counter(rng.pair(4) for _ in range(6000))
    assert set(counts) == {(a, b) for a in range(4) for b in range(4) if a != b}
    assert all(400 < c < 600 for c in counts.values())
    assert Rng(derive_seed("golden", 2)).pair(10) == Rng(derive_seed("golden", 2)).pair(10)
    with pytest.raises(ValueError):
        rng.pair(1)
