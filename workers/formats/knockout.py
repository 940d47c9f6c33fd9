"""Knockout: heats of N seats, the top of each heat going through, until one heat is left.

The league's bots, in the order given, are the seeds (seed 1 first; an event lists its entrants
by their rating in the game, strongest first). Each round:

- the field still in is cut into ``h`` heats of N bots, and the ``b`` strongest seeds sit the
  round out with a bye and go through: ``h`` is the most heats that leave at least N bots for
  the next round (``bracket``), so a field that does not fill the bracket is evened out by
  byes, and no round ever leaves fewer than N;
- the playing seeds are dealt to the heats in a serpentine (1 to h, then h back to 1, ...), so
  the ``h`` strongest playing seeds are in ``h`` different heats, and every heat's seeds add
  up to within one heat's worth of the others;
- each heat is a duplicate group (``workers.formats.duplicate``): N tables dealing the same
  sealed cards, the seats rotated so each bot holds each seat's hand once; the heat's ranking
  is by points summed over its N tables, so the deal's luck cancels;
- the top ``advance`` of each heat go through (N // 2 by default, more where fewer would leave
  under N bots); a tie on the heat's points goes to the better seed.

The last round is one heat of N: its ranking is the final one (the champion first). A round is
planned only once the previous one closed (the league chains its rounds), from its results.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.rng import derive_seed
from workers.formats._common import check_seats
from workers.formats.declaration import (
    History,
    LeagueFormat,
    RoundRequest,
    as_tables,
)
from workers.formats.declaration import Table as LeagueTable
from workers.formats.duplicate import duplicate_tables

__all__ = ["FORMAT", "Round", "bracket", "heats", "knockout_rounds", "replay"]


@dataclass(frozen=True)
class Round:
    """One round of the bracket: its heats (each in seed order) and its byes."""

    heats: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]

    def advancing(self, seats: int) -> int:
        """How many of each heat go through."""
        return advance_count(len(self.heats), len(self.byes), seats)


def advance_count(heats: int, byes: int, seats: int) -> int:
    """N // 2 (at least one), or more where that would leave fewer than N for the next round.
    One heat alone (the final) advances nobody."""
    if heats == 1 and byes == 0:
        return 0
    wanted = max(1, seats // 2)
    return max(wanted, math.ceil((seats - byes) / heats))


def bracket(field: int, seats: int) -> tuple[int, int]:
    """(heats, byes) of a round with ``field`` bots in at tables of ``seats``: the most heats
    that leave at least ``seats`` bots in, the rest of the field byes."""
    check_seats(seats)
    if field < seats:
        raise ValueError(f"a knockout of tables of {seats} needs {seats} bots, not {field}")
    if field == seats:
        return 1, 0
    keep = max(1, seats // 2)
    most = field // seats
    # h heats advancing `keep` leave field - h * (seats - keep); at least `seats`.
    fits = (field - seats) // (seats - keep) if seats > keep else most
    heats = max(1, min(most, fits))
    return heats, field - heats * seats


def heats(field: Sequence[str], seats: int) -> Round:
    """A round of ``field`` (seed order, strongest first): the strongest take the byes, the
    others are dealt to the heats in a serpentine."""
    count, byes = bracket(len(field), seats)
    playing = list(field[byes:])
    dealt: list[list[str]] = [[] for _ in range(count)]
    for index, bot in enumerate(playing):
        lap, place = divmod(index, count)
        dealt[place if lap % 2 == 0 else count - 1 - place].append(bot)
    return Round(tuple(tuple(heat) for heat in dealt), tuple(field[:byes]))


def knockout_rounds(field: int, seats: int) -> int:
    """Rounds from ``field`` bots to the final heat, the final included."""
    rounds = 1
    while field > seats:
        count, byes = bracket(field, seats)
        field = count * advance_count(count, byes, seats) + byes
        rounds += 1
    return rounds


def _through(
    heat: Sequence[str], ranking: Sequence[tuple[str, int]], seed: Mapping[str, int]
) -> list[str]:
    """The heat's bots best first: by rank in the group, ties to the better seed."""
    rank = dict(ranking)
    return sorted(heat, key=lambda bot: (rank.get(bot, len(heat) + 1), seed[bot]))


def replay(
    bots: Sequence[str], seats: int, history: History
) -> tuple[list[Round], list[list[list[str]]], list[str] | None]:
    """The bracket so far from the league's results: every round planned so far (the last may
    be unplayed), the finished heats of each round best first, and the final ranking once the
    final heat has finished (None before)."""
    seed = {bot: index for index, bot in enumerate(bots)}
    by_round: dict[int, dict[frozenset[str], list[tuple[str, int]]]] = {}
    for number, group, ranks in history:
        by_round.setdefault(number, {})[frozenset(group)] = list(zip(group, ranks, strict=True))
    field = list(bots)
    rounds: list[Round] = []
    results: list[list[list[str]]] = []
    number = 1
    while True:
        current = heats(field, seats)
        rounds.append(current)
        done = by_round.get(number, {})
        played = [
            _through(heat, done[frozenset(heat)], seed)
            for heat in current.heats
            if frozenset(heat) in done
        ]
        results.append(played)
        if len(played) < len(current.heats):
            return rounds, results, None
        if len(current.heats) == 1 and not current.byes:
            return rounds, results, played[0]
        keep = current.advancing(seats)
        field = sorted(
            [*current.byes, *(bot for heat in played for bot in heat[:keep])],
            key=lambda bot: seed[bot],
        )
        number += 1


def _settings(bots: Sequence[str], players: int, settings: Mapping[str, Any]) -> dict[str, Any]:
    if settings:
        raise ValueError(f"a knockout takes no settings, not {', '.join(sorted(settings))}")
    bracket(len(bots), players)
    return {}


def _plan(request: RoundRequest) -> list[LeagueTable]:
    """Round ``number``'s heats, each a duplicate group of its own sealed deal (none once the
    final has been played)."""
    rounds, _results, final = replay(request.bots, request.players, request.history)
    if final is not None and request.number > len(rounds):
        return []
    if len(rounds) < request.number:
        raise ValueError(f"round {request.number} of the knockout waits for round {len(rounds)}")
    tables: list[LeagueTable] = []
    for index, heat in enumerate(rounds[request.number - 1].heats):
        label = f"r{request.number}h{index}"
        group_seed = derive_seed(request.seed, "knockout", request.number, index)
        tables += as_tables(duplicate_tables(heat, group_seed, group=label))
    return tables


FORMAT = LeagueFormat(
    "knockout",
    _plan,
    knockout_rounds,
    min_bots=2,
    settings=_settings,
    duplicate=True,
    group_noun="heat",
)
