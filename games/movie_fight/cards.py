"""Movie Fight card data, read once from the versioned ``cards.toml`` shipped with the package.

An entertainment card is named by its printed number (1..65), which is also its id in states
and moves. Requirements, conditions and effects are small tagged values; their meaning lives in
`games.movie_fight.rules` (requirements) and `games.movie_fight.effects` (effects).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

WILD = "wild"
AUDIENCE = "audience"
SCREEN = "screen"
ANY = "any"
SOURCES = ("rulebook", "reconstructed")

REQUIREMENT_KINDS = (
    "genre-count",
    "sequence",
    "all",
    "distinct-viewers",
    "upgraded",
    "distinct-genres",
    "tickets",
    "distinct-equipment",
    "equipment-count",
    "wild",
    "bonus-points",
)
EFFECT_KINDS = ("upgrade", "downgrade-upgrade")
EFFECT_NEEDS = ("", "ticket", "viewer", "points", "equipment", "genre")


@dataclass(frozen=True, slots=True)
class Bar:
    """What an upgrade bar adds once the card is upgraded on that side."""

    genres: tuple[str, ...] = ()
    equipment: tuple[str, ...] = ()
    tickets: int = 0
    points: int = 0
    viewers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Requirement:
    """A viewer's scoring requirement, or a cinema floor condition (one tier worth 1).

    ``tiers`` lists (threshold, points) from the lowest threshold up: the highest tier reached
    scores. For "all" and "sequence" the measure is 1 when satisfied, 0 otherwise. ``pattern``
    alternates genres and separators for "sequence" ("romance", "|", "action").
    """

    kind: str
    tiers: tuple[tuple[int, int], ...]
    genre: str = ""
    pattern: tuple[str, ...] = ()
    genres: tuple[str, ...] = ()
    equipment: tuple[str, ...] = ()
    viewers: tuple[str, ...] = ()
    side: str = ANY

    @property
    def best(self) -> int:
        return self.tiers[-1][1]


@dataclass(frozen=True, slots=True)
class Effect:
    """A screen card's effect: upgrade one card of ``side`` meeting ``need``; ``group`` means
    every player may use it (each checking the need on their own cinema)."""

    kind: str
    side: str = ANY
    group: bool = False
    need: str = ""
    genre: str = ""
    viewers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Card:
    """One entertainment card, both sides."""

    number: int
    viewer: str
    requirement: Requirement
    audience_bar: Bar
    genres: tuple[str, ...]
    equipment: tuple[str, ...]
    tickets: int
    points: int
    effect: Effect
    screen_bar: Bar


@dataclass(frozen=True, slots=True)
class Tile:
    """A cinema tile: for each side, the condition of the 2nd and of the 1st floor."""

    number: int
    a: tuple[Requirement, Requirement]
    b: tuple[Requirement, Requirement]
    a_points: int
    b_points: int

    def conditions(self, side: str) -> tuple[Requirement, Requirement]:
        """(1st floor, 2nd floor) conditions of this side."""
        upper, lower = self.a if side == "A" else self.b
        return lower, upper

    def points(self, side: str) -> int:
        return self.a_points if side == "A" else self.b_points


@dataclass(frozen=True, slots=True)
class AutomaCard:
    """One of the automa's seven cards: take offer slot ``take`` (1-based) and play it."""

    name: str
    take: int
    play: str
    activate: bool
    refresh: bool = False


@dataclass(frozen=True, slots=True)
class AutomaLevel:
    level: int
    points: int
    tickets: int


@dataclass(frozen=True, slots=True)
class Goals:
    equipment: tuple[int, ...]
    viewers_from: int
    viewers: tuple[int, ...]
    tickets_small: tuple[int, ...]
    tickets_large: tuple[int, ...]


@dataclass(frozen=True)
class CardData:
    version: int
    genres: tuple[str, ...]
    equipment: tuple[str, ...]
    rounds: int
    offer: int
    cards: Mapping[int, Card]
    tiles: tuple[Tile, ...]
    goals: Goals
    automa_cards: tuple[AutomaCard, ...]
    automa_levels: Mapping[int, AutomaLevel]
    ticket_winner: int
    ticket_loser: int
    sources: Mapping[str, str]
    """Entry name ("card-7/viewer", "tile-2", ...) to "rulebook" or "reconstructed"."""


def _source(entry: Mapping[str, Any], key: str, where: str) -> str:
    value = entry.get(key)
    if value not in SOURCES:
        raise ValueError(f"cards.toml: {where} has no valid {key} (rulebook or reconstructed)")
    return str(value)


def _bar(raw: Mapping[str, Any]) -> Bar:
    return Bar(
        genres=tuple(raw.get("genres", ())),
        equipment=tuple(raw.get("equipment", ())),
        tickets=int(raw.get("tickets", 0)),
        points=int(raw.get("points", 0)),
        viewers=tuple(raw.get("viewers", ())),
    )


