"""An event's entry rules in words, as the operator's command, the authors' list and the
event page say them (the rules themselves are checked in ``server.entries``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def describe(event: Mapping[str, Any]) -> list[str]:
    """From an ``events`` row (or anything with its fields)."""
    said = ["bots in rated play in this game"]
    if event["hosted_only"]:
        said.append("hosted bots only")
    if event["min_games"]:
        said.append(f"at least {event['min_games']} rated games")
    if event["min_rating"] is not None:
        said.append(f"rating at least {event['min_rating']:g}")
    if event["invited"] is not None:
        said.append("invited accounts only")
    said.append(
        "several bots of one account" if event["allow_same_owner"] else "one bot an account"
    )
    return said
