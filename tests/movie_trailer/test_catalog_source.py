"""The catalog is generated: `games.movie_trailer.dev.catalog` writes the committed data file
from its shorthand, byte for byte, so the two never drift apart."""

from __future__ import annotations

from importlib import resources

from games.movie_trailer.dev.catalog import OUTPUT, render


def test_regenerating_the_catalog_reproduces_the_committed_file() -> None:
    committed = resources.files("games.movie_trailer").joinpath("catalog.toml").read_bytes()
    assert render().encode("utf-8") == committed


def test_the_generator_writes_the_file_the_engine_reads() -> None:
    shipped = resources.files("games.movie_trailer").joinpath("catalog.toml")
    assert OUTPUT.read_bytes() == shipped.read_bytes()
    assert OUTPUT.name == shipped.name and OUTPUT.parent.name == "movie_trailer"
