"""When league rounds are due: pure functions of the schedule and the time."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from croniter import croniter

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_EVERY = re.compile(r"^\s*(\d+)\s*([smhd]?)\s*$")


def parse_every(text: str) -> int:
    """Seconds in "30s", "10m", "2h", "1d" or a bare number of seconds."""
    found = _EVERY.match(text)
    if not found or int(found.group(1)) <= 0:
        raise ValueError(f"expected an interval like 30s, 10m, 2h or 1d, not {text!r}")
    return int(found.group(1)) * _UNITS[found.group(2) or "s"]


def check_cron(expression: str) -> str:
    if not croniter.is_valid(expression):
        raise ValueError(f"not a cron expression: {expression!r}")
    return expression


def due_slot(every_seconds: int | None, cron: str | None, now: datetime) -> str | None:
    """The name of the latest schedule slot at `now`, or None for a league without schedule.

    A slot names one firing of the schedule; a round is opened at most once per slot, so two
    ticks in the same slot (or two beats) cannot open two rounds.
    """
    if every_seconds:
        return f"every:{int(now.timestamp()) // every_seconds}"
    if cron:
        fired = croniter(cron, now.astimezone(UTC)).get_prev(datetime)
        return f"cron:{fired.isoformat()}"
    return None
