"""A match's outcome on the wire, from its plain (JSON) form: the one conversion the arbiter
(live and stored matches) and the ladder (match lists) share.

The plain form is what the arbiter stores in ``matches.outcome``: ``scores``, ``ranks``,
``forfeited`` and ``tiebreaks`` (each ``name``, ``values``, ``higher_wins``), plus a game's own
``detail``, which stays off the wire.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from premiere_wire import outcome_pb2


def outcome_to_wire(outcome: Mapping[str, Any]) -> outcome_pb2.Outcome:
    message = outcome_pb2.Outcome(
        scores=[int(score) for score in outcome.get("scores", [])],
        ranks=[int(rank) for rank in outcome.get("ranks", [])],
        forfeited=[int(seat) for seat in outcome.get("forfeited", [])],
    )
    for tiebreak in outcome.get("tiebreaks", []):
        message.tiebreaks.add(
            name=str(tiebreak.get("name", "")),
            values=[int(value) for value in tiebreak.get("values", [])],
            higher_wins=bool(tiebreak.get("higher_wins", False)),
        )
    return message
