"""`bench.knockout_luck` plays its pool across processes first (``BENCH_KNOCKOUT_JOBS``): the
figures must be those of playing each match when a knockout first draws it."""

from __future__ import annotations

import pytest

import bench.knockout_luck as luck

CHEAP_FIELD = ("first", "last", "random", "heuristic")


@pytest.fixture(autouse=True)
def cheap_field(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(luck, "FIELD", CHEAP_FIELD)
    monkeypatch.setattr(luck, "STRONGEST", CHEAP_FIELD[-1])
    monkeypatch.setattr(luck, "NEXT", CHEAP_FIELD[-2])


@pytest.mark.parametrize("game_id", ["movie-fight", "magic-trick"])
def test_pool_filled_across_processes_holds_each_match_as_played_alone(game_id: str) -> None:
    pool = luck.Pool(game_id, 2)
    pool.fill(2)
    seats = luck.seats_of(game_id)
    assert len(pool.played) == 2 * (4 * 3 if seats == 2 else 4 * 3 * 2)
    for (deal, order), ranks in pool.played.items():
        assert luck.play(game_id, f"bench/knockout/{game_id}/{deal}", order) == ranks
    assert len({ranks for ranks in pool.played.values()}) > 1


@pytest.mark.parametrize("game_id", ["movie-fight", "magic-trick"])
def test_jobs_change_no_figure(game_id: str) -> None:
    alone = luck.measure(game_id, deals=2, runs=30, jobs=1)
    spread = luck.measure(game_id, deals=2, runs=30, jobs=2)
    assert [(r["name"], r["value"]) for r in alone[:-1]] == [
        (r["name"], r["value"]) for r in spread[:-1]
    ]
