"""Ladder matchmaking with what bots declare: no bot gets a table it declined, new versions
settle first, and over a long run every bot gets its share of games against opponents near its
rating (game share and rating distance measured, not just bounded)."""

from __future__ import annotations

import statistics
from collections import Counter
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workers.formats import Accepts, LadderEntry, matchmake
from workers.formats._common import BotId

accepts = st.builds(
    Accepts,
    player_counts=st.one_of(st.none(), st.frozensets(st.integers(2, 5), min_size=1)),
    rated=st.booleans(),
    casual=st.booleans(),
    max_pending=st.one_of(st.none(), st.integers(1, 3)),
)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(2, 5),
    st.lists(
        st.tuples(
            st.floats(1000, 2000), st.integers(0, 30), st.integers(0, 3), accepts, st.booleans()
        ),
        max_size=25,
    ),
    st.booleans(),
    st.integers(1, 3),
    st.integers(0, 2**32),
)
def test_no_bot_is_seated_where_it_declined(
    seats: int,
    rows: list[tuple[float, int, int, Accepts, bool]],
    rated: bool,
    cap: int,
    seed: int,
) -> None:
    entries = [
        LadderEntry(i, rating, games, pending, accept, provisional)
        for i, (rating, games, pending, accept, provisional) in enumerate(rows)
    ]
    batch = matchmake(entries, seats, seed, cap=cap, rated=rated)
    by_bot = {e.bot: e for e in entries}
    seated = [bot for table in batch.tables for bot in table.seats]
    for bot in seated:
        entry = by_bot[bot]
        assert entry.accepts.allows(seats, rated)
        assert entry.pending + 1 <= entry.cap(cap)
    eligible = [e for e in entries if e.accepts.allows(seats, rated) and e.pending < e.cap(cap)]
    assert sorted([*seated, *batch.waiting]) == sorted(e.bot for e in eligible)
    # Provisional bots are seated before any established one waits.
    waiting = [by_bot[b] for b in batch.waiting]
    if any(not e.provisional for e in (by_bot[b] for b in seated)):
        assert not any(e.provisional for e in waiting)


def _run(
    count: int, seats: int, batches: int, rng: Random, newcomer_at: int | None = None
) -> tuple[Counter[BotId], list[float], list[float], dict[BotId, float]]:
    """Batches whose matches all finish before the next; a bot's rating is fixed. Returns the
    games per bot, each pairing's rating distance, the same for random pairings, and the
    ratings."""
    ratings: dict[BotId, float] = {i: rng.uniform(1000, 2200) for i in range(count)}
    games: Counter[BotId] = Counter()
    distances: list[float] = []
    random_distances: list[float] = []
    for number in range(batches):
        if newcomer_at is not None and number == newcomer_at:
            ratings["new"] = 1600.0
        entries = [
            LadderEntry(bot, ratings[bot], games[bot], provisional=bot == "new" and games[bot] < 20)
            for bot in ratings
        ]
        batch = matchmake(entries, seats, f"share/{number}")
        for table in batch.tables:
            for bot in table.seats:
                games[bot] += 1
            values = [ratings[b] for b in table.seats]
            distances.append(max(values) - min(values))
            drawn = rng.sample(list(ratings.values()), seats)
            random_distances.append(max(drawn) - min(drawn))
    return games, distances, random_distances, ratings


@pytest.mark.parametrize(
    ("seats", "count", "seed"), [(2, 6, 1), (2, 17, 2), (3, 12, 3), (4, 24, 4), (3, 20, 5)]
)
def test_every_bot_gets_its_share_of_games_near_its_rating(
    seats: int, count: int, seed: int
) -> None:
    games, distances, random_distances, ratings = _run(count, seats, 60, Random(seed))
    share = [games[bot] for bot in ratings]
    assert max(share) - min(share) <= 1
    # Pairings are far closer in rating than chance pairings (jitter and exploration aside).
    assert statistics.median(distances) < 0.6 * statistics.median(random_distances)


def test_a_new_version_settles_quickly_and_starves_no_one() -> None:
    """A newcomer joining a running ladder of 12 reaches 20 games in about 20 batches (each
    bot plays at most once per batch), while nobody else falls more than 20 games behind."""
    games, _, _, ratings = _run(12, 2, 60, Random(19), newcomer_at=10)
    assert games["new"] >= 20
    established = [games[bot] for bot in ratings if bot != "new"]
    assert max(established) - min(established) <= 20
    assert min(established) >= 60 - 20 - 1
