# ruff: noqa: E501
"""Write games/movie_trailer/catalog.toml from the shorthand in `films` and `tiles`.

Run ``python -m games.movie_trailer.dev.catalog``; the data file it writes is what the engine
reads (and what ships). Edit the shorthand and rerun it: tests/movie_trailer checks that it
writes the committed data file byte for byte.
"""

from __future__ import annotations

import re
from pathlib import Path

from games.movie_trailer.dev import films, tiles

OUTPUT = Path(__file__).resolve().parents[1] / "catalog.toml"
"""The data file the engine reads (`games.movie_trailer.catalog`)."""

SUFFIX = {
    "L": "leading-role",
    "F": "genre",
    "P": "place",
    "C": "generic",
    "N": "ending",
    "G": "good",
    "E": "evil",
}
DEFAULT = {"green": "place", "blue": "genre", "yellow": "generic", "red": "leading-role"}
ORDER = ("leading-role", "genre", "place", "generic", "ending", "good", "evil")

HEADER = """\
# Movie Trailer data, version 1: the board, the scoring tiles, the game lengths, the 144 clue
# tiles and the film catalog that makes guessing decidable.
#
# Every entry says where it comes from: "rulebook" when the rulebook states it, "reconstructed"
# when Premiere chose it. A film marked "rulebook" is named by the rulebook; which tiles fit it
# is always Premiere's reading. Written by games/movie_trailer/dev/catalog.py; the engine reads
# this file and hard-codes none of it. docs/rules/movie-trailer.md explains the choices.

version = 1
"""

BOARD = """
# The board's categories in slot order, each with its slot count and the border colour of the
# tiles printed for it. The rulebook's table gives the first five; its worked example also uses
# two generic-clue slots and mentions the evil role.
categories = [
  { name = "leading-role", label = "Leading role", slots = 2, border = "red", source = "rulebook" },
  { name = "genre", label = "Film genre", slots = 2, border = "blue", source = "rulebook" },
  { name = "place", label = "Place", slots = 2, border = "green", source = "rulebook" },
  { name = "generic", label = "Generic clue", slots = 2, border = "yellow", source = "reconstructed" },
  { name = "ending", label = "Ending", slots = 1, border = "yellow", source = "rulebook" },
  { name = "good", label = "Good", slots = 1, border = "red", source = "rulebook" },
  { name = "evil", label = "Evil", slots = 1, border = "red", source = "reconstructed" },
]

# Movie Points on scoring tiles I..VI: the Director's (upper half) and the right guesser's.
# Tile III is stated; the rest follow the stated shape (Director best at III-IV, Spectator
# falling with each tile).
scoring = [
  { tile = "I", director = 2, spectator = 10, source = "reconstructed" },
  { tile = "II", director = 4, spectator = 8, source = "reconstructed" },
  { tile = "III", director = 7, spectator = 6, source = "rulebook" },
  { tile = "IV", director = 7, spectator = 4, source = "reconstructed" },
  { tile = "V", director = 4, spectator = 2, source = "reconstructed" },
  { tile = "VI", director = 2, spectator = 1, source = "reconstructed" },
]

# Turns per game by player count: the rulebook's table.
lengths = [
  { players = 3, standard = 12, short = 9, source = "rulebook" },
  { players = 4, standard = 8, short = 4, source = "rulebook" },
  { players = 5, standard = 10, short = 5, source = "rulebook" },
  { players = 6, standard = 12, short = 6, source = "rulebook" },
  { players = 7, standard = 14, short = 7, source = "rulebook" },
  { players = 8, standard = 16, short = 8, source = "rulebook" },
]
"""


