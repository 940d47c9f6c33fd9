"""Finding: league seeds were 32 bits and `--seed` took any string, so one published match
seed let a brute force recover the league seed and every future deal. League seeds are now
256 random bits (a chosen one needs 128), and every table seed is a full 256-bit derivation."""

from __future__ import annotations

import pytest

from premiere.seeds import new_seed, strong_seed
from workers.leagues import _league_seed
from workers.planning import plan


def test_drawn_seeds_carry_256_bits() -> None:
    seeds = {new_seed() for _ in range(100)}
    assert len(seeds) == 100 and all(len(s) == 64 and strong_seed(s) for s in seeds)
    assert strong_seed(_league_seed(None)) and strong_seed(_league_seed(""))


@pytest.mark.parametrize("weak", ["1234", "my league", "deadbeef", "A" * 40, "0" * 31])
def test_a_chosen_league_seed_needs_128_bits(weak: str) -> None:
    with pytest.raises(ValueError, match="128 bits"):
        _league_seed(weak)
    assert _league_seed("ab" * 16) == "ab" * 16


@pytest.mark.parametrize("format", ["round-robin", "swiss", "gauntlet", "ladder", "duplicate"])
def test_table_seeds_are_full_derivations(format: str) -> None:
    bots = ["a", "b", "c", "d", "e", "f"]
    tables = plan(format, bots, 3, 1, new_seed(), [], {bot: 1500.0 for bot in bots})
    seeds = [table.seed for table in tables if table.seed is not None]
    assert seeds and all(len(seed) == 64 and strong_seed(seed) for seed in seeds)
