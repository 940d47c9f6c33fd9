"""Movie Tricks' cards, goals, set-up and scoring as plain values, named as `MovieTricksData`
in proto/premiere/v1/movie_tricks.proto, from the parsed ``cards.toml``."""

from __future__ import annotations

import dataclasses
from typing import Any

from games.movie_tricks.cards import CATEGORIES, DATA, CardData
from games.values import to_plain


def describe(data: CardData = DATA) -> dict[str, Any]:
    return {
        "suits": list(data.suits),
        "props_kinds": list(data.props_kinds),
        "categories": list(CATEGORIES),
        "cards": to_plain(data.cards),
        "playing": list(data.playing),
        "start": [{"a": a, "b": b} for a, b in data.start],
        "bonus": list(data.bonus),
        "goals": to_plain(data.goals),
        "roles_points": list(data.roles_points),
        "setup": [to_plain(setup) for _, setup in sorted(data.setup.items())],
        "rules": to_plain(dataclasses.asdict(data.rules)),
        "sources": [{"entry": k, "source": v} for k, v in data.sources.items()],
    }
