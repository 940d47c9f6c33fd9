"""What tests shared by every game expect of Movie Fight in particular."""

from __future__ import annotations

SEARCH_PINNED: dict[int, dict[str, object]] = {
    0: {"card": 3, "floor": 1, "kind": "play", "side": "audience"},
    9: {"card": 2, "kind": "refresh"},
    29: {"card": 47, "floor": 1, "kind": "play", "side": "screen"},
}
"""search:100's choices at the 1st, 10th, 30th, 60th and 100th decision of more than one move along
a seeded random walk (tests/unit/test_search.py), recorded before the search and the engines
were made faster: a faster search must choose exactly as before. Its 1st choice changed when its
levels became the heuristic's rollouts (`Game.search_levels`)."""
