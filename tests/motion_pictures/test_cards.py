"""The card data: every count the rulebook states, a source on every entry, and a vocabulary
in which each ability and condition type serves many cards."""

from __future__ import annotations

import tomllib
from collections import Counter
from importlib import resources
from typing import Any

import pytest

from games.motion_pictures.cards import (
    AWARD,
    COMMERCIAL,
    CONDITIONS,
    DATA,
    GENRES,
    IMMEDIATE_EFFECTS,
    MOVIE,
    ONGOING_EFFECTS,
    SOURCES,
    TV,
    parse,
)


def raw() -> dict[str, Any]:
    text = resources.files("games.motion_pictures").joinpath("cards.toml").read_text("utf-8")
    return tomllib.loads(text)


def test_versioned_and_every_entry_has_a_source() -> None:
    data = raw()
    assert data["version"] == DATA.version == 1
    for key in ("skills", "specialties", "filmmakers", "projects", "trilogies", "big_goals"):
        assert all(entry["source"] in SOURCES for entry in data[key]), key
    assert all(entry["source"] in SOURCES for entry in data["small_goals"])
    assert set(DATA.sources.values()) <= set(SOURCES)


def test_filmmaker_counts() -> None:
    starting = [f for f in DATA.filmmakers if f.start]
    advanced = [f for f in DATA.filmmakers if not f.start]
    assert (len(DATA.filmmakers), len(starting), len(advanced)) == (86, 24, 62)
    assert len(DATA.specialties) == 6
    for start in range(1, 5):
        assert sorted(f.specialty for f in starting if f.start == start) == sorted(DATA.specialties)


def test_project_counts_and_types() -> None:
    assert len(DATA.projects) == 80
    for era in range(1, 5):
        projects = [p for p in DATA.projects if p.era == era]
        assert len(projects) == 20
        kinds = {p.kind for p in projects}
        assert kinds == {*GENRES, COMMERCIAL, TV, AWARD}
    assert all(p.bonus is not None for p in DATA.projects if p.type == AWARD)
    assert any(p.bonus is not None for p in DATA.projects if p.type == MOVIE)
    assert DATA.rules.era_pile == {2: 11, 3: 15, 4: 19}


def test_trilogies_and_goals() -> None:
    assert len(DATA.trilogies) == 4
    assert all(t.fame == DATA.rules.trilogy_bonus == 5 for t in DATA.trilogies)
    assert Counter(g.big for g in DATA.goals) == {True: 8, False: 10}
    assert {g.condition.type for g in DATA.goals} == set(CONDITIONS)


def test_each_ability_type_serves_several_cards() -> None:
    abilities = [f.ability for f in DATA.filmmakers] + [p.ability for p in DATA.projects]
    effects = Counter(a.effect for a in abilities if a is not None)
    for effect in (*IMMEDIATE_EFFECTS, *ONGOING_EFFECTS):
        assert effects[effect] >= 2, effect
    timings = {f.ability.timing for f in DATA.filmmakers if f.ability is not None}
    assert timings == {"play", "hire", "ongoing"}


def test_vocabulary_is_enforced() -> None:
    data = raw()
    data["filmmakers"][30]["ability"] = {"timing": "play", "effect": "teleport", "amount": 1}
    with pytest.raises(ValueError, match="vocabulary"):
        parse(data)
    data = raw()
    del data["projects"][0]["source"]
    with pytest.raises(ValueError, match="source"):
        parse(data)
