"""What a seat's finish is worth to a learner: one number per seat, from the outcome's ranks."""

from __future__ import annotations

from games.interface import Outcome


def utilities(outcome: Outcome) -> list[float]:
    """Each seat scores +1 for every seat it finished ahead of and -1 for every seat ahead of
    it, divided by the number of other seats: from -1 (last alone) to +1 (first alone), the
    seats' values adding up to zero. A one-seat game against a reference player
    (``detail["reference"]``): +1 for beating its score, -1 for falling short, 0 for a tie;
    0 when the outcome names no reference."""
    ranks = outcome.ranks
    if len(ranks) == 1:
        reference = outcome.detail.get("reference")
        score = reference.get("score") if isinstance(reference, dict) else None
        if isinstance(score, int | float) and not isinstance(score, bool):
            mine = outcome.scores[0]
            return [float((mine > score) - (mine < score))]
        return [0.0]
    others = len(ranks) - 1
    return [sum((mine < theirs) - (mine > theirs) for theirs in ranks) / others for mine in ranks]
