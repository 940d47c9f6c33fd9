"""Movie Trailer's board, scoring tiles, lengths, clue tiles and film catalog as plain values,
named as `MovieTrailerData` in proto/premiere/v1/movie_trailer.proto, from ``catalog.toml``."""

from __future__ import annotations

import dataclasses
from typing import Any

from games.movie_trailer.catalog import Catalog, catalog


def describe(data: Catalog | None = None) -> dict[str, Any]:
    data = data or catalog()
    return {
        "categories": [dataclasses.asdict(c) for c in data.categories],
        "slot_categories": list(data.slot_category),
        "scoring": [dataclasses.asdict(s) for s in data.scoring],
        "lengths": [
            {"players": players, "standard": standard, "short": short}
            for players, (standard, short) in sorted(data.lengths.items())
        ],
        "tiles": [dataclasses.asdict(t) for t in data.tiles],
        "films": [
            {
                "id": film.id,
                "title": film.title,
                "year": film.year,
                "source": film.source,
                "fits": [
                    {"category": category.name, "tiles": sorted(fits)}
                    for category, fits in zip(data.categories, film.fits, strict=True)
                ],
            }
            for film in data.films
        ],
    }
