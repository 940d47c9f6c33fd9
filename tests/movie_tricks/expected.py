"""What tests shared by every game expect of Movie Tricks in particular."""

from __future__ import annotations

SEARCH_PINNED: dict[int, dict[str, object]] = {
    0: {"boost": False, "card": 3, "kind": "play"},
    9: {"boost": False, "card": 18, "kind": "play"},
    29: {"boost": False, "card": 1, "kind": "play"},
    59: {"card": 34, "kind": "draft"},
}
"""search:100's choices at the 1st, 10th, 30th, 60th and 100th decision of more than one move along
a seeded random walk (tests/unit/test_search.py), recorded before the search and the engines
were made faster: a faster search must choose exactly as before. Its first choice changed (card
3 to card 5) when its search was retuned (`Game.search_levels`: a lighter heuristic prior and
the score margin in search:100's result), and back to card 3 when its determinisations' random
swaps came to be drawn with `Rng.pair` instead of `Rng.sample`."""
