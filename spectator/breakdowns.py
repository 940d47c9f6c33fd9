"""How an ended match's final scores were made, in the game's own words (``Game.score_rules``
and ``Game.explain_score``), as the match API, the replay and the live page carry it: the
game's rule sentence, then per seat its player, final score and the parts that make it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.interface import Game, State


def score_breakdown(
    game: Game, final: State, names: Sequence[str], options: dict[str, Any]
) -> dict[str, Any] | None:
    """The breakdown of ``final``'s scores; None while the match has no outcome (a void or
    running match), since a breakdown may name any card."""
    outcome = final.outcome()
    if outcome is None:
        return None
    parts = game.explain_score(final)
    return {
        "rules": game.score_rules(final.players, options),
        "seats": [
            {
                "seat": seat,
                "player": names[seat] if seat < len(names) else f"seat {seat + 1}",
                "score": outcome.scores[seat],
                "parts": [{"points": part.points, "text": part.text} for part in seat_parts],
            }
            for seat, seat_parts in enumerate(parts)
        ],
    }
