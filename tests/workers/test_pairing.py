"""Pairing formats and standings: the fairness each format promises in docs/leagues.md, checked
as properties over many fields, seat counts and seeds, and against brute force where it is
small enough to enumerate."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator, Sequence
from fractions import Fraction
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workers.formats import (
    BotId,
    LadderEntry,
    MatchResult,
    Round,
    Table,
    Tiebreak,
    cycle_length,
    duplicate_tables,
    gauntlet,
    gauntlet_length,
    match_points,
    matchmake,
    pass_over_bound,
    repeated_pairs,
    round_robin,
    score_duplicate,
    seat_square,
    standings,
    swiss_round,
)

seeds = st.one_of(st.integers(0, 2**32), st.text(max_size=8), st.binary(max_size=8))


def _fields(min_bots: int = 0, max_extra: int = 9) -> st.SearchStrategy[tuple[int, int]]:
    """(bots, seats) with 2 <= seats <= 8 and seats + min_bots <= bots <= seats + max_extra."""
    return st.integers(2, 8).flatmap(
        lambda n: st.tuples(st.integers(n + min_bots, n + max_extra), st.just(n))
    )


def _spread(counts: Counter[BotId], bots: Sequence[BotId]) -> int:
    values = [counts[bot] for bot in bots]
    return max(values) - min(values)


def _seat_spread(tables: Sequence[Table], bot: BotId, seats: int) -> int:
    counts = Counter(table.seats.index(bot) for table in tables if bot in table.seats)
    return max(counts[s] for s in range(seats)) - min(counts[s] for s in range(seats))


# --- round robin ---------------------------------------------------------------------------


def _check_round_shape(rnd: Round, bots: Sequence[BotId], seats: int) -> None:
    seated = [bot for table in rnd.tables for bot in table.seats]
    assert len(seated) == len(set(seated))
    assert all(len(table.seats) == seats for table in rnd.tables)
    assert sorted(map(str, [*seated, *rnd.byes])) == sorted(map(str, bots))
    assert len(rnd.byes) == len(bots) % seats


@settings(max_examples=60, deadline=None)
@given(_fields(), seeds)
def test_round_robin_cycle_gives_everyone_equal_games_in_every_seat(
    field: tuple[int, int], seed: int | str | bytes
) -> None:
    count, seats = field
    bots = list(range(count))
    schedule = round_robin(bots, seats, seed)
    assert len(schedule) == cycle_length(count, seats)
    tables = [table for rnd in schedule for table in rnd.tables]
    for rnd in schedule:
        _check_round_shape(rnd, bots, seats)
    games = Counter(bot for table in tables for bot in table.seats)
    assert len(set(games.values())) == 1 and set(games) == set(bots)
    seat_use = Counter((bot, s) for table in tables for s, bot in enumerate(table.seats))
    assert len({seat_use[bot, s] for bot in bots for s in range(seats)}) == 1
    assert len({table.seed for table in tables}) == len(tables)


@settings(max_examples=40, deadline=None)
@given(_fields(max_extra=7), seeds, st.integers(0, 40))
def test_round_robin_every_prefix_is_within_one_game_and_one_seat(
    field: tuple[int, int], seed: int | str | bytes, rounds: int
) -> None:
    count, seats = field
    bots = [f"bot{i}" for i in range(count)]
    schedule = round_robin(bots, seats, seed, rounds=rounds)
    assert len(schedule) == rounds
    for cut in range(rounds + 1):
        tables = [table for rnd in schedule[:cut] for table in rnd.tables]
        games = Counter(bot for table in tables for bot in table.seats)
        assert _spread(games, bots) <= 1
        assert all(_seat_spread(tables, bot, seats) <= 1 for bot in bots)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 16), seeds)
def test_two_seat_round_robin_meets_every_pair_equally(count: int, seed: int | str | bytes) -> None:
    bots = list(range(count))
    schedule = round_robin(bots, 2, seed)
    met = Counter(frozenset(t.seats) for rnd in schedule for t in rnd.tables)
    single = count - 1 if count % 2 == 0 else count
    assert set(met) == {frozenset(p) for p in itertools.combinations(bots, 2)}
    assert set(met.values()) == {len(schedule) // single}


@settings(max_examples=30, deadline=None)
@given(_fields(max_extra=6), seeds, st.integers(0, 20), st.randoms(use_true_random=False))
def test_round_robin_is_a_function_of_the_set_of_bots_and_the_seed(
    field: tuple[int, int], seed: int | str | bytes, rounds: int, rnd: Random
) -> None:
    count, seats = field
    bots: list[BotId] = [*range(count // 2), *(f"b{i}" for i in range(count - count // 2))]
    schedule = round_robin(bots, seats, seed, rounds=rounds)
    rnd.shuffle(bots)
    assert round_robin(bots, seats, seed, rounds=rounds) == schedule
    longer = round_robin(bots, seats, seed, rounds=rounds + cycle_length(count, seats))
    assert longer[:rounds] == schedule


def test_round_robin_seed_changes_the_schedule() -> None:
    bots = [f"bot{i}" for i in range(9)]
    assert round_robin(bots, 3, 1) != round_robin(bots, 3, 2)
    assert round_robin(bots, 3, 1) == round_robin(bots, 3, 1)


def test_cycle_lengths() -> None:
    assert cycle_length(8, 2) == 14  # a double round robin
    assert cycle_length(7, 2) == 7  # odd: one round robin, three games in each seat
    assert cycle_length(2, 2) == 2
    assert cycle_length(5, 4) == 5  # one bye a round, four games each, one per seat
    assert cycle_length(4, 4) == 4
    assert cycle_length(9, 3) == 6  # three rounds give three games; four are needed to meet 8


def test_round_robin_refuses_what_it_cannot_schedule() -> None:
    with pytest.raises(ValueError):
        round_robin(["a", "b"], 3, 0)
    with pytest.raises(ValueError):
        round_robin(["a", "b", "c"], 9, 0)
    with pytest.raises(ValueError):
        round_robin(["a", "a", "b"], 2, 0)
    with pytest.raises(TypeError):
        round_robin([True, False], 2, 0)


# --- Swiss ---------------------------------------------------------------------------------


def _partitions(players: Sequence[BotId], seats: int) -> Iterator[list[tuple[BotId, ...]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in itertools.combinations(rest, seats - 1):
        remaining = [p for p in rest if p not in others]
        for tail in _partitions(remaining, seats):
            yield [(first, *others), *tail]


def _fair_byes(bots: Sequence[BotId], sitting_out: int, byes: Counter[BotId]) -> list[set[BotId]]:
    """Every set of bots that may sit out: nobody sits out while someone with fewer byes plays."""
    out = []
    for chosen in itertools.combinations(bots, sitting_out):
        rest = [b for b in bots if b not in chosen]
        if not chosen or max(byes[b] for b in chosen) <= min(byes[b] for b in rest):
            out.append(set(chosen))
    return out


def _repeats(tables: Sequence[Sequence[BotId]], met: set[frozenset[BotId]]) -> int:
    return sum(frozenset(p) in met for t in tables for p in itertools.combinations(t, 2))


SwissState = tuple[int, int, dict[BotId, float], list[list[BotId]], list[BotId]]


@st.composite
def _swiss_states(draw: st.DrawFn) -> SwissState:
    seats = draw(st.sampled_from([2, 2, 3, 4]))
    count = draw(st.integers(seats, {2: 9, 3: 9, 4: 8}[seats]))
    bots: list[BotId] = list(range(count))
    points = {b: draw(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0])) for b in bots}
    history = [
        draw(st.permutations(bots))[: draw(st.integers(2, seats))]
        for _ in range(draw(st.integers(0, 3 * count // seats + 2)))
    ]
    byes = draw(st.lists(st.sampled_from(bots), max_size=4))
    return seats, count, points, history, byes


@settings(max_examples=250, deadline=None)
@given(_swiss_states(), seeds)
def test_swiss_repeats_no_more_pairings_than_the_best_possible_round(
    state: SwissState, seed: int | str | bytes
) -> None:
    seats, count, points, history, byes = state
    bots: list[BotId] = list(range(count))
    rnd = swiss_round(points, seats, seed, history=history, byes=byes)
    _check_round_shape(rnd, bots, seats)
    met = {frozenset(p) for t in history for p in itertools.combinations(t, 2)}
    bye_count = Counter(byes)
    fair = _fair_byes(bots, count % seats, bye_count)
    assert set(rnd.byes) in fair
    best = min(
        _repeats(tables, met)
        for out in fair
        for tables in _partitions([b for b in bots if b not in out], seats)
    )
    got = [t.seats for t in rnd.tables]
    assert _repeats(got, met) == best == repeated_pairs(got, history)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 12), seeds)
def test_swiss_first_round_groups_by_score_and_gives_the_bye_to_the_last(
    seats: int, extra: int, seed: int | str | bytes
) -> None:
    count = 2 * seats + extra
    points: dict[BotId, float] = {
        f"b{i}": float(i) for i in range(count)
    }  # all different: b0 is last
    rnd = swiss_round(points, seats, seed)
    assert set(rnd.byes) == {f"b{i}" for i in range(count % seats)}
    playing = sorted((b for b in points if b not in rnd.byes), key=lambda b: -points[b])
    for k, table in enumerate(rnd.tables):
        assert set(table.seats) == set(playing[k * seats : (k + 1) * seats])


@settings(max_examples=40, deadline=None)
@given(st.integers(8, 24).map(lambda n: 2 * n), st.randoms(use_true_random=False))
def test_swiss_tournament_of_log_rounds_never_repeats(count: int, rnd: Random) -> None:
    """A Swiss of up to log2(B) + 1 rounds always has a rematch-free pairing; it is found."""
    bots: list[BotId] = [f"bot{i}" for i in range(count)]
    points = dict.fromkeys(bots, 0.0)
    history: list[tuple[BotId, ...]] = []
    for number in range(int(math.log2(count)) + 1):
        paired = swiss_round(points, 2, f"round {number}", history=history)
        assert repeated_pairs([t.seats for t in paired.tables], history) == 0
        for table in paired.tables:
            points[rnd.choice(table.seats)] += 1
            history.append(table.seats)


@settings(max_examples=80, deadline=None)
@given(_swiss_states(), seeds)
def test_swiss_seats_each_table_in_the_seats_its_bots_used_least(
    state: SwissState, seed: int | str | bytes
) -> None:
    seats, _, points, history, byes = state
    use = Counter[tuple[BotId, int]]((bot, s) for table in history for s, bot in enumerate(table))
    for table in swiss_round(points, seats, seed, history=history, byes=byes).tables:
        cost = sum(use[bot, s] for s, bot in enumerate(table.seats))
        assert cost == min(
            sum(use[bot, s] for s, bot in enumerate(order))
            for order in itertools.permutations(table.seats)
        )


def test_swiss_gives_the_bye_to_the_lowest_ranked_bot_without_one() -> None:
    points: dict[BotId, float] = {"a": 3.0, "b": 2.0, "c": 1.0, "d": 1.0, "e": 0.0}
    rnd = swiss_round(points, 2, 1, byes=["e"])
    assert rnd.byes in {("c",), ("d",)}  # c and d share the lowest rank among bots with no bye
    rnd = swiss_round(points, 2, 1, byes=["e", "d", "c"])
    assert rnd.byes == ("b",)


# --- gauntlet ------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 6).flatmap(lambda n: st.tuples(st.integers(n - 1, n + 8), st.just(n))),
    seeds,
    st.integers(0, 3),
)
def test_gauntlet_balances_opponents_and_seats(
    field: tuple[int, int], seed: int | str | bytes, extra_cycles: int
) -> None:
    size, seats = field
    others = [f"f{i}" for i in range(size)]
    length = gauntlet_length(size, seats)
    tables = gauntlet("new", others, seats, seed, tables=length * (1 + extra_cycles) + 3)
    full = tables[: length * (1 + extra_cycles)]
    assert all(t.seats.count("new") == 1 and len(set(t.seats)) == seats for t in tables)
    met = Counter(bot for t in full for bot in t.seats if bot != "new")
    assert set(met) == set(others) and len(set(met.values())) == 1
    seat_use = Counter((bot, s) for t in full for s, bot in enumerate(t.seats))
    assert all(len({seat_use[bot, s] for s in range(seats)}) == 1 for bot in ["new", *others])
    for cut in range(len(tables) + 1):
        prefix = tables[:cut]
        assert _spread(Counter(b for t in prefix for b in t.seats if b != "new"), others) <= 1
        assert all(_seat_spread(prefix, bot, seats) <= 1 for bot in ["new", *others])
    assert gauntlet("new", reversed(others), seats, seed, tables=len(tables)) == tables


# --- continuous ladder ---------------------------------------------------------------------


@st.composite
def _ladders(draw: st.DrawFn) -> tuple[list[LadderEntry], int, int]:
    seats = draw(st.integers(2, 6))
    cap = draw(st.integers(1, 3))
    count = draw(st.integers(0, 30))
    entries = [
        LadderEntry(
            bot=i,
            rating=draw(st.floats(800, 2400)),
            games=draw(st.integers(0, 20)),
            pending=draw(st.integers(0, cap + 1)),
        )
        for i in range(count)
    ]
    return entries, seats, cap


@settings(max_examples=150, deadline=None)
@given(
    _ladders(),
    seeds,
    st.floats(0, 300),
    st.sampled_from([0.0, 0.1, 0.5, 1.0]),
)
def test_ladder_batch_respects_cap_priority_and_rating_window(
    ladder: tuple[list[LadderEntry], int, int],
    seed: int | str | bytes,
    window: float,
    explore: float,
) -> None:
    entries, seats, cap = ladder
    batch = matchmake(entries, seats, seed, cap=cap, window=window, explore=explore)
    by_bot = {e.bot: e for e in entries}
    seated = [bot for t in batch.tables for bot in t.seats]
    eligible = [e.bot for e in entries if e.pending < cap]
    assert len(seated) == len(set(seated)) == len(eligible) // seats * seats
    assert all(len(t.seats) == seats for t in batch.tables)
    assert all(by_bot[bot].pending + 1 <= cap for bot in seated)
    assert sorted([*seated, *batch.waiting]) == sorted(eligible)
    if seated and batch.waiting:
        most = max(by_bot[bot].started for bot in seated)
        assert most <= min(by_bot[bot].started for bot in batch.waiting)
    assert batch.explored <= set(seated)
    if explore == 0.0:
        assert not batch.explored
    if explore == 1.0:
        assert batch.explored == set(seated)
    steady = [bot for bot in seated if bot not in batch.explored]
    for table in batch.tables:
        ratings = [by_bot[b].rating for b in table.seats if b not in batch.explored]
        if not ratings:
            continue
        low, high = min(ratings) + window, max(ratings) - window
        assert not any(low < by_bot[b].rating < high for b in steady if b not in table.seats), (
            "a steady bot seated elsewhere lies well inside this table's rating range"
        )


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 5),
    st.integers(2, 20).flatmap(lambda n: st.permutations(range(n))),
    seeds,
)
def test_ladder_without_jitter_seats_runs_of_consecutive_ratings(
    seats: int, places: list[int], seed: int | str | bytes
) -> None:
    entries = [LadderEntry(i, 1000.0 + 37 * place) for i, place in enumerate(places)]
    batch = matchmake(entries, seats, seed, window=0.0, explore=0.0)
    ordered = sorted((e for e in entries if e.bot not in batch.waiting), key=lambda e: e.rating)
    runs = {frozenset(e.bot for e in ordered[k : k + seats]) for k in range(0, len(ordered), seats)}
    assert runs == {frozenset(t.seats) for t in batch.tables}


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 4),
    st.integers(2, 24),
    st.integers(1, 3),
    st.floats(0.1, 1.0),
    st.randoms(use_true_random=False),
)
def test_ladder_never_starves_a_bot(
    seats: int, count: int, cap: int, finish: float, rnd: Random
) -> None:
    """Batches over a fixed field whose matches finish at random: the pending cap always holds,
    and no eligible bot is passed over more often than `pass_over_bound` allows."""
    count = max(count, seats)
    ratings: dict[BotId, float] = {i: rnd.uniform(1000, 2000) for i in range(count)}
    games = dict.fromkeys(ratings, 0)
    pending: dict[BotId, list[int]] = {i: [] for i in ratings}  # per bot: its open matches
    open_matches: dict[int, tuple[BotId, ...]] = {}
    waits: dict[BotId, tuple[int, int]] = {}  # bot -> (times passed over, bound at wait start)
    for number in range(60):
        entries = [LadderEntry(i, ratings[i], games[i], len(pending[i])) for i in ratings]
        started = {e.bot: e.started for e in entries}
        batch = matchmake(entries, seats, number, cap=cap, explore=0.2)
        seated = {bot for t in batch.tables for bot in t.seats}
        for bot in list(waits):
            if bot in seated:
                del waits[bot]
        for bot in batch.waiting:
            if seated:
                passed, bound = waits.get(bot) or (
                    0,
                    pass_over_bound(started[bot], [started[o] for o in ratings if o != bot], seats),
                )
                assert passed + 1 <= bound
                waits[bot] = (passed + 1, bound)
        for table in batch.tables:
            open_matches[len(open_matches)] = table.seats
            for bot in table.seats:
                pending[bot].append(len(open_matches) - 1)
                assert len(pending[bot]) <= cap
        for match, seated_at in list(open_matches.items()):
            if seated_at and rnd.random() < finish:
                open_matches[match] = ()
                for bot in seated_at:
                    pending[bot].remove(match)
                    games[bot] += 1


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5), st.integers(2, 30), seeds)
def test_ladder_level_field_plays_evenly_and_nobody_waits_long(
    seats: int, count: int, seed: int | str | bytes
) -> None:
    """Every match finishes before the next batch: games never differ by more than one, and a
    bot is passed over at most floor(2 (B - 1) / S) batches running."""
    count = max(count, seats)
    games: dict[BotId, int] = dict.fromkeys(range(count), 0)
    seated_per_batch = count // seats * seats
    limit = 2 * (count - 1) // seated_per_batch
    passed = Counter[BotId]()
    for number in range(40):
        entries = [LadderEntry(i, 1500.0 + 10 * i, games[i]) for i in range(count)]
        batch = matchmake(entries, seats, f"{seed!r}/{number}")
        for table in batch.tables:
            for bot in table.seats:
                games[bot] += 1
                passed[bot] = 0
        for bot in batch.waiting:
            passed[bot] += 1
            assert passed[bot] <= limit
        assert max(games.values()) - min(games.values()) <= 1


def test_ladder_is_deterministic_by_seed() -> None:
    entries = [LadderEntry(f"b{i}", 1500.0 + 13 * i, i % 4) for i in range(17)]
    assert matchmake(entries, 3, 5) == matchmake(list(reversed(entries)), 3, 5)
    assert matchmake(entries, 3, 5) != matchmake(entries, 3, 6)
    with pytest.raises(ValueError):
        matchmake(entries, 3, 5, cap=0)
    with pytest.raises(ValueError):
        matchmake([LadderEntry("x", math.nan)], 2, 0)


# --- duplicate tables ----------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 8), seeds)
def test_duplicate_group_seats_each_bot_once_in_each_seat_on_one_deal(
    size: int, seed: int | str | bytes
) -> None:
    bots = [f"bot{i}" for i in range(size)]
    tables = duplicate_tables(bots, seed, group="g1")
    assert len(tables) == size
    assert len({(t.seed, t.group) for t in tables}) == 1 and tables[0].group == "g1"
    for seat in range(size):
        assert sorted(t.seats[seat] for t in tables) == bots
    assert all(sorted(t.seats) == bots for t in tables)
    if size % 2 == 0:
        follows = Counter((t.seats[s], t.seats[s + 1]) for t in tables for s in range(size - 1))
        assert set(follows.values()) == {1} and len(follows) == size * (size - 1)
    assert duplicate_tables(list(reversed(bots)), seed, group="g1") == tables


def test_seat_square_is_latin() -> None:
    for size in range(2, 9):
        square = seat_square(size)
        assert all(sorted(row) == list(range(size)) for row in square)
        assert all(sorted(col) == list(range(size)) for col in zip(*square, strict=True))


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 8), seeds, st.randoms(use_true_random=False))
def test_duplicate_scoring_cancels_seat_luck_and_keeps_skill(
    size: int, seed: int | str | bytes, rnd: Random
) -> None:
    bots = [f"bot{i}" for i in range(size)]
    tables = duplicate_tables(bots, seed)
    # Pure deal luck: whoever holds seat s finishes s + 1. Everyone scores the same.
    luck = score_duplicate(tables, [list(range(1, size + 1))] * size)
    assert set(luck.ranks) == {1} and len(set(luck.totals)) == 1
    # Pure skill: bot i always finishes i + 1, whatever seat it holds.
    skill = score_duplicate(tables, [[int(str(b)[3:]) + 1 for b in t.seats] for t in tables])
    assert skill.bots == tuple(bots) and skill.ranks == tuple(range(1, size + 1))
    # Any result: the group hands out N times a table's points, and ranks follow totals.
    ranks = [[rnd.randint(1, size) for _ in range(size)] for _ in tables]
    mixed = score_duplicate(tables, ranks)
    assert sum(mixed.totals) == size * size * (size - 1) / 2
    assert list(mixed.totals) == sorted(mixed.totals, reverse=True)
    assert mixed.result().ranks == mixed.ranks


def test_duplicate_scoring_refuses_a_broken_group() -> None:
    tables = duplicate_tables(["a", "b", "c"], 1)
    ranks = [[1, 2, 3]] * 3
    with pytest.raises(ValueError):
        score_duplicate(tables[:2], ranks[:2])
    with pytest.raises(ValueError):
        score_duplicate((*tables[:2], Table(tables[2].seats, b"other", tables[2].group)), ranks)
    with pytest.raises(ValueError):
        score_duplicate((*tables[:2], tables[0]), ranks)


# --- standings -----------------------------------------------------------------------------


def test_points_tables_and_shared_ties() -> None:
    half = Fraction(1, 2)
    assert match_points([1, 2]) == (Fraction(1), Fraction(0))
    assert match_points([1, 1]) == (half, half)
    assert match_points([3, 1, 1, 4]) == (Fraction(1), 5 * half, 5 * half, Fraction(0))
    assert match_points([2, 1, 2], points=[10, 6, 3]) == (9 * half, Fraction(10), 9 * half)
    with pytest.raises(ValueError):
        match_points([1, 2, 3], points=[1, 0])


@settings(max_examples=100, deadline=None)
@given(
    st.integers(2, 8).flatmap(lambda n: st.lists(st.integers(1, n), min_size=n, max_size=n)),
)
def test_points_hand_out_the_whole_table(ranks: list[int]) -> None:
    awarded = match_points(ranks)
    assert sum(awarded) == len(ranks) * (len(ranks) - 1) / 2
    for a, b in itertools.permutations(range(len(ranks)), 2):
        if ranks[a] < ranks[b]:
            assert awarded[a] > awarded[b]
        if ranks[a] == ranks[b]:
            assert awarded[a] == awarded[b]


def test_head_to_head_breaks_a_tie_on_points() -> None:
    results = [
        MatchResult(("a", "b"), (1, 2)),
        MatchResult(("b", "c"), (1, 2)),
        MatchResult(("c", "a"), (1, 2)),
        MatchResult(("a", "d"), (1, 2)),
        MatchResult(("b", "d"), (1, 2)),
        MatchResult(("c", "d"), (2, 1)),
    ]
    table = standings(results)
    # a, b: 2 points each; a beat b. c and d: 1 point each; d beat c.
    assert [(s.bot, s.rank, s.points) for s in table] == [
        ("a", 1, 2.0),
        ("b", 2, 2.0),
        ("d", 3, 1.0),
        ("c", 4, 1.0),
    ]


def test_buchholz_then_wins_then_shared_rank() -> None:
    results = [
        MatchResult(("a", "x"), (1, 2)),  # a beats the strong x
        MatchResult(("b", "y"), (1, 2)),  # b beats the weak y
        MatchResult(("x", "y"), (1, 2)),
    ]
    table = standings(results, tiebreaks=[Tiebreak.BUCHHOLZ])
    # a, b and x have one point each; a met x (1 point), x met a and y (1), b met y (0).
    assert [(s.bot, s.rank, s.buchholz) for s in table] == [
        ("a", 1, 1.0),
        ("x", 1, 1.0),
        ("b", 3, 0.0),
        ("y", 4, 2.0),
    ]
    four = [
        MatchResult(("a", "b", "c", "d"), (1, 2, 3, 4)),
        MatchResult(("a", "b", "c", "d"), (4, 3, 2, 1)),
    ]
    ranked = standings(four, tiebreaks=[Tiebreak.WINS])
    # Everyone has 3 points and the same opponents; a and d each won a match.
    assert [(s.bot, s.rank, s.points, s.wins) for s in ranked] == [
        ("a", 1, 3.0, 1),
        ("d", 1, 3.0, 1),
        ("b", 3, 3.0, 0),
        ("c", 3, 3.0, 0),
    ]
    level = standings([MatchResult(("p", "q"), (1, 1))], bots=["r"])
    assert [(s.bot, s.rank) for s in level] == [("p", 1), ("q", 1), ("r", 3)]


def test_byes_score_a_mean_seat_by_default() -> None:
    results = [MatchResult(("a", "b", "c"), (1, 2, 3))]
    table = {s.bot: s for s in standings(results, byes=["d"])}
    assert table["d"].points == 1.0 and table["d"].byes == 1 and table["d"].games == 0
    table = {s.bot: s for s in standings(results, byes=["d"], points=[5, 1, 0])}
    assert table["d"].points == 2.0
    assert {s.bot: s.points for s in standings(results, byes=["d"], bye_points=3)}["d"] == 3.0


@st.composite
def _results(draw: st.DrawFn) -> list[MatchResult]:
    bots = [f"b{i}" for i in range(draw(st.integers(2, 7)))]
    out = []
    for _ in range(draw(st.integers(0, 12))):
        seated = draw(st.permutations(bots))[: draw(st.integers(2, len(bots)))]
        ranks = draw(st.lists(st.integers(1, 3), min_size=len(seated), max_size=len(seated)))
        out.append(MatchResult(tuple(seated), tuple(ranks)))
    return out


@settings(max_examples=100, deadline=None)
@given(_results(), st.randoms(use_true_random=False))
def test_standings_are_ordered_and_independent_of_result_order(
    results: list[MatchResult], rnd: Random
) -> None:
    table = standings(results)
    assert [s.rank for s in table] == sorted(s.rank for s in table)
    for better, worse in itertools.pairwise(table):
        assert better.points >= worse.points
        if better.rank == worse.rank:
            assert better.points == worse.points and better.wins == worse.wins
    if table:
        assert table[0].rank == 1
    assert sum(s.points for s in table) == pytest.approx(
        sum(len(r.seats) * (len(r.seats) - 1) / 2 for r in results)
    )
    shuffled = list(results)
    rnd.shuffle(shuffled)
    assert standings(shuffled) == table


def test_a_tie_for_first_is_not_a_win() -> None:
    results = [
        MatchResult(("a", "b"), (1, 1)),
        MatchResult(("a", "b", "c"), (1, 1, 3)),
        MatchResult(("a", "c"), (1, 2)),
    ]
    wins = {s.bot: s.wins for s in standings(results)}
    assert wins == {"a": 1, "b": 0, "c": 0}
