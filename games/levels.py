"""How a game's built-in search levels play it (``Game.search_levels``): plain values, so a
game declares them without importing the search itself."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Rollouts", "Tuning"]


@dataclass(frozen=True)
class Tuning:
    """How much a game's search trusts its heuristic and what a playout's result counts."""

    prior_visits: int = 40
    """Virtual playouts of the heuristic's choice at the root (progressive bias)..."""
    prior_result: float = 0.75
    """...and the result each is worth."""
    margin: float = 0.0
    """Weight of the score margin in a playout's result, the rest being the rank (`_results`)."""
    horizon: int | None = None
    """Rollout moves after which a playout stops, at the first position the game estimates
    (`Game.estimate`), and is scored by that estimate instead of played to the end; None
    plays every playout out."""
    leaf_margin: float = 1.0
    """Weight of the estimated score margin in a stopped playout's result, the rest being the
    rank by estimate."""


@dataclass(frozen=True)
class Rollouts:
    """A budget: ``candidates`` moves, each played out from ``worlds`` determinisations."""

    worlds: int
    candidates: int
    horizon: int | None
    """Moves after which a playout stops at the first position the game estimates; None plays
    every playout to the end."""
    margin: float = 0.5
    """The share of a playout's result taken from the score margin, the rest from the rank."""
