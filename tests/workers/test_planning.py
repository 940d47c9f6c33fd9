"""League planning: every round a fresh deal, whatever the format and the number of rounds."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

from workers import formats
from workers.formats import registry
from workers.formats.declaration import Table
from workers.planning import check, default_rounds, plan, standings

BOTS = ("ada", "grace", "edsger", "barbara", "donald")


def play(format: str, players: int, rounds: int) -> list[list[Table]]:
    """Plan `rounds` rounds, each table finished with seat order as the ranks."""
    history: list[tuple[int, tuple[str, ...], tuple[int, ...]]] = []
    planned = []
    bots = (
        BOTS
        if not registry.get(format).head_to_head
        else ("ada", "grace", *[f"builtin:b{i}" for i in range(2, players)])
    )
    for number in range(1, rounds + 1):
        tables = plan(format, bots, players, number, "league-seed", history, {})
        planned.append(tables)
        for table in tables:
            history.append((number, table.seats, tuple(range(1, len(table.seats) + 1))))
    return planned


@pytest.mark.parametrize("format", registry.names())
def test_no_two_tables_of_a_league_share_a_deal(format: str) -> None:
    """Past one cycle too: a repeated seating still gets a deal of its own."""
    cycle = formats.cycle_length(len(BOTS), 3)
    planned = play(format, 3, 3 * cycle)
    seeds = [table.seed for tables in planned for table in tables]
    entry = registry.get(format)
    if entry.duplicate or entry.head_to_head:
        # A duplicate group (an SPRT pair) plays one deal with the seats rotated: one seed per
        # group.
        groups = {(table.group, table.seed) for tables in planned for table in tables}
        assert len({group for group, _ in groups}) == len(groups)
        assert len({seed for _, seed in groups}) == len(groups)
    else:
        assert len(set(seeds)) == len(seeds)


def test_round_robin_repeats_its_balanced_seating_with_new_deals() -> None:
    cycle = formats.cycle_length(len(BOTS), 2)
    planned = play("round-robin", 2, 2 * cycle)
    first, second = planned[:cycle], planned[cycle:]
    seatings = [sorted(t.seats for t in tables) for tables in first]
    assert [sorted(t.seats for t in tables) for tables in second] == seatings
    assert {t.seed for r in first for t in r}.isdisjoint({t.seed for r in second for t in r})


def test_plan_is_a_function_of_its_inputs() -> None:
    assert play("swiss", 2, 4) == play("swiss", 2, 4)
    assert play("round-robin", 3, 12) == play("round-robin", 3, 12)


def test_every_format_is_registered_with_its_natural_length() -> None:
    modules = (
        importlib.import_module(f"workers.formats.{found.name}")
        for found in pkgutil.iter_modules(formats.__path__)
    )
    declared = [module.FORMAT.name for module in modules if hasattr(module, "FORMAT")]
    assert declared and sorted(registry.names()) == sorted(declared)
    assert default_rounds("round-robin", 5, 3) == formats.cycle_length(5, 3)
    assert default_rounds("swiss", 5, 2) == 3
    assert default_rounds("gauntlet", 5, 2) == 1
    assert default_rounds("ladder", 5, 2) is None
    assert default_rounds("sprt", 2, 2, {"max_pairs": 100, "pairs_per_round": 8}) == 13
    assert default_rounds("duplicate-swiss", 5, 2) == 3
    assert default_rounds("knockout", 9, 3) == 2  # three heats of 3, then their winners' final


def test_check_refuses_what_cannot_be_planned() -> None:
    with pytest.raises(ValueError, match="unknown format 'pyramid'"):
        check("pyramid", BOTS, 2)
    with pytest.raises(ValueError, match="twice"):
        check("swiss", ("a", "a"), 2)
    with pytest.raises(ValueError, match="cannot fill"):
        check("round-robin", ("a", "b"), 3)
    with pytest.raises(ValueError, match="seat 1 or more"):
        check("round-robin", ("a", "b"), 0)
    with pytest.raises(ValueError, match="2 or more seats"):
        check("sprt", ("a", "b"), 1)


@pytest.mark.parametrize(
    "format", [name for name in registry.names() if not registry.get(name).head_to_head]
)
def test_solo_rounds_seat_every_bot_alone_on_a_deal_of_its_own(format: str) -> None:
    planned = play(format, 1, 3)
    for tables in planned:
        assert [table.seats for table in tables] == [(bot,) for bot in BOTS]
    seeds = [table.seed for tables in planned for table in tables]
    assert len(set(seeds)) == len(seeds)
    assert default_rounds(format, len(BOTS), 1) == (None if registry.get(format).endless else 1)


def test_solo_standings_score_results_against_the_reference_and_list_only_the_bots() -> None:
    history = [
        (1, ("ada", "builtin:automa:1"), (1, 2)),
        (1, ("grace", "builtin:automa:1"), (2, 1)),
        (1, ("edsger", "builtin:automa:1"), (1, 1)),
        (2, ("ada", "builtin:automa:1"), (1, 2)),
        (2, ("grace", "builtin:automa:1"), (1, 2)),
        (2, ("edsger", "builtin:automa:1"), (1, 2)),
    ]
    table = standings("round-robin", ("ada", "grace", "edsger"), history)
    assert [(row["rank"], row["bot"], row["points"]) for row in table] == [
        (1, "ada", 2.0),
        (2, "edsger", 1.5),
        (3, "grace", 1.0),
    ]


def played(tables: list[Table], ranks: list[tuple[int, ...] | None]) -> list:
    from workers.planning import PlayedTable

    return [
        PlayedTable(1, table.seats, table.seed, table.group, table_ranks)
        for table, table_ranks in zip(tables, ranks, strict=True)
    ]


def test_a_duplicate_group_is_one_result_in_the_standings() -> None:
    """The group's three tables fold into one result ranked by summed points, as
    `formats.score_duplicate` ranks it; standings count one game per bot, not three."""
    from workers.planning import fold_duplicates, standings

    tables = plan("duplicate", BOTS[:3], 3, 1, "league-seed", [], {})
    assert len(tables) == 3 and len({t.group for t in tables}) == 1
    # Whoever holds seat 0 wins, except that "ada" always finishes last.
    ranks = []
    for table in tables:
        order = [s for s in table.seats if s != "ada"] + ["ada"]
        ranks.append(tuple(order.index(seat) + 1 for seat in table.seats))
    history = fold_duplicates(played(tables, ranks))
    group = formats.score_duplicate(
        [formats.Table(t.seats, bytes.fromhex(t.seed), t.group) for t in tables], ranks
    )
    assert history == [(1, tuple(map(str, group.bots)), group.ranks)]
    assert group.bots[-1] == "ada"
    rows = standings("duplicate", BOTS[:3], history)
    assert {row["bot"]: row["games"] for row in rows} == {b: 1 for b in BOTS[:3]}
    assert rows[-1]["bot"] == "ada"


def test_an_unfinished_or_broken_duplicate_group_counts_for_nothing() -> None:
    from workers.planning import fold_duplicates

    tables = plan("duplicate", BOTS[:3], 3, 1, "league-seed", [], {})
    assert fold_duplicates(played(tables, [(1, 2, 3), None, (1, 2, 3)])) == []


def test_duplicate_swiss_plays_every_swiss_table_as_a_whole_group() -> None:
    from workers.planning import fold_duplicates

    bots = BOTS[:4]
    history: list[tuple[int, tuple[str, ...], tuple[int, ...]]] = []
    for number in (1, 2):
        tables = plan("duplicate-swiss", bots, 2, number, "league-seed", history, {})
        groups: dict[str | None, list[Table]] = {}
        for table in tables:
            groups.setdefault(table.group, []).append(table)
        assert len(groups) == 2 and all(len(g) == 2 for g in groups.values())
        for group in groups.values():
            assert len({t.seed for t in group}) == 1
            assert {t.seats for t in group} == {group[0].seats, group[0].seats[::-1]}
        ranks: list[tuple[int, ...] | None] = [(1, 2), (2, 1)] * 2
        history += fold_duplicates(played(tables, ranks))
    assert len(history) == 4
