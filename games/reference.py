"""A one-seat match read as a two-player result against the built-in it was played against.

A game with solo play (against an automa) names that opponent and its points in the
outcome's ``detail["reference"]``; the game's ``reference_players`` gives each one's fixed
rating. The ladder rates such a match and a league scores it through these functions, so
neither knows which game it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["ReferenceResult", "reference_result", "solo_ranks"]


@dataclass(frozen=True, slots=True)
class ReferenceResult:
    player: str
    """The reference player's name, as in ``Game.reference_players``."""
    score: int
    ranks: tuple[int, int]
    """(seat 0, reference player): 1 for the better of the two, equal when tied."""


def solo_ranks(score: int, reference_score: int, forfeited: bool = False) -> tuple[int, int]:
    """(bot, reference) ranks of a solo match: more points wins, equal points tie, and a bot
    that forfeited lost whatever its points."""
    if forfeited or score < reference_score:
        return 2, 1
    return (1, 2) if score > reference_score else (1, 1)


def reference_result(
    outcome: Any, reference_players: Mapping[str, float]
) -> ReferenceResult | None:
    """The result against the reference player a one-seat plain outcome names, or None when it
    names none, names one the game does not declare, or is not a one-seat outcome."""
    if not isinstance(outcome, dict):
        return None
    detail = outcome.get("detail")
    reference = detail.get("reference") if isinstance(detail, dict) else None
    scores = outcome.get("scores")
    if not isinstance(reference, dict) or not isinstance(scores, list) or len(scores) != 1:
        return None
    name, score = reference.get("player"), reference.get("score")
    if not isinstance(name, str) or name not in reference_players or not isinstance(score, int):
        return None
    forfeited = 0 in (outcome.get("forfeited") or [])
    return ReferenceResult(name, score, solo_ranks(int(scores[0]), score, forfeited))
