"""What tests shared by every game expect of Magic Trick in particular."""

from __future__ import annotations

SEARCH_PINNED: dict[int, dict[str, object]] = {
    0: {"kind": "sort", "rank": 6, "suit": "yellow"},
    9: {"kind": "sort", "rank": 5, "suit": "yellow"},
    29: {"kind": "play", "slot": 2},
    59: {"kind": "sort", "rank": 6, "suit": "blue"},
    99: {"kind": "sort", "rank": 7, "suit": "black"},
}
"""search:100's choices at the 1st, 10th, 30th, 60th and 100th decision of more than one move along
a seeded random walk (tests/unit/test_search.py), recorded before the search and the engines
were made faster: a faster search must choose exactly as before."""
