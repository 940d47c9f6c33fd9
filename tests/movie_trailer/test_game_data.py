"""Movie Trailer's data on the wire (GameData) is its data file, entry for entry, and its digest
changes with any change to that file (tests/wire/test_game_data.py checks what every game
shares)."""

from __future__ import annotations

from games.movie_trailer import catalog as movie_trailer_catalog
from games.movie_trailer import data as movie_trailer_data
from premiere.game_data import game_data
from premiere_wire import movie_trailer_pb2
from tests.wire.game_data_checks import assert_edit_changes_digest, data_file, edited_file


def check_served(served: movie_trailer_pb2.MovieTrailerData) -> None:
    raw = data_file("games.movie_trailer", "catalog.toml")
    assert [(c.name, c.slots, c.border) for c in served.categories] == [
        (c["name"], c["slots"], c["border"]) for c in raw["categories"]
    ]
    assert len(served.slot_categories) == sum(c["slots"] for c in raw["categories"])
    assert [(s.numeral, s.director, s.spectator) for s in served.scoring] == [
        (s["tile"], s["director"], s["spectator"]) for s in raw["scoring"]
    ]
    assert [(n.players, n.standard, n.short) for n in served.lengths] == [
        (n["players"], n["standard"], n["short"]) for n in raw["lengths"]
    ]
    assert [(t.number, t.concept, t.label, t.border) for t in served.tiles] == [
        (t["number"], t["concept"], t["label"], t["border"]) for t in raw["tiles"]
    ]
    number = {t["concept"]: t["number"] for t in raw["tiles"]}
    assert len(served.films) == len(raw["films"])
    for film, entry in zip(served.films, raw["films"], strict=True):
        assert (film.id, film.title, film.year) == (entry["id"], entry["title"], entry["year"])
        assert {f.category: list(f.tiles) for f in film.fits} == {
            c["name"]: sorted(number[concept] for concept in entry[c["name"]])
            for c in raw["categories"]
        }


def test_the_served_data_is_the_data_file() -> None:
    check_served(game_data("movie-trailer").movie_trailer)


def test_a_change_to_the_data_file_changes_the_digest() -> None:
    assert_edit_changes_digest(
        "movie-trailer",
        lambda: movie_trailer_data.describe(
            movie_trailer_catalog.load(
                edited_file(
                    "games.movie_trailer",
                    "catalog.toml",
                    'title = "King Kong"',
                    'title = "King Kong (restored)"',
                )
            )
        ),
    )