def _pattern(text: str) -> tuple[str, ...]:
    parts: list[str] = []
    word = ""
    for char in text:
        if char in "|?":
            parts += [word, char]
            word = ""
        else:
            word += char
    return (*parts, word)


def _requirement(raw: Mapping[str, Any], condition: bool = False) -> Requirement:
    kind = raw["kind"]
    if kind not in REQUIREMENT_KINDS:
        raise ValueError(f"cards.toml: unknown requirement kind {kind!r}")
    tiers = (
        ((int(raw.get("n", 1)), 1),)
        if condition
        else tuple((int(a), int(b)) for a, b in raw["tiers"])
    )
    return Requirement(
        kind=kind,
        tiers=tiers,
        genre=str(raw.get("genre", "")),
        pattern=_pattern(str(raw.get("pattern", ""))) if "pattern" in raw else (),
        genres=tuple(raw.get("genres", ())),
        equipment=tuple(raw.get("equipment", ())),
        viewers=tuple(raw.get("viewers", ())),
        side=str(raw.get("side", ANY)),
    )


def _effect(raw: Mapping[str, Any]) -> Effect:
    effect = Effect(
        kind=raw["kind"],
        side=str(raw.get("side", ANY)),
        group=bool(raw.get("group", False)),
        need=str(raw.get("need", "")),
        genre=str(raw.get("genre", "")),
        viewers=tuple(raw.get("viewers", ())),
    )
    if effect.kind not in EFFECT_KINDS or effect.need not in EFFECT_NEEDS:
        raise ValueError(f"cards.toml: unknown effect {dict(raw)}")
    return effect


def parse(raw: Mapping[str, Any]) -> CardData:
    """Build the tables from parsed TOML, refusing entries without a stated source."""
    sources: dict[str, str] = {}
    cards: dict[int, Card] = {}
    for entry in raw["card"]:
        number = int(entry["number"])
        sources[f"card-{number}/viewer"] = _source(entry, "viewer_source", f"card {number}")
        sources[f"card-{number}/screen"] = _source(entry, "screen_source", f"card {number}")
        cards[number] = Card(
            number=number,
            viewer=str(entry["viewer"]),
            requirement=_requirement(entry["requirement"]),
            audience_bar=_bar(entry["audience_bar"]),
            genres=tuple(entry["genres"]),
            equipment=tuple(entry["equipment"]),
            tickets=int(entry["tickets"]),
            points=int(entry["points"]),
            effect=_effect(entry["effect"]),
            screen_bar=_bar(entry["screen_bar"]),
        )
    tiles = []
    for entry in raw["tile"]:
        number = int(entry["number"])
        sources[f"tile-{number}"] = _source(entry, "source", f"tile {number}")
        a = tuple(_requirement(c, condition=True) for c in entry["a"])
        b = tuple(_requirement(c, condition=True) for c in entry["b"])
        if len(a) != 2 or len(b) != 2:
            raise ValueError(f"cards.toml: tile {number} needs one condition per floor")
        tiles.append(
            Tile(number, (a[0], a[1]), (b[0], b[1]), int(entry["a_points"]), int(entry["b_points"]))
        )
    goals = raw["goals"]
    sources["goals"] = _source(goals, "source", "the goals card")
    automa = raw["automa"]
    levels = {}
    for entry in automa["levels"]:
        level = int(entry["level"])
        sources[f"automa-level-{level}"] = _source(entry, "source", f"automa level {level}")
        levels[level] = AutomaLevel(level, int(entry["points"]), int(entry["tickets"]))
    automa_cards = []
    for entry in automa["cards"]:
        sources[f"automa-{entry['name']}"] = _source(entry, "source", entry["name"])
        automa_cards.append(
            AutomaCard(
                name=str(entry["name"]),
                take=int(entry["take"]),
                play=str(entry["play"]),
                activate=bool(entry["activate"]),
                refresh=bool(entry.get("refresh", False)),
            )
        )
    return CardData(
        version=int(raw["version"]),
        genres=tuple(raw["genres"]),
        equipment=tuple(raw["equipment"]),
        rounds=int(raw["rounds"]),
        offer=int(raw["offer"]),
        cards=cards,
        tiles=tuple(tiles),
        goals=Goals(
            equipment=tuple(goals["equipment"]),
            viewers_from=int(goals["viewers_from"]),
            viewers=tuple(goals["viewers"]),
            tickets_small=tuple(goals["tickets_small"]),
            tickets_large=tuple(goals["tickets_large"]),
        ),
        automa_cards=tuple(automa_cards),
        automa_levels=levels,
        ticket_winner=int(automa["ticket_winner"]),
        ticket_loser=int(automa["ticket_loser"]),
        sources=sources,
    )


def load() -> CardData:
    """The packaged card data."""
    text = resources.files("games.movie_fight").joinpath("cards.toml").read_text("utf-8")
    return parse(tomllib.loads(text))


DATA = load()
CARDS: Mapping[int, Card] = DATA.cards
NUMBERS: tuple[int, ...] = tuple(sorted(CARDS))
GENRES: tuple[str, ...] = DATA.genres
