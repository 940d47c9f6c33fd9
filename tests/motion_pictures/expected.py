"""What tests shared by every game expect of Motion Pictures in particular."""

from __future__ import annotations

SEARCH_PINNED: dict[int, dict[str, object]] = {
    0: {"card": 7, "kind": "shoot", "slot": 0},
    9: {"card": 10, "kind": "shoot", "slot": 0},
    29: {"card": 6, "kind": "discard"},
    59: {"card": 2, "kind": "discard"},
}
"""search:100's choices at the 1st, 10th, 30th, 60th and 100th decision of more than one move along
a seeded random walk (tests/unit/test_search.py), recorded before the search and the engines
were made faster: a faster search must choose exactly as before. Its 10th choice changed when
its levels became the heuristic's rollouts (`Game.search_levels`)."""
