"""The shipped data states what the rulebook states and makes guessing decidable."""

from __future__ import annotations

from collections import Counter
from statistics import mean

from games.movie_trailer.catalog import SOURCES, catalog


def test_144_tiles_numbered_once_in_four_border_colours() -> None:
    data = catalog()
    assert sorted(t.number for t in data.tiles) == list(range(1, 145))
    assert len({t.concept for t in data.tiles}) == 144
    assert set(Counter(t.border for t in data.tiles)) == {"green", "blue", "yellow", "red"}
    by_number = data.tile_by_number
    assert (by_number[11].concept, by_number[40].concept, by_number[67].concept) == (
        "galaxy",
        "spaceships",
        "computer",
    )
    assert all(t.source in SOURCES for t in data.tiles)


def test_board_has_the_table_categories_plus_generic_and_evil() -> None:
    slots = {c.name: c.slots for c in catalog().categories}
    assert slots == {
        "leading-role": 2,
        "genre": 2,
        "place": 2,
        "generic": 2,
        "ending": 1,
        "good": 1,
        "evil": 1,
    }
    assert len(catalog().slot_category) == 11


def test_scoring_tiles_keep_the_stated_shape() -> None:
    tiles = catalog().scoring
    assert [t.numeral for t in tiles] == ["I", "II", "III", "IV", "V", "VI"]
    assert (tiles[2].director, tiles[2].spectator) == (7, 6)
    assert tiles[2].source == "rulebook"
    best = max(t.director for t in tiles)
    assert {i for i, t in enumerate(tiles) if t.director == best} <= {2, 3}
    assert tiles[2].director == best
    spectator = [t.spectator for t in tiles]
    assert spectator == sorted(spectator, reverse=True) and len(set(spectator)) == 6


def test_lengths_are_the_rulebook_table() -> None:
    assert catalog().lengths == {
        3: (12, 9),
        4: (8, 4),
        5: (10, 5),
        6: (12, 6),
        7: (14, 7),
        8: (16, 8),
    }


def test_catalog_has_hundreds_of_films_sharing_their_tiles() -> None:
    data = catalog()
    assert len(data.films) >= 300
    assert len({f.id for f in data.films}) == len(data.films)
    assert all(f.source in SOURCES for f in data.films)
    assert {f.title for f in data.films if f.source == "rulebook"} >= {
        "King Kong",
        "Dracula",
        "Toy Story",
        "The Blues Brothers",
        "Pulp Fiction",
        "Avatar",
    }
    genre = [c.name for c in data.categories].index("genre")
    assert all(film.fits[genre] for film in data.films)
    films_per_tile = Counter(
        (category, tile)
        for film in data.films
        for category, fits in enumerate(film.fits)
        for tile in fits
    )
    used = {tile for _, tile in films_per_tile}
    assert used == set(data.tile_by_number), "every tile fits some film"
    assert mean(films_per_tile.values()) >= 10, "a tile should fit many films"
