"""Divisions with promotion and relegation, on simulated fields: every table sits inside one
division, each season is a whole round robin in every division, and between seasons exactly
``move`` bots change places at each boundary: the season's bottom of the higher division down,
the top of the lower one up, the divisions keeping their sizes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workers.formats.divisions import season_of, seasons, split, standings_of, tiers
from workers.planning import default_rounds, plan, resolve_settings

SEED = "ef" * 16


@settings(max_examples=40, deadline=None)
@given(
    seats=st.sampled_from([2, 3]),
    size=st.integers(min_value=4, max_value=6),
    field=st.integers(min_value=6, max_value=20),
    move=st.integers(min_value=1, max_value=2),
    luck=st.integers(min_value=0, max_value=2**32),
)
def test_seasons_stay_inside_divisions_and_move_the_top_and_bottom(
    seats: int, size: int, field: int, move: int, luck: int
) -> None:
    bots = tuple(f"b{k:02d}" for k in range(field))
    try:
        resolved = resolve_settings(
            "divisions", bots, seats, {"size": size, "move": move, "seasons": 3}
        )
    except ValueError:
        return  # a field the settings refuse (too few bots, move too large)
    length = resolved["season_rounds"]
    rng = random.Random(luck)
    history: list[tuple[int, tuple[str, ...], tuple[int, ...]]] = []
    total = default_rounds("divisions", field, seats, resolved)
    assert total == 3 * length
    for number in range(1, total + 1):
        season, _local = season_of(number, length)
        divisions = tiers(bots, seats, resolved, history, season)
        assert sorted(len(d) for d in divisions) == sorted(len(d) for d in split(bots, size))
        home = {bot: index for index, division in enumerate(divisions) for bot in division}
        tables = plan("divisions", bots, seats, number, SEED, history, {}, resolved)
        seated = [bot for table in tables for bot in table.seats]
        assert len(seated) == len(set(seated))
        for table in tables:
            assert len({home[bot] for bot in table.seats}) == 1
            ranks = tuple(rng.sample(range(1, seats + 1), seats))
            history.append((number, table.seats, ranks))
        shown = seasons(bots, seats, resolved, history, number) if number % length == 0 else []
        # The season tables say who moved exactly as the next season's divisions have them.
        for done in shown[-2:-1] if number < total else shown[-1:]:
            assert done.over
            later = tiers(bots, seats, resolved, history, done.number + 1)
            for index, table in enumerate(done.divisions):
                assert [p.bot for p in table] == standings_of(
                    [p.bot for p in table],
                    [row for row in history if season_of(row[0], length)[0] == done.number],
                )
                assert (
                    sum(p.games for p in table)
                    == len(
                        [
                            r
                            for r in history
                            if season_of(r[0], length)[0] == done.number
                            and set(r[1]) <= {p.bot for p in table}
                        ]
                    )
                    * seats
                )
                for p in table:
                    went = next(k for k, d in enumerate(later) if p.bot in d)
                    expected = {"promoted": index - 1, "relegated": index + 1}.get(
                        p.move or "", index
                    )
                    assert p.move in (
                        ("final",) if done.number == 3 else ("promoted", "relegated", "stayed")
                    )
                    if p.move != "final":
                        assert went == expected
        if number % length == 0 and season < 3:
            rows = [row for row in history if season_of(row[0], length)[0] == season]
            ranked = [standings_of(division, rows) for division in divisions]
            following = tiers(bots, seats, resolved, history, season + 1)
            for upper in range(len(ranked) - 1):
                assert set(ranked[upper][-move:]) <= set(following[upper + 1])
                assert set(ranked[upper + 1][:move]) <= set(following[upper])
            assert set(ranked[0][: len(ranked[0]) - move]) <= set(following[0])


def test_every_pair_of_a_division_meets_in_a_season_at_two_seats() -> None:
    bots = tuple(f"b{k:02d}" for k in range(9))
    resolved = resolve_settings("divisions", bots, 2, {"size": 4, "seasons": 1})
    met: set[frozenset[str]] = set()
    for number in range(1, resolved["season_rounds"] + 1):
        for table in plan("divisions", bots, 2, number, SEED, [], {}, resolved):
            met.add(frozenset(table.seats))
    expected = {frozenset((a, b)) for d in split(bots, 4) for a in d for b in d if a < b}
    assert met == expected


def test_settings_that_cannot_work_are_refused() -> None:
    bots = tuple(f"b{k}" for k in range(8))
    with pytest.raises(ValueError, match="cannot fill tables of 3"):
        resolve_settings("divisions", bots, 3, {"size": 2})
    with pytest.raises(ValueError, match="less than half"):
        resolve_settings("divisions", bots, 2, {"size": 4, "move": 2})
    with pytest.raises(ValueError, match="take size, move and seasons"):
        resolve_settings("divisions", bots, 2, {"tiers": 2})
