# ruff: noqa: SIM905
"""The 144 Movie Trailer clue tiles, by border colour, as the catalog tool's input.

Rewritten into games/movie_trailer/catalog.toml by `games.movie_trailer.dev.catalog`; the data
file is what ships. ``STATED`` concepts appear in the rulebook's examples; three of them carry the
tile number the rulebook gives (11 galaxy, 40 spaceships, 67 computer).
"""

from __future__ import annotations

GREEN = (
    "desert jungle city new-york spaceships sea island castle small-town house school prison "
    "hospital mountains snow forest ship planet paris london ancient prairie battlefield hotel "
    "highway cave farm palace las-vegas california"
).split()

BLUE = (
    "action adventure animation comedy rom-com drama horror sci-fi fantasy thriller crime war "
    "western musical romance family superhero disaster mystery biopic sports epic road-movie spy "
    "classic"
).split()

RED = (
    "hero villain blonde giant monster robot alien vampire zombie wizard king princess soldier "
    "cowboy detective agent killer gangster police scientist kid teenagers mentor doctor pirate "
    "knight dog toys ensemble lovers boxer musician thief journalist clown devil shark dinosaur "
    "ghost astronaut"
).split()

YELLOW = (
    "galaxy computer car money gun knife drugs fight dance concert sunlight death dove wedding "
    "kiss explosion fire treasure map phone ring sword book clock time-travel dream mirror mask "
    "airplane horse blood storm wave apocalypse sunset sacrifice revenge chase escape trial heist "
    "christmas party baby magic poison race moon camera"
).split()

NUMBERED = {"galaxy": 11, "spaceships": 40, "computer": 67}
"""Tile numbers the rulebook's worked example gives. It also calls the jungle #11, which clashes
with the galaxy; the jungle gets a reconstructed number."""

STATED = frozenset(
    "galaxy computer spaceships jungle desert new-york island castle california house car money "
    "gun knife drugs fight dance concert sunlight death dove christmas adventure horror comedy "
    "animation road-movie musical classic drama war action blonde giant vampire killer police "
    "kid toys ensemble dog hero villain".split()
)

LABELS = {
    "city": "big city skyline",
    "new-york": "New York",
    "spaceships": "spaceships",
    "sea": "open sea",
    "house": "classic American house",
    "snow": "snow and ice",
    "planet": "alien planet",
    "paris": "Paris",
    "london": "London",
    "ancient": "ancient ruins",
    "prairie": "wild-west prairie",
    "las-vegas": "Las Vegas",
    "california": "California",
    "rom-com": "romantic comedy",
    "sci-fi": "science fiction",
    "biopic": "true story",
    "road-movie": "road movie",
    "classic": "black-and-white classic",
    "blonde": "beautiful blonde",
    "wizard": "witch or wizard",
    "agent": "secret agent",
    "kid": "child",
    "teenagers": "teenagers",
    "mentor": "wise old mentor",
    "toys": "toys",
    "ensemble": "ensemble cast",
    "lovers": "lovers",
    "galaxy": "galaxy",
    "gun": "big gun",
    "sunlight": "the sun",
    "dove": "white dove",
    "wave": "giant wave",
    "apocalypse": "end of the world",
    "time-travel": "time machine",
    "race": "race",
    "moon": "the moon",
    "camera": "film camera",
}

COLOURS = {"green": GREEN, "blue": BLUE, "red": RED, "yellow": YELLOW}


def numbered() -> list[tuple[int, str, str]]:
    """(number, concept, colour) for all 144 tiles: the stated numbers, then the rest in order."""
    concepts = [(name, colour) for colour, names in COLOURS.items() for name in names]
    free = iter(n for n in range(1, len(concepts) + 1) if n not in NUMBERED.values())
    return sorted(
        (NUMBERED[name] if name in NUMBERED else next(free), name, colour)
        for name, colour in concepts
    )
