"""Movie Trailer data, read once from the versioned ``catalog.toml`` shipped with the package.

Tiles are known by their number (1..144), films by their catalog id, board slots by their
index in board order; every lookup the engine and the bots need is built here once.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources

SOURCES = ("rulebook", "reconstructed")
BORDERS = ("green", "blue", "yellow", "red")
FACE_DOWN = 0
"""A board slot holding a face-down tile (the Director had no tile for it)."""


@dataclass(frozen=True)
class Tile:
    number: int
    concept: str
    label: str
    border: str
    source: str


@dataclass(frozen=True)
class Category:
    name: str
    label: str
    slots: int
    border: str
    source: str


@dataclass(frozen=True)
class ScoringTile:
    numeral: str
    director: int
    spectator: int
    source: str


@dataclass(frozen=True)
class Film:
    """A catalog film; ``fits[c]`` holds the numbers of the tiles that fit it in category c."""

    index: int
    id: str
    title: str
    year: int
    source: str
    fits: tuple[frozenset[int], ...]


@dataclass(frozen=True)
class Catalog:
    categories: tuple[Category, ...]
    slot_category: tuple[int, ...]
    """Board slots in order, each naming its category's index."""
    scoring: tuple[ScoringTile, ...]
    lengths: dict[int, tuple[int, int]]
    """Players -> (standard turns, short turns)."""
    tiles: tuple[Tile, ...]
    films: tuple[Film, ...]
    film_by_id: dict[str, Film]
    tile_by_number: dict[int, Tile]
    fitting: dict[tuple[int, int], frozenset[int]]
    """(category index, tile number) -> the films (by index) that tile fits in that category."""
    slot_names: tuple[str, ...]
    """Each board slot's category name."""
    version: int = 0
    """The data file's version number."""

    def film(self, film_id: str) -> Film:
        return self.film_by_id[film_id]

    def category_of(self, slot: int) -> Category:
        return self.categories[self.slot_category[slot]]


def _check(entries: Iterable[dict[str, object]], what: str) -> None:
    for entry in entries:
        if entry.get("source") not in SOURCES:
            raise ValueError(f"{what} {entry} has no source among {SOURCES}")


def load(text: str) -> Catalog:
    data = tomllib.loads(text)
    categories = tuple(
        Category(c["name"], c["label"], c["slots"], c["border"], c["source"])
        for c in data["categories"]
    )
    tiles = tuple(
        Tile(t["number"], t["concept"], t["label"], t["border"], t["source"]) for t in data["tiles"]
    )
    for entries, what in ((data["categories"], "category"), (data["tiles"], "tile")):
        _check(entries, what)
    _check(data["films"], "film")
    _check(data["scoring"], "scoring tile")
    number = {tile.concept: tile.number for tile in tiles}
    films = tuple(
        Film(
            index,
            f["id"],
            f["title"],
            f["year"],
            f["source"],
            tuple(frozenset(number[concept] for concept in f[c.name]) for c in categories),
        )
        for index, f in enumerate(data["films"])
    )
    fitting: dict[tuple[int, int], set[int]] = {}
    for film in films:
        for category, fits in enumerate(film.fits):
            for tile in fits:
                fitting.setdefault((category, tile), set()).add(film.index)
    slot_category = tuple(i for i, c in enumerate(categories) for _ in range(c.slots))
    return Catalog(
        categories=categories,
        slot_category=slot_category,
        scoring=tuple(
            ScoringTile(s["tile"], s["director"], s["spectator"], s["source"])
            for s in data["scoring"]
        ),
        lengths={row["players"]: (row["standard"], row["short"]) for row in data["lengths"]},
        tiles=tiles,
        films=films,
        film_by_id={film.id: film for film in films},
        tile_by_number={tile.number: tile for tile in tiles},
        fitting={key: frozenset(value) for key, value in fitting.items()},
        slot_names=tuple(categories[c].name for c in slot_category),
        version=int(data["version"]),
    )


@functools.cache
def catalog() -> Catalog:
    text = resources.files("games.movie_trailer").joinpath("catalog.toml").read_text("utf-8")
    return load(text)


def possible_films(data: Catalog, placements: Sequence[Placement]) -> Iterable[Film]:
    """The films every face-up tile fits (a superset of the consistent ones), from the index."""
    pool: frozenset[int] | None = None
    for placement in placements:
        if placement.tile != FACE_DOWN:
            fits = data.fitting.get(
                (data.slot_category[placement.slot], placement.tile), frozenset()
            )
            pool = fits if pool is None else pool & fits
    if pool is None:
        return data.films
    return (data.films[index] for index in sorted(pool))


@dataclass(frozen=True)
class Placement:
    """One tile laid this turn, in order: ``tile`` is FACE_DOWN when none fitted."""

    slot: int
    tile: int


def consistent(
    film: Film,
    placements: Sequence[Placement],
    slot_category: Sequence[int],
    pending_slot: int | None = None,
) -> bool:
    """Could the Director have laid exactly these tiles for `film`?

    Each face-up tile fits the film in its slot's category; a face-down tile means no unused
    fitting tile was left in that category at the time; a slot awaiting its tile
    (`pending_slot`) still has one.
    """
    laid: set[int] = set()
    for placement in placements:
        fits = film.fits[slot_category[placement.slot]]
        if placement.tile == FACE_DOWN:
            if not fits <= laid:
                return False
        else:
            if placement.tile not in fits:
                return False
            laid.add(placement.tile)
    return pending_slot is None or bool(film.fits[slot_category[pending_slot]] - laid)
