"""Card ranking and the score pad, table-driven, with the rulebook's full scoring example."""

from __future__ import annotations

import pytest

from games.movie_tricks.cards import Card
from games.movie_tricks.scoring import (
    ScorePad,
    best_movie,
    cgi_points,
    family_lines,
    family_outcome,
    rank_order,
    roles_points,
    score_pads,
    soundtrack_points,
    standard_outcome,
    weakest_category,
)
from tests.movie_tricks.helpers import card


def columns(*codes: list[str]) -> list[list[Card]]:
    return [[card(code) for code in column] for column in codes]


# --- card ranking -----------------------------------------------------------------------

R, Y, G, P = "red", "yellow", "green", "purple"


@pytest.mark.parametrize(
    ("plays", "trump", "order"),
    [
        # The rulebook's example: yellow trump, red led; the yellow 2 beats everything.
        ([(R, 4), (G, 10), (Y, 2), (P, 7)], Y, [2, 0, 1, 3]),
        # No trump yet (round 1): the lead suit, then the others by value, suit ignored.
        ([(R, 3), (G, 10), (R, 9), (P, 7)], None, [2, 0, 1, 3]),
        # Trump led: it is lead and trump at once.
        ([(Y, 5), (R, 10), (Y, 8)], Y, [2, 0, 1]),
        # Equal values in the same group: the card played first ranks higher.
        ([(R, 6), (G, 8), (P, 8), (R, 6)], Y, [0, 3, 1, 2]),
        ([(G, 4), (Y, 9), (Y, 9)], Y, [1, 2, 0]),
        # A +3 card lifts a value within its group but never across groups.
        ([(R, 4), (R, 5 + 3), (G, 10)], None, [1, 0, 2]),
        ([(R, 10), (Y, 0 + 3), (G, 10)], Y, [1, 0, 2]),
        # A boosted card tying a later card of the same group still ranks first.
        ([(P, 2), (G, 4 + 3), (G, 7)], None, [0, 1, 2]),
    ],
)
def test_rank_order(plays: list[tuple[str, int]], trump: str | None, order: list[int]) -> None:
    assert rank_order(plays, trump) == order


# --- the score pad lines ----------------------------------------------------------------


def test_best_movie_counts_only_complete_rows_of_four() -> None:
    tableau = columns(
        ["green-10", "purple-9"],
        ["red-9", "yellow-8"],
        ["red-10", "green-8"],
        ["yellow-10"],
    )
    assert best_movie(tableau) == 10 + 9 + 10 + 10
    tableau[3] = []
    assert best_movie(tableau) == 0


def test_best_movie_takes_the_highest_row() -> None:
    tableau = columns(
        ["red-4", "green-10"], ["red-1", "red-9"], ["red-2", "red-10"], ["red-3", "yellow-10"]
    )
    assert best_movie(tableau) == 39


@pytest.mark.parametrize(
    ("codes", "points"),
    [
        ((["red-4", "green-10"], ["red-1"], ["red-2"], ["red-3", "yellow-10"]), 1),
        ((["red-4"], ["red-9"], ["red-10"], ["red-7"]), 4),
        ((["red-4"], ["red-9"], ["red-10"], []), 0),
        (([], [], [], []), 0),
    ],
)
def test_weakest_category(codes: tuple[list[str], ...], points: int) -> None:
    assert weakest_category(columns(*codes)) == points


@pytest.mark.parametrize(
    ("codes", "points"),
    [
        ([], 0),
        (["green-2"], 2 * 3 + 2),
        (["green-2", "green-10"], 2 * 3 + 10),
        (["green-10", "green-2"], 2 * 3 + 2),
        (["purple-1", "red-4", "yellow-3", "red-8"], 2 * 8 + 8),
    ],
)
def test_cgi_is_two_per_bang_plus_the_last_card(codes: list[str], points: int) -> None:
    assert cgi_points([card(code) for code in codes]) == points


@pytest.mark.parametrize(
    ("villains", "heroes", "points"),
    [
        (0, 0, 8),  # no villain and no hero: balanced, and the bonus has no exception
        (1, 0, 3),
        (0, 4, 15),
        (1, 1, 3 + 3 + 8),
        (2, 2, 6 + 6 + 8),
        (3, 3, 10 + 10 + 8),
        (2, 4, 6 + 15),
        (1, 5, 3 + 20),
        (6, 0, 25),
        (9, 0, 25),
        (7, 7, 25 + 25 + 8),
    ],
)
def test_roles_table_with_the_balance_bonus(villains: int, heroes: int, points: int) -> None:
    assert roles_points(villains, heroes) == points


