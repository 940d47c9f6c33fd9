"""Motion Pictures' cards and rules figures as plain values, named as `MotionPicturesData` in
proto/premiere/v1/motion_pictures.proto, from the parsed ``cards.toml``."""

from __future__ import annotations

import dataclasses
from typing import Any

from games.motion_pictures.cards import DATA, CardData
from games.values import to_plain


def describe(data: CardData = DATA) -> dict[str, Any]:
    rules = dataclasses.asdict(data.rules)
    rules["era_pile"] = [
        {"players": players, "projects": projects}
        for players, projects in sorted(data.rules.era_pile.items())
    ]
    return {
        "wild": data.wild,
        "skills": list(data.skills),
        "specialties": list(data.specialties),
        "filmmakers": to_plain(data.filmmakers),
        "projects": to_plain(data.projects),
        "trilogies": to_plain(data.trilogies),
        "goals": to_plain(data.goals),
        "rules": rules,
        "sources": [{"entry": k, "source": v} for k, v in data.sources.items()],
    }
