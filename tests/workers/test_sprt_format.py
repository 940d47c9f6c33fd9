"""The sprt league format: pairs on one deal with the two bots' seats swapped, seats rotated
over the test, its settings checked, and its progress (the LLR) computed from finished pairs."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workers.formats import sprt_pair_tables
from workers.formats.declaration import Progress
from workers.planning import plan, progress_of, rated_by_default, resolve_settings


@given(st.integers(2, 8), st.integers(0, 50), st.integers(1, 10), st.binary(max_size=8))
def test_a_pair_is_one_deal_with_the_two_bots_swapped(
    seats: int, first: int, pairs: int, seed: bytes
) -> None:
    fillers = [f"builtin:f{i}" for i in range(seats - 2)]
    tables = sprt_pair_tables("a", "b", fillers, seed, first_pair=first, pairs=pairs)
    assert len(tables) == 2 * pairs
    for one, two in zip(tables[::2], tables[1::2], strict=True):
        assert one.seed == two.seed and one.group == two.group
        assert one.seats.index("a") == two.seats.index("b")
        assert one.seats.index("b") == two.seats.index("a")
        for bot in fillers:
            assert one.seats.index(bot) == two.seats.index(bot)
    assert len({t.seed for t in tables}) == pairs


@pytest.mark.parametrize("seats", [2, 3, 5, 8])
def test_over_n_pairs_each_bot_sits_in_every_seat_equally(seats: int) -> None:
    """No rating or LLR carries a seat bias: every seat equally often for each bot."""
    fillers = [f"builtin:f{i}" for i in range(seats - 2)]
    tables = sprt_pair_tables("a", "b", fillers, b"s", first_pair=0, pairs=3 * seats)
    for bot in ("a", "b"):
        counts = Counter(t.seats.index(bot) for t in tables)
        assert set(counts.values()) == {6} and len(counts) == seats


def test_rounds_continue_the_pair_count() -> None:
    settings = resolve_settings("sprt", ["a", "b"], 2, {"pairs_per_round": 3})
    one = plan("sprt", ["a", "b"], 2, 1, "seed", [], {}, settings)
    two = plan("sprt", ["a", "b"], 2, 2, "seed", [], {}, settings)
    assert len(one) == len(two) == 6
    assert [t.group for t in two] == ["pair3", "pair3", "pair4", "pair4", "pair5", "pair5"]
    assert not {t.seed for t in one} & {t.seed for t in two}


def test_settings_are_checked() -> None:
    assert rated_by_default("sprt") is False and rated_by_default("round-robin") is True
    resolved = resolve_settings("sprt", ["a", "b", "builtin:random"], 3, {"elo1": 20})
    assert resolved["elo1"] == 20.0 and resolved["alpha"] == 0.05
    with pytest.raises(ValueError, match="below"):
        resolve_settings("sprt", ["a", "b"], 2, {"elo0": 5, "elo1": 5})
    with pytest.raises(ValueError, match="unknown sprt setting"):
        resolve_settings("sprt", ["a", "b"], 2, {"elo2": 5})
    with pytest.raises(ValueError, match="built-in"):
        resolve_settings("sprt", ["a", "b", "c"], 3, {})
    with pytest.raises(ValueError, match="two bots to compare"):
        resolve_settings("sprt", ["a", "b", "builtin:x"], 2, {})
    with pytest.raises(ValueError, match="pairs_per_round"):
        resolve_settings("sprt", ["a", "b"], 2, {"pairs_per_round": 0})
    with pytest.raises(ValueError, match="no settings"):
        resolve_settings("swiss", ["a", "b"], 2, {"elo1": 3})


def _progress(results: list[tuple[int, int]], settings: dict[str, float]) -> Progress:
    """Each pair given as (a's rank at table one, a's rank at table two), 2 players."""
    groups = []
    for k, (one, two) in enumerate(results):
        groups.append((f"pair{k}", [(("a", "b"), (one, 3 - one)), (("b", "a"), (3 - two, two))]))
    state = progress_of("sprt", ["a", "b"], groups, settings)
    assert state is not None
    return state


def test_progress_accepts_h1_for_a_bot_that_wins_every_pair() -> None:
    settings = resolve_settings("sprt", ["a", "b"], 2, {"elo1": 100})
    early = _progress([(1, 1)], settings)
    assert early.verdict is None and early.state["pairs"] == [0, 0, 0, 0, 1]
    done = _progress([(1, 1)] * 12 + [(1, 2)] * 4, settings)
    assert done.verdict == "H1" and done.state["llr"] >= done.state["upper"]


def test_progress_accepts_h0_for_even_pairs_and_ignores_half_pairs() -> None:
    settings = resolve_settings("sprt", ["a", "b"], 2, {"elo1": 100})
    state = _progress([(1, 2), (2, 1)] * 10, settings)
    assert state.verdict == "H0" and state.state["pairs"] == [0, 0, 20, 0, 0]
    half = progress_of("sprt", ["a", "b"], [("pair0", [(("a", "b"), (1, 2))])], settings)
    assert half is not None and half.state["pairs"] == [0] * 5


def test_progress_is_inconclusive_at_the_pair_limit() -> None:
    settings = resolve_settings("sprt", ["a", "b"], 2, {"elo1": 5, "max_pairs": 4})
    assert _progress([(1, 2), (1, 1), (2, 1), (2, 2)], settings).verdict == "inconclusive"


def test_with_fillers_only_the_two_bots_places_count() -> None:
    """Three seats: a built-in in the third. A above B in both games of a pair is a pair score
    of 1, whoever the built-in beat; A above B once and below once is 1/2."""
    bots = ["a", "b", "builtin:random"]
    settings = resolve_settings("sprt", bots, 3, {"elo1": 100})
    tables = sprt_pair_tables("a", "b", ["builtin:random"], b"s", first_pair=0, pairs=2)
    ranks = {
        tables[0].seats: {"a": 2, "b": 3, "builtin:random": 1},
        tables[1].seats: {"a": 1, "b": 2, "builtin:random": 3},
        tables[2].seats: {"a": 3, "b": 1, "builtin:random": 2},
        tables[3].seats: {"a": 1, "b": 3, "builtin:random": 2},
    }
    groups = [
        (
            str(pair[0].group),
            [(t.seats, tuple(ranks[t.seats][bot] for bot in t.seats)) for t in pair],
        )
        for pair in (tables[0:2], tables[2:4])
    ]
    state = progress_of("sprt", bots, groups, settings)
    assert state is not None and state.state["pairs"] == [0, 0, 1, 0, 1]
