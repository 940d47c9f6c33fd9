"""The knockout's guarantees, on simulated fields of every size: the strongest seeds are spread
over different heats, byes go to the strongest seeds and keep every round full, each heat is a
duplicate group dealing one sealed deal once per seat order, a round waits for the previous
one, ties go to the better seed, and the final heat's ranking ends the bracket."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workers.formats.declaration import History
from workers.formats.knockout import (
    REPLAYS,
    bracket,
    heats,
    knockout_rounds,
    length,
    replay,
    walk,
)
from workers.planning import PlayedTable, Table, fold_duplicates, plan, resolve_settings

SEED = "ab" * 16


def field_of(size: int) -> tuple[str, ...]:
    return tuple(f"seed{n:02d}" for n in range(1, size + 1))


def simulate(
    bots: tuple[str, ...], seats: int, luck: random.Random, tied: bool = False
) -> tuple[list[list[Table]], list[tuple[int, tuple[str, ...], tuple[int, ...]]]]:
    """Play the knockout to its end as the league would: plan a round, play its tables (each
    table's ranks at random, or all tied), fold the groups, plan the next."""
    played: list[PlayedTable] = []
    rounds: list[list[Table]] = []
    for number in range(1, knockout_rounds(len(bots), seats) + 1):
        history = fold_duplicates(played)
        tables = plan("knockout", bots, seats, number, SEED, history, {})
        rounds.append(tables)
        for table in tables:
            ranks = [1] * seats if tied else luck.sample(range(1, seats + 1), seats)
            played.append(PlayedTable(number, table.seats, table.seed, table.group, tuple(ranks)))
    return rounds, list(fold_duplicates(played))


fields = st.integers(min_value=2, max_value=6).flatmap(
    lambda seats: st.tuples(st.just(seats), st.integers(min_value=seats, max_value=40))
)


@settings(max_examples=150, deadline=None)
@given(sizes=fields)
def test_byes_go_to_the_strongest_seeds_and_every_round_stays_full(
    sizes: tuple[int, int],
) -> None:
    seats, size = sizes
    count, byes = bracket(size, seats)
    assert count * seats + byes == size and count >= 1
    layout = heats(field_of(size), seats)
    assert layout.byes == field_of(size)[:byes]
    assert all(len(heat) == seats for heat in layout.heats)
    assert sorted(bot for heat in layout.heats for bot in heat) == sorted(field_of(size)[byes:])
    after = count * layout.advancing(seats) + byes
    if size > seats:
        assert seats <= after < size
        # One more heat would leave fewer than a full table (or the field has no more).
        more = count + 1
        assert more * seats > size or size - more * (seats - max(1, seats // 2)) < seats


@settings(max_examples=150, deadline=None)
@given(sizes=fields)
def test_the_strongest_playing_seeds_meet_in_no_heat(sizes: tuple[int, int]) -> None:
    seats, size = sizes
    layout = heats(field_of(size), seats)
    playing = field_of(size)[len(layout.byes) :]
    heat_of = {bot: index for index, heat in enumerate(layout.heats) for bot in heat}
    top = playing[: len(layout.heats)]
    assert len({heat_of[bot] for bot in top}) == len(top)
    # The serpentine balances the heats: their seed sums differ by less than one heat's worth.
    sums = [sum(playing.index(bot) for bot in heat) for heat in layout.heats]
    assert max(sums) - min(sums) <= len(playing)


@settings(max_examples=60, deadline=None)
@given(sizes=fields, seed=st.integers(min_value=0, max_value=2**32))
def test_each_heat_deals_one_sealed_deal_once_per_seat_order_and_the_bracket_ends(
    sizes: tuple[int, int], seed: int
) -> None:
    seats, size = sizes
    bots = field_of(size)
    rounds, history = simulate(bots, seats, random.Random(seed))
    deals: set[str] = set()
    for tables in rounds:
        by_group: dict[str | None, list[Table]] = {}
        for table in tables:
            by_group.setdefault(table.group, []).append(table)
        for group, played in by_group.items():
            assert group is not None and len(played) == seats
            assert len({table.seed for table in played}) == 1
            assert len({table.seats for table in played}) == seats  # every seat order once
            for place in range(seats):
                assert {t.seats[place] for t in played} == set(played[0].seats)
            assert played[0].seed not in deals  # no deal shared by two heats
            deals.add(played[0].seed)
    final = rounds[-1]
    assert len(final) == seats  # the final is one heat
    _rounds, _results, ranking = replay(bots, seats, history)
    assert ranking is not None and sorted(ranking) == sorted(final[0].seats)
    # Past the final there is nothing left to play.
    after = plan("knockout", bots, seats, len(rounds) + 1, SEED, history, {})
    assert after == []


@pytest.mark.parametrize(("seats", "size"), [(2, 8), (3, 10), (4, 9), (4, 16)])
def test_ties_go_to_the_better_seed(seats: int, size: int) -> None:
    bots = field_of(size)
    _played, history = simulate(bots, seats, random.Random(0), tied=True)
    _rounds, _results, ranking = replay(bots, seats, history)
    assert ranking is not None
    # Every heat tied: the better seeds went through every time, and rank in seed order.
    assert ranking == sorted(ranking)
    assert ranking == list(bots[:seats])


def play_with_voids(
    bots: tuple[str, ...],
    seats: int,
    luck: random.Random,
    void_share: float,
    withdrawn: frozenset[str] = frozenset(),
) -> tuple[int, History, list[list[Table]]]:
    """Play the knockout as the league would, each table void with chance ``void_share`` and
    every table seating a withdrawn bot void: (league rounds played, results, tables)."""
    played: list[PlayedTable] = []
    rounds: list[list[Table]] = []
    number = 1
    while True:
        history = fold_duplicates(played)
        before = dict.fromkeys(range(1, number), withdrawn)
        tables = plan(
            "knockout",
            bots,
            seats,
            number,
            SEED,
            history,
            {},
            withdrawn=withdrawn,
            withdrawn_at=before,
        )
        if not tables:
            break
        rounds.append(tables)
        for table in tables:
            void = bool(withdrawn & set(table.seats)) or luck.random() < void_share
            ranks = None if void else tuple(luck.sample(range(1, seats + 1), seats))
            played.append(PlayedTable(number, table.seats, table.seed, table.group, ranks))
        number += 1
        assert number <= knockout_rounds(len(bots), seats) * (1 + REPLAYS) + 1
    history = fold_duplicates(played)
    assert length(bots, seats, {}, history, number - 1) == number - 1  # the league's length
    return number - 1, history, rounds


def test_a_void_heat_is_dealt_again_then_decided_by_the_tiebreak() -> None:
    bots = field_of(8)
    first = plan("knockout", bots, 2, 1, SEED, [], {})
    assert [t.group for t in first] == [f"r1h{n // 2}" for n in range(8)]
    heat0 = set(first[0].seats)
    assert heat0 == {"seed01", "seed08"}
    # Round 1 closes with heat 0's tables void, the other heats played.
    played = [
        PlayedTable(1, t.seats, t.seed, t.group, None if t.group == "r1h0" else (1, 2))
        for t in first
    ]
    again = plan("knockout", bots, 2, 2, SEED, fold_duplicates(played), {})
    assert [set(t.seats) for t in again] == [heat0, heat0]  # only the void heat, dealt again
    assert {t.group for t in again} == {"r2h0"} and again[0].seed != first[0].seed
    played += [PlayedTable(2, t.seats, t.seed, t.group, None) for t in again]
    third = plan("knockout", bots, 2, 3, SEED, fold_duplicates(played), {})
    assert [set(t.seats) for t in third] == [heat0, heat0]
    assert third[0].seed not in (first[0].seed, again[0].seed)
    played += [PlayedTable(3, t.seats, t.seed, t.group, None) for t in third]
    history = fold_duplicates(played)
    # Void three times: the tie-break decides. The better seed goes through ...
    fourth = plan("knockout", bots, 2, 4, SEED, history, {})
    seated = {bot for t in fourth for bot in t.seats}
    assert "seed01" in seated and "seed08" not in seated and len(fourth) == 4  # 2 heats of 2
    # ... unless the arena no longer seats it: then it goes last.
    gone = plan("knockout", bots, 2, 4, SEED, history, {}, withdrawn=frozenset({"seed01"}))
    seated = {bot for t in gone for bot in t.seats}
    assert "seed08" in seated and "seed01" not in seated
    walked = walk(bots, 2, history, 3)
    assert walked.heats[0][0].dealt == (1, 2, 3) and walked.heats[0][0].by_tiebreak
    assert walked.replays == 2
    assert length(bots, 2, {}, history, 3) == knockout_rounds(8, 2) + 2


@settings(max_examples=40, deadline=None)
@given(sizes=fields, seed=st.integers(min_value=0, max_value=2**32))
def test_void_heats_never_stall_the_knockout_and_a_withdrawn_bot_never_goes_through(
    sizes: tuple[int, int], seed: int
) -> None:
    seats, size = sizes
    bots = field_of(size)
    luck = random.Random(seed)
    gone = frozenset(luck.sample(bots, 1))
    rounds_played, history, rounds = play_with_voids(bots, seats, luck, 0.3, gone)
    gone_at = dict.fromkeys(range(1, rounds_played + 2), gone)
    walked = walk(bots, seats, history, rounds_played, gone_at)
    ranking = walked.final
    assert ranking is not None and sorted(ranking) == sorted(rounds[-1][0].seats)
    (bot,) = gone
    for decided in walked.heats:
        for heat in decided:
            if bot in heat.seeds:
                assert heat.order is not None and heat.order[-1] == bot  # never through
    assert rounds_played >= knockout_rounds(size, seats)


def test_a_field_smaller_than_a_table_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot fill"):
        resolve_settings("knockout", field_of(3), 4, {})


def test_a_heat_of_several_deals_plays_each_once_per_seat_order_and_sums_them() -> None:
    bots = field_of(9)
    resolved = resolve_settings("knockout", bots, 3, {"deals": 3})
    assert resolved == {"deals": 3}
    first = plan("knockout", bots, 3, 1, SEED, [], {}, resolved)
    by_group: dict[str | None, list[Table]] = {}
    for table in first:
        by_group.setdefault(table.group, []).append(table)
    assert sorted(by_group) == [f"r1h{h}d{d}" for h in range(3) for d in range(3)]
    assert len({played[0].seed for played in by_group.values()}) == 9  # a deal each
    for played in by_group.values():
        assert len(played) == 3 and len({t.seats for t in played}) == 3
    # Heat 0 (seed01, seed06, seed07): seed07 wins every table of two deals, seed01 of one;
    # by points summed over the three deals seed07 is first.
    winners = {"r1h0d0": "seed01", "r1h0d1": "seed07", "r1h0d2": "seed07"}
    played_tables = []
    for group, tables in by_group.items():
        for t in tables:
            best = winners.get(group or "", t.seats[0])
            ranks = tuple(1 if bot == best else 2 for bot in t.seats)
            played_tables.append(PlayedTable(1, t.seats, t.seed, t.group, ranks))
    history = fold_duplicates(played_tables)
    assert len(history) == 9
    walked = walk(bots, 3, history, 1, None, 3)
    assert walked.heats[0][0].seeds == ("seed01", "seed06", "seed07")
    assert walked.heats[0][0].order is not None and walked.heats[0][0].order[0] == "seed07"
    # One deal of a heat void: the whole heat is dealt again, all three deals, on new deals.
    broken = [t if t.group != "r1h1d2" else PlayedTable(1, t.seats, t.seed, t.group, None)
              for t in played_tables]  # fmt: skip
    again = plan("knockout", bots, 3, 2, SEED, fold_duplicates(broken), {}, resolved)
    assert {t.group for t in again} == {"r2h1d0", "r2h1d1", "r2h1d2"}
    assert length(bots, 3, resolved, fold_duplicates(broken), 1) == knockout_rounds(9, 3) + 1


def test_deals_out_of_range_are_refused() -> None:
    for wrong in (0, 9, "2", True):
        with pytest.raises(ValueError, match="deals"):
            resolve_settings("knockout", field_of(4), 2, {"deals": wrong})
    with pytest.raises(ValueError, match="setting deals"):
        resolve_settings("knockout", field_of(4), 2, {"heats": 2})