@pytest.mark.parametrize(
    ("notes", "dummy", "points"),
    [
        ([5, 3, 1], None, [18, 12, 0]),
        ([5, 5, 1], None, [18, 18, 0]),
        ([5, 1, 1], None, [18, 0, 0]),
        ([4, 4, 4], None, [18, 18, 18]),
        ([4, 4, 4, 4, 4], None, [18] * 5),
        ([6, 4, 3, 3, 1], None, [18, 12, 12, 12, 0]),
        ([7, 2, 7, 2], None, [18, 0, 18, 0]),
        ([3, 8], None, [0, 18]),
        ([3, 3], None, [18, 18]),
        # Two players against the die: the dummy competes but scores nothing.
        ([3, 8], 6, [0, 18]),
        ([7, 8], 6, [12, 18]),
        ([9, 8], 10, [12, 0]),
        ([5, 5], 5, [18, 18]),
        ([6, 6], 5, [18, 18]),
        ([4, 4], 5, [0, 0]),
        ([4, 9], 9, [0, 18]),
    ],
)
def test_soundtrack(notes: list[int], dummy: int | None, points: list[int]) -> None:
    assert soundtrack_points(notes, dummy) == points


# --- the rulebook's full scoring example --------------------------------------------------

EXAMPLE = {
    "Arnold": columns(
        ["green-2", "yellow-7", "green-10"],
        ["red-9", "purple-10", "yellow-8", "red-5", "green-7"],
        ["red-6", "green-8", "yellow-5", "purple-7"],
        ["purple-4", "red-7"],
    ),
    "Uma": columns(
        ["bonus-03", "purple-5"],
        ["red-1", "purple-6", "yellow-4", "green-3"],
        ["purple-3", "green-4", "bonus-12", "bonus-13"],
        ["green-1", "red-3", "bonus-14"],
    ),
    "Scarlett": columns(
        ["red-4", "yellow-3", "purple-1", "red-8"],
        ["bonus-07", "purple-2", "bonus-05"],
        ["red-10", "yellow-9", "start-3A", "bonus-11"],
        ["green-9", "green-5", "yellow-2"],
    ),
}
EXAMPLE_GOALS = {"Arnold": 6, "Uma": 8, "Scarlett": 5}
EXAMPLE_PADS = {
    "Arnold": ScorePad(32, 11, 18, 16, 15, 0),
    "Uma": ScorePad(18, 7, 11, 29, 23, 18),
    "Scarlett": ScorePad(27, 8, 24, 11, 21, 12),
}


def test_full_scoring_example_totals_and_winner() -> None:
    names = list(EXAMPLE)
    tableaus = [EXAMPLE[name] for name in names]
    used = [c.code for tableau in tableaus for column in tableau for c in column]
    assert len(used) == len(set(used))
    assert not any(card(code).blue for code in used)
    pads = score_pads(tableaus, [EXAMPLE_GOALS[name] for name in names])
    assert dict(zip(names, pads, strict=True)) == EXAMPLE_PADS
    assert [pad.total for pad in pads] == [92, 106, 103]
    outcome = standard_outcome(pads)
    assert outcome.scores == (92, 106, 103)
    assert outcome.ranks == (3, 1, 2)
    assert [names[seat] for seat in outcome.winners] == ["Uma"]
    assert outcome.detail["best movie"] == [32, 18, 27]


# --- ties -------------------------------------------------------------------------------


def test_ties_go_down_the_score_pad() -> None:
    pads = [
        ScorePad(20, 10, 15, 11, 20, 12),
        ScorePad(20, 12, 13, 11, 20, 12),
        ScorePad(25, 5, 15, 11, 20, 12),
        ScorePad(10, 10, 10, 10, 10, 10),
    ]
    assert [pad.total for pad in pads] == [88, 88, 88, 60]
    outcome = standard_outcome(pads)
    assert outcome.ranks == (3, 2, 1, 4)
    assert [tb.name for tb in outcome.tiebreaks] == [
        "best movie",
        "weakest category",
        "CGI",
        "Props",
        "Roles",
        "Soundtrack",
    ]


def test_a_tie_on_every_line_is_a_shared_victory() -> None:
    pad = ScorePad(20, 10, 15, 11, 20, 12)
    outcome = standard_outcome([pad, pad, ScorePad(1, 1, 1, 1, 1, 1)])
    assert outcome.ranks == (1, 1, 3)
    assert outcome.winners == (0, 1)


def test_the_last_line_can_break_a_tie() -> None:
    outcome = standard_outcome([ScorePad(20, 10, 15, 11, 20, 12), ScorePad(20, 10, 15, 11, 32, 0)])
    assert outcome.scores == (88, 88)
    assert outcome.ranks == (2, 1)


# --- family variant ---------------------------------------------------------------------


def test_family_scores_every_complete_movie_and_two_per_symbol() -> None:
    tableau = EXAMPLE["Scarlett"]
    movies, symbols = family_lines(tableau)
    assert movies == 27 + 19 + 9
    symbol_count = sum(len(c.symbols) for column in tableau for c in column)
    assert symbols == 2 * symbol_count
    outcome = family_outcome([tableau, EXAMPLE["Arnold"]])
    assert outcome.scores[0] == movies + symbols
    assert [tb.name for tb in outcome.tiebreaks] == ["movies", "symbols"]
