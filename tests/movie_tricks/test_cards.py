"""The card data: every count and figure the rulebook states, and sane reconstructions."""

from __future__ import annotations

import itertools
import tomllib
from collections import Counter
from importlib import resources
from typing import Any

import pytest

from games.movie_tricks.cards import (
    BONUS,
    CARDS,
    CATEGORIES,
    DATA,
    PLAYING,
    PLUS3,
    SOURCES,
    START,
    parse,
)

PLAYING_CARDS = [CARDS[i] for i in DATA.playing]
BONUS_CARDS = [CARDS[i] for i in DATA.bonus]


def raw() -> dict[str, Any]:
    text = resources.files("games.movie_tricks").joinpath("cards.toml").read_text("utf-8")
    return tomllib.loads(text)


def test_data_file_is_versioned_and_every_entry_has_a_source() -> None:
    data = raw()
    assert data["version"] == DATA.version == 1
    for key in ("suits", "categories", "props_kinds", "setup", "playing", "start", "bonus"):
        entries = data[key]
        assert isinstance(entries, list)
        assert all(entry["source"] in SOURCES for entry in entries), key
    for key in ("rules", "roles"):
        table = data[key]
        assert isinstance(table, dict)
        assert table["source"] in SOURCES
    assert all(goal["source"] == "rulebook" for goal in data["goals"])
    assert set(DATA.sources) == {card.code for card in CARDS}


def test_an_entry_without_a_source_is_refused() -> None:
    data = raw()
    playing = data["playing"]
    assert isinstance(playing, list)
    del playing[0]["source"]
    with pytest.raises(ValueError, match="source"):
        parse(data)


def test_52_playing_cards_in_4_suits_of_13_valued_1_to_10() -> None:
    assert len(PLAYING_CARDS) == 52
    assert all(card.kind == PLAYING for card in PLAYING_CARDS)
    assert Counter(card.suit for card in PLAYING_CARDS) == {suit: 13 for suit in DATA.suits}
    assert {card.value for card in PLAYING_CARDS} == set(range(1, 11))
    assert len({card.code for card in CARDS}) == len(CARDS)


def test_without_the_12_blue_cards_each_suit_holds_1_to_10_once() -> None:
    blue = [card for card in PLAYING_CARDS if card.blue]
    assert len(blue) == 12
    assert Counter(card.suit for card in blue) == {suit: 3 for suit in DATA.suits}
    for suit in DATA.suits:
        values = sorted(c.value for c in PLAYING_CARDS if c.suit == suit and not c.blue)
        assert values == list(range(1, 11))


def test_the_duplicate_marker_is_on_exactly_the_cards_sharing_suit_and_value() -> None:
    pairs = Counter((card.suit, card.value) for card in PLAYING_CARDS)
    for card in PLAYING_CARDS:
        assert card.duplicate == (pairs[card.suit, card.value] > 1), card.code
    assert sum(card.duplicate for card in PLAYING_CARDS) == 24


def test_every_playing_card_has_a_category_and_symbols_of_that_category() -> None:
    symbol_of = {"CGI": {"bang"}, "Roles": {"villain", "hero"}, "Soundtrack": {"note"}}
    symbol_of["Props"] = set(DATA.props_kinds)
    for card in [*PLAYING_CARDS, *BONUS_CARDS, *(CARDS[i] for pair in DATA.start for i in pair)]:
        if card.kind == PLUS3:
            continue
        assert card.category in CATEGORIES, card.code
        assert set(card.symbols) <= symbol_of[card.category], card.code
    assert Counter(card.category for card in PLAYING_CARDS) == {c: 13 for c in CATEGORIES}


def test_props_symbols_come_in_at_least_10_kinds_and_every_kind_is_printed() -> None:
    assert len(set(DATA.props_kinds)) == len(DATA.props_kinds) >= 10
    printed = {s for card in CARDS if card.category == "Props" for s in card.symbols}
    assert printed == set(DATA.props_kinds)
    for card in CARDS:
        if card.category == "Props":
            assert len(set(card.symbols)) == len(card.symbols) >= 1, card.code


def test_five_double_sided_starting_cards() -> None:
    assert len(DATA.start) == 5
    faces = [CARDS[i] for pair in DATA.start for i in pair]
    assert len(faces) == len(set(faces)) == 10
    assert all(face.kind == START and face.suit is None for face in faces)


def test_21_bonus_cards_low_values_with_one_or_two_symbols_and_some_plus3() -> None:
    assert len(BONUS_CARDS) == 21
    plus3 = [card for card in BONUS_CARDS if card.kind == PLUS3]
    regular = [card for card in BONUS_CARDS if card.kind == BONUS]
    assert 1 <= len(plus3) < len(regular)
    assert all(card.suit is None and card.category is None for card in plus3)
    assert {card.value for card in regular} == {0, 2, 3, 4}
    assert all(1 <= len(card.symbols) <= 2 for card in regular)
    assert all(card.suit in DATA.suits for card in regular)


def test_props_goal_table() -> None:
    table = [(goal.need, goal.stars) for goal in DATA.goals]
    assert table == [(3, 4), (4, 7), (5, 11), (6, 16), (7, 22), (8, 29), (9, 37), (10, 46)]


def test_score_pad_and_die_figures() -> None:
    rules = DATA.rules
    assert (rules.soundtrack_most, rules.soundtrack_middle, rules.soundtrack_fewest) == (18, 12, 0)
    assert rules.roles_balance_bonus == 8
    assert rules.bang_points == 2
    assert rules.family_symbol_points == 2
    assert rules.plus3_bonus == 3
    assert rules.display == 2
    assert rules.die == (5, 6, 7, 8, 9, 10)


def test_roles_table_grows_with_the_count() -> None:
    points = DATA.roles_points
    assert points[0] == 0
    assert all(a < b for a, b in itertools.pairwise(points))


@pytest.mark.parametrize(
    ("players", "in_play", "deal", "unused", "draw_deck", "bonus", "family_bonus"),
    [
        (2, 32, 10, 0, 12, 8, 7),
        (3, 40, 13, 1, 0, 14, 13),
        (4, 52, 13, 0, 0, 14, 13),
        (5, 52, 10, 2, 0, 21, 20),
    ],
)
def test_set_up_table_adds_up(
    players: int,
    in_play: int,
    deal: int,
    unused: int,
    draw_deck: int,
    bonus: int,
    family_bonus: int,
) -> None:
    setup = DATA.setup[players]
    cards = [
        c
        for c in PLAYING_CARDS
        if (setup.blue or not c.blue) and c.value not in setup.removed_values
    ]
    assert len(cards) == in_play == players * setup.deal + setup.unused + setup.draw_deck
    assert (setup.deal, setup.unused, setup.draw_deck) == (deal, unused, draw_deck)
    assert (setup.bonus, setup.family_bonus) == (bonus, family_bonus)
    assert setup.market == (5 if players == 2 else players)
