"""The card data respects every figure the rulebook states, and every entry names its source."""

from __future__ import annotations

import tomllib
from collections import Counter
from importlib import resources

import pytest

from games.movie_fight.cards import (
    CARDS,
    DATA,
    EFFECT_KINDS,
    REQUIREMENT_KINDS,
    SOURCES,
    WILD,
    parse,
)


def raw_data() -> dict[str, object]:
    text = resources.files("games.movie_fight").joinpath("cards.toml").read_text("utf-8")
    return tomllib.loads(text)


def test_component_counts() -> None:
    assert sorted(CARDS) == list(range(1, 66))
    assert len(DATA.tiles) == 5
    assert len(DATA.automa_cards) == 7
    assert sum(card.refresh for card in DATA.automa_cards) == 1
    assert DATA.rounds == 12
    assert DATA.offer == 3


def test_genres_equipment_and_vocabulary() -> None:
    assert set(DATA.genres) == {"romance", "action", "mystery", "sci-fi", "fantasy"}
    assert set(DATA.equipment) == {"3d", "subtitles", "speakers", "vibraseat"}
    for card in CARDS.values():
        assert set(card.genres) <= {*DATA.genres, WILD}
        assert set(card.equipment) <= set(DATA.equipment)
        assert card.requirement.kind in REQUIREMENT_KINDS
        assert card.effect.kind in EFFECT_KINDS
        assert card.requirement.tiers == tuple(sorted(card.requirement.tiers))
        assert card.genres or card.equipment, f"card {card.number} shows nothing on its screen"
    assert any(WILD in card.genres for card in CARDS.values())
    # Every effect family of the rulebook's overview is present.
    families = Counter(
        (c.effect.kind, c.effect.side, c.effect.group, c.effect.need) for c in CARDS.values()
    )
    assert len(families) == 11


def test_stated_figures() -> None:
    assert [tile.a_points for tile in DATA.tiles] == [20] * 5
    assert [tile.b_points for tile in DATA.tiles] == [25] * 5
    levels = DATA.automa_levels
    assert [levels[n].points for n in (1, 2, 3, 4)] == [15, 20, 25, 30]
    assert levels[2].tickets == levels[1].tickets + 1
    assert levels[3].tickets == levels[4].tickets == 3
    assert (DATA.ticket_winner, DATA.ticket_loser) == (8, 4)
    goals = DATA.goals
    assert goals.equipment == (1, 3, 6, 10)
    assert goals.viewers_from == 3 and goals.viewers == (5, 8, 10, 11)
    assert goals.tickets_small == (8, 4, 1)
    assert goals.tickets_large[0] == 12 and goals.tickets_large[-1] == 1
    assert len(goals.tickets_large) == 4


def test_rulebook_viewers_are_marked_stated() -> None:
    stated = [n for n in CARDS if DATA.sources[f"card-{n}/viewer"] == "rulebook"]
    assert len(stated) == 10
    assert CARDS[3].requirement.pattern == ("romance", "?", "mystery")
    assert CARDS[3].requirement.best == 9
    assert all(DATA.sources[f"card-{n}/screen"] == "reconstructed" for n in CARDS)
    assert set(DATA.sources.values()) <= set(SOURCES)


def test_entries_without_a_source_are_refused() -> None:
    raw = raw_data()
    cards = raw["card"]
    assert isinstance(cards, list)
    del cards[0]["viewer_source"]
    with pytest.raises(ValueError, match="viewer_source"):
        parse(raw)


def test_unknown_vocabulary_is_refused() -> None:
    raw = raw_data()
    cards = raw["card"]
    assert isinstance(cards, list)
    cards[0]["requirement"]["kind"] = "telepathy"
    with pytest.raises(ValueError, match="telepathy"):
        parse(raw)
