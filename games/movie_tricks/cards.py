"""Movie Tricks card data, read once from the versioned ``cards.toml`` shipped with the package.

Every card of every type gets one integer id (playing cards first, then both sides of each
starting card, then bonus cards), so engine state and moves are plain ints.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

CGI = "CGI"
PROPS = "Props"
ROLES = "Roles"
SOUNDTRACK = "Soundtrack"
CATEGORIES: tuple[str, ...] = (CGI, PROPS, ROLES, SOUNDTRACK)
"""The tableau columns, left to right (alphabetical, as the set-up lays them out)."""
COLUMN: dict[str, int] = {name: index for index, name in enumerate(CATEGORIES)}

BANG = "bang"
VILLAIN = "villain"
HERO = "hero"
NOTE = "note"

PLAYING = "playing"
START = "start"
BONUS = "bonus"
PLUS3 = "plus3"

SOURCES = ("rulebook", "reconstructed")


@dataclass(frozen=True, slots=True)
class Card:
    """One face of a card. ``suit`` is None for starting and +3 cards, ``category`` for +3."""

    id: int
    code: str
    kind: str
    suit: str | None
    value: int
    category: str | None
    symbols: tuple[str, ...]
    blue: bool = False
    duplicate: bool = False

    @property
    def column(self) -> int:
        """The tableau column this card goes under."""
        assert self.category is not None
        return COLUMN[self.category]

    def __str__(self) -> str:
        return self.code


@dataclass(frozen=True)
class Setup:
    """What the rulebook's set-up prescribes for one player count."""

    players: int
    blue: bool
    removed_values: tuple[int, ...]
    deal: int
    unused: int
    draw_deck: int
    market: int
    plays: int
    bonus: int
    family_bonus: int
    bonus_picks: int


@dataclass(frozen=True)
class Rules:
    """Figures of the score pad, the bonus display and the die."""

    display: int
    plus3_bonus: int
    bang_points: int
    roles_balance_bonus: int
    soundtrack_most: int
    soundtrack_middle: int
    soundtrack_fewest: int
    family_symbol_points: int
    die: tuple[int, ...]


@dataclass(frozen=True)
class Goal:
    """A props goal card: this many distinct props symbols in the tableau, these stars."""

    need: int
    stars: int


@dataclass(frozen=True)
class CardData:
    version: int
    suits: tuple[str, ...]
    props_kinds: tuple[str, ...]
    cards: tuple[Card, ...]
    playing: tuple[int, ...]
    start: tuple[tuple[int, int], ...]
    bonus: tuple[int, ...]
    goals: tuple[Goal, ...]
    roles_points: tuple[int, ...]
    setup: Mapping[int, Setup]
    rules: Rules
    sources: Mapping[str, str]
    """Card code to "rulebook" or "reconstructed"."""

    def stars(self, need: int) -> int:
        return next(goal.stars for goal in self.goals if goal.need == need)


def _sourced(entry: Mapping[str, Any], where: str) -> Mapping[str, Any]:
    if entry.get("source") not in SOURCES:
        raise ValueError(f"cards.toml: {where} has no valid source (rulebook or reconstructed)")
    return entry


def parse(raw: Mapping[str, Any]) -> CardData:
    """Build the card tables from parsed TOML, refusing entries without a stated source."""
    suits = tuple(_sourced(s, "a suit")["name"] for s in raw["suits"])
    kinds = tuple(_sourced(k, "a props kind")["name"] for k in raw["props_kinds"])
    for category in raw["categories"]:
        _sourced(category, f"category {category['name']}")
    if tuple(c["name"] for c in raw["categories"]) != CATEGORIES:
        raise ValueError("cards.toml: categories must be CGI, Props, Roles, Soundtrack")
    cards: list[Card] = []
    sources: dict[str, str] = {}

    def add(entry: Mapping[str, Any], kind: str, suit: str | None) -> int:
        code = entry["code"]
        sources[code] = _sourced(entry, code)["source"]
        card = Card(
            id=len(cards),
            code=code,
            kind=kind,
            suit=suit,
            value=int(entry.get("value", 0)),
            category=entry.get("category"),
            symbols=tuple(entry.get("symbols", ())),
            blue=bool(entry.get("blue", False)),
            duplicate=bool(entry.get("duplicate", False)),
        )
        if card.category is not None and card.category not in CATEGORIES:
            raise ValueError(f"cards.toml: {code} has unknown category {card.category!r}")
        if suit is not None and suit not in suits:
            raise ValueError(f"cards.toml: {code} has unknown suit {suit!r}")
        cards.append(card)
        return card.id

    playing = tuple(add(e, PLAYING, e["suit"]) for e in raw["playing"])
    sides = [add(e, START, None) for e in raw["start"]]
    start = tuple((sides[i], sides[i + 1]) for i in range(0, len(sides), 2))
    bonus = tuple(
        add(e, PLUS3, None) if e.get("plus3", False) else add(e, BONUS, e["suit"])
        for e in raw["bonus"]
    )
    goals = tuple(
        Goal(int(g["need"]), int(g["stars"]))
        for g in (_sourced(g, "a props goal") for g in raw["goals"])
    )
    rules = _sourced(raw["rules"], "[rules]")
    roles = _sourced(raw["roles"], "[roles]")
    setups = {
        int(s["players"]): Setup(
            players=int(s["players"]),
            blue=bool(s["blue"]),
            removed_values=tuple(s["removed_values"]),
            deal=int(s["deal"]),
            unused=int(s["unused"]),
            draw_deck=int(s["draw_deck"]),
            market=int(s["market"]),
            plays=int(s["plays"]),
            bonus=int(s["bonus"]),
            family_bonus=int(s["family_bonus"]),
            bonus_picks=int(s["bonus_picks"]),
        )
        for s in (_sourced(s, "a set-up row") for s in raw["setup"])
    }
    return CardData(
        version=int(raw["version"]),
        suits=suits,
        props_kinds=kinds,
        cards=tuple(cards),
        playing=playing,
        start=start,
        bonus=bonus,
        goals=goals,
        roles_points=tuple(int(p) for p in roles["points"]),
        setup=setups,
        rules=Rules(
            display=int(rules["display"]),
            plus3_bonus=int(rules["plus3_bonus"]),
            bang_points=int(rules["bang_points"]),
            roles_balance_bonus=int(rules["roles_balance_bonus"]),
            soundtrack_most=int(rules["soundtrack_most"]),
            soundtrack_middle=int(rules["soundtrack_middle"]),
            soundtrack_fewest=int(rules["soundtrack_fewest"]),
            family_symbol_points=int(rules["family_symbol_points"]),
            die=tuple(int(face) for face in rules["die"]),
        ),
        sources=sources,
    )


def load() -> CardData:
    """The packaged card data."""
    text = resources.files("games.movie_tricks").joinpath("cards.toml").read_text("utf-8")
    return parse(tomllib.loads(text))


DATA = load()
CARDS: tuple[Card, ...] = DATA.cards
SUITS: tuple[str, ...] = DATA.suits
