"""What tests shared by every game expect of Movie Trailer in particular."""

from __future__ import annotations

from games.interface import Options

GUARD_OPTIONS: Options = {"rounds": 1}
"""One round (each seat directs once): search:100's guard against random seats stays seconds
long."""

SEARCH_PINNED: dict[int, dict[str, object]] = {
    0: {"film": "peter-pan-1953", "kind": "film"},
    9: {"kind": "slot", "slot": 8},
    29: {"kind": "tile", "tile": 31},
    59: {"film": "the-notebook-2004", "kind": "guess"},
    99: {"kind": "slot", "slot": 0},
}
"""search:100's choices at the 1st, 10th, 30th, 60th and 100th decision of more than one move along
a seeded random walk (tests/unit/test_search.py), recorded before the search and the engines
were made faster: a faster search must choose exactly as before. Along its speed game. Its 1st
and 100th choices changed when its levels became the heuristic's rollouts
(`Game.search_levels`)."""
