"""The duplicate Swiss league format: Swiss pairing (on each group's one result so far), every
table then played as a duplicate group of its bots."""

from __future__ import annotations

from workers.formats.declaration import LeagueFormat, RoundRequest
from workers.formats.declaration import Table as LeagueTable
from workers.formats.duplicate import as_duplicate_groups
from workers.formats.swiss import plan_swiss, swiss_length

__all__ = ["FORMAT"]


def _plan(request: RoundRequest) -> list[LeagueTable]:
    return as_duplicate_groups(request, plan_swiss(request), "duplicate-swiss")


FORMAT = LeagueFormat("duplicate-swiss", _plan, swiss_length, swiss_byes=True, duplicate=True)