BROADER: dict[str, dict[str, tuple[str, ...]]] = {
    "place": {
        "new-york": ("city",),
        "london": ("city",),
        "paris": ("city",),
        "las-vegas": ("city", "desert"),
        "california": ("city",),
        "ship": ("sea",),
        "island": ("sea",),
        "spaceships": ("planet",),
        "palace": ("castle",),
        "farm": ("small-town", "prairie"),
        "school": ("small-town",),
        "hotel": ("city",),
        "mountains": ("forest",),
        "jungle": ("forest",),
        "ancient": ("desert",),
    },
    "genre": {
        "rom-com": ("romance", "comedy"),
        "superhero": ("action", "fantasy"),
        "spy": ("thriller", "action"),
        "disaster": ("thriller", "action"),
        "crime": ("thriller",),
        "mystery": ("thriller",),
        "biopic": ("drama",),
        "war": ("drama", "action"),
        "epic": ("adventure",),
        "western": ("adventure", "action"),
        "sports": ("drama",),
        "animation": ("family",),
        "musical": ("romance",),
        "road-movie": ("adventure",),
        "horror": ("thriller",),
        "sci-fi": ("adventure",),
        "fantasy": ("adventure",),
    },
    "leading-role": {
        "police": ("hero",),
        "detective": ("hero",),
        "agent": ("hero",),
        "soldier": ("hero",),
        "cowboy": ("hero",),
        "boxer": ("hero",),
        "knight": ("hero",),
        "astronaut": ("hero",),
        "killer": ("villain",),
        "gangster": ("villain",),
        "thief": ("villain",),
        "teenagers": ("kid",),
        "lovers": ("ensemble",),
    },
    "good": {name: ("hero",) for name in tiles.RED if name not in ("hero", "villain")},
    "evil": {name: ("villain",) for name in tiles.RED if name not in ("hero", "villain")},
    "ending": {
        "sacrifice": ("death",),
        "explosion": ("fire",),
        "kiss": ("wedding",),
        "escape": ("chase",),
    },
    "generic": {
        "gun": ("fight",),
        "knife": ("blood",),
        "heist": ("money",),
        "treasure": ("money",),
        "race": ("car",),
        "chase": ("car",),
        "drugs": ("money",),
        "concert": ("dance",),
        "magic": ("dream",),
        "time-travel": ("clock",),
        "spaceships": ("galaxy",),
    },
}
"""A film that a narrow tile fits in a category also fits the broader tiles listed for it
(New York is a big city, a romantic comedy is a comedy, a killer is a villain), which is
what makes a single tile fit dozens of films."""


def slug(title: str, year: int) -> str:
    text = title.lower().replace("&", "and").replace("é", "e").replace("\u2013", "-")
    return f"{re.sub(r'[^a-z0-9]+', '-', text).strip('-')}-{year}"


def parse_film(line: str, colour: dict[str, str]) -> dict[str, object]:
    title, year_text, tokens = (part.strip() for part in line.split("|"))
    year = int(year_text)
    fits: dict[str, list[str]] = {category: [] for category in ORDER}
    for token in tokens.split():
        concept, *marks = token.split("/")
        if concept not in colour:
            raise SystemExit(f"{title}: unknown tile {concept!r}")
        targets = [SUFFIX[m] for m in marks] or [DEFAULT[colour[concept]]]
        for category in targets:
            for name in (concept, *BROADER[category].get(concept, ())):
                if name not in fits[category]:
                    fits[category].append(name)
    return {
        "id": slug(title, year),
        "title": title,
        "year": year,
        "source": "rulebook" if title in films.RULEBOOK else "reconstructed",
        "fits": fits,
    }


def toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render() -> str:
    numbered = tiles.numbered()
    colour = {concept: border for _, concept, border in numbered}
    lines = [HEADER, BOARD]
    lines.append("# The 144 clue tiles: number, concept, border colour.")
    for number, concept, border in numbered:
        label = tiles.LABELS.get(concept, concept.replace("-", " "))
        source = "rulebook" if concept in tiles.STATED else "reconstructed"
        lines.append(
            f"[[tiles]]\nnumber = {number}\nconcept = {toml_string(concept)}\n"
            f"label = {toml_string(label)}\nborder = {toml_string(border)}\n"
            f"source = {toml_string(source)}\n"
        )
    lines.append(
        "# The film catalog: per board category, the tiles (by concept) that fit the film."
    )
    seen: set[str] = set()
    for line in films.FILMS.strip().splitlines():
        film = parse_film(line, colour)
        if film["id"] in seen:
            raise SystemExit(f"duplicate film {film['id']}")
        seen.add(str(film["id"]))
        body = [
            "[[films]]",
            f"id = {toml_string(str(film['id']))}",
            f"title = {toml_string(str(film['title']))}",
            f"year = {film['year']}",
            f"source = {toml_string(str(film['source']))}",
        ]
        fits = film["fits"]
        assert isinstance(fits, dict)
        for category in ORDER:
            listed = ", ".join(toml_string(c) for c in fits[category])
            body.append(f"{category} = [{listed}]")
        lines.append("\n".join(body) + "\n")
    return "\n".join(lines)


if __name__ == "__main__":
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(render(), encoding="utf-8")
    print(f"wrote {OUTPUT}")
