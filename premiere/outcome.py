"""A match's outcome on the wire, from its plain (JSON) form: the one conversion the arbiter
(live and stored matches) and the ladder (match lists) share.

The plain form is what the arbiter stores in ``matches.outcome``: ``scores``, ``ranks``,
``forfeited`` and ``tiebreaks`` (each ``name``, ``values``, ``higher_wins``), plus a game's own
``detail``, which stays off the wire except for a one-seat match's opponent
(``detail["reference"]``), which becomes ``Outcome.solo``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.reference import solo_ranks
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
    detail = outcome.get("detail")
    reference = detail.get("reference") if isinstance(detail, Mapping) else None
    if isinstance(reference, Mapping) and len(message.scores) == 1:
        score = int(reference.get("score", 0))
        ranks = solo_ranks(message.scores[0], score, 0 in message.forfeited)
        message.solo.opponent = str(reference.get("player", ""))
        message.solo.opponent_score = score
        message.solo.won = ranks == (1, 2)
        message.solo.tied = ranks == (1, 1)
    return message
