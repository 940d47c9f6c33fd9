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
  under N bots); a tie on the heat's points goes to the better seed;
- a void heat (a table void: a bot removed, a match voided) is dealt again, on a new deal, in
  a league round of its own, at most ``REPLAYS`` times; then the tie-break decides it, the
  bots the arena no longer seats last (``walk``). The league's length grows by the replays.

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

__all__ = [
    "FORMAT",
    "REPLAYS",
    "Bracket",
    "Heat",
    "Round",
    "bracket",
    "heats",
    "knockout_rounds",
    "length",
    "replay",
    "walk",
]


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


REPLAYS = 2
"""Times a void heat is dealt again before the tie-break decides it (so at most three deals)."""


def _through(
    heat: Sequence[str], ranking: Sequence[tuple[str, int]], seed: Mapping[str, int]
) -> list[str]:
    """The heat's bots best first: by rank in the group, ties to the better seed."""
    rank = dict(ranking)
    return sorted(heat, key=lambda bot: (rank.get(bot, len(heat) + 1), seed[bot]))


@dataclass(frozen=True)
class Heat:
    """One heat of the bracket as it stands: its bots in seed order, the league rounds it was
    dealt in (more than one when a deal was void), and its order best first once decided;
    ``by_tiebreak`` when every deal was void and the tie-break decided it."""

    seeds: tuple[str, ...]
    dealt: tuple[int, ...]
    order: tuple[str, ...] | None
    by_tiebreak: bool = False


@dataclass(frozen=True)
class Bracket:
    """The knockout so far: its rounds (shape and heats), the heats each league round deals
    (by their index in their round), and the final ranking once the final is decided."""

    rounds: tuple[Round, ...]
    heats: tuple[tuple[Heat, ...], ...]
    deals: Mapping[int, tuple[int, tuple[int, ...]]]
    """League round -> (bracket round from 1, indexes of the heats it deals)."""
    final: tuple[str, ...] | None

    @property
    def replays(self) -> int:
        """League rounds that dealt void heats again."""
        firsts = {heat.dealt[0] for heats in self.heats for heat in heats if heat.dealt}
        return len(self.deals) - len(firsts)


def walk(
    bots: Sequence[str],
    seats: int,
    history: History,
    closed: int | None = None,
    withdrawn: Mapping[int, frozenset[str]] | None = None,
) -> Bracket:
    """The bracket from the league's results. ``closed`` is how many league rounds have
    closed: a heat without a result in a closed round was void (a table void: a bot removed,
    a match voided) and is dealt again in the next league round, which deals only such heats,
    up to ``REPLAYS`` times; then the tie-break decides it: the better seed goes through,
    except that the bots the arena no longer seated when the next league round was planned
    (``withdrawn``, by league round) go last. With ``closed`` None, a heat without a result
    is still being played."""
    gone = withdrawn or {}
    seed = {bot: index for index, bot in enumerate(bots)}
    by_round: dict[int, dict[frozenset[str], list[tuple[str, int]]]] = {}
    for number, group, ranks in history:
        by_round.setdefault(number, {})[frozenset(group)] = list(zip(group, ranks, strict=True))
    field = list(bots)
    rounds: list[Round] = []
    shown: list[tuple[Heat, ...]] = []
    deals: dict[int, tuple[int, tuple[int, ...]]] = {}
    league = 1
    while True:
        current = heats(field, seats)
        rounds.append(current)
        dealt: list[list[int]] = [[] for _ in current.heats]
        order: list[tuple[str, ...] | None] = [None] * len(current.heats)
        tiebroken: set[int] = set()
        pending = list(range(len(current.heats)))
        waiting = False
        while pending:
            deals[league] = (len(rounds), tuple(pending))
            done = by_round.get(league, {})
            for index in pending:
                dealt[index].append(league)
                heat = current.heats[index]
                if frozenset(heat) in done:
                    order[index] = tuple(_through(heat, done[frozenset(heat)], seed))
            pending = [index for index in pending if order[index] is None]
            if pending and (closed is None or league > closed):
                waiting = True
                break
            if pending and len(dealt[pending[0]]) > REPLAYS:
                for index in pending:
                    heat = current.heats[index]
                    out = gone.get(league + 1, frozenset())
                    order[index] = tuple(sorted(heat, key=lambda bot: (bot in out, seed[bot])))
                    tiebroken.add(index)
                pending = []
            league += 1
        shown.append(
            tuple(
                Heat(heat, tuple(dealt[index]), order[index], index in tiebroken)
                for index, heat in enumerate(current.heats)
            )
        )
        if waiting:
            return Bracket(tuple(rounds), tuple(shown), deals, None)
        if len(current.heats) == 1 and not current.byes:
            return Bracket(tuple(rounds), tuple(shown), deals, order[0])
        keep = current.advancing(seats)
        field = sorted(
            [*current.byes, *(bot for ranked in order if ranked for bot in ranked[:keep])],
            key=lambda bot: seed[bot],
        )


def replay(
    bots: Sequence[str],
    seats: int,
    history: History,
    closed: int | None = None,
    withdrawn: Mapping[int, frozenset[str]] | None = None,
) -> tuple[list[Round], list[list[list[str]]], list[str] | None]:
    """The bracket so far from the league's results: every round planned so far (the last may
    be unplayed), the decided heats of each round best first, and the final ranking once the
    final heat has been decided (None before)."""
    walked = walk(bots, seats, history, closed, withdrawn)
    results = [
        [list(heat.order) for heat in heats_of if heat.order is not None]
        for heats_of in walked.heats
    ]
    return list(walked.rounds), results, list(walked.final) if walked.final else None


def length(bots: Sequence[str], seats: int, history: History, closed: int) -> int:
    """The league rounds the knockout takes, given the results of its ``closed`` rounds: its
    natural length plus a round for each replay of void heats so far (who a tie-break sends
    through does not change it)."""
    return knockout_rounds(len(bots), seats) + _replays(bots, seats, history, closed)


def _replays(bots: Sequence[str], seats: int, history: History, closed: int) -> int:
    """Replay rounds so far: a league round that deals void heats again."""
    by_round: dict[int, set[frozenset[str]]] = {}
    for number, group, _ranks in history:
        by_round.setdefault(number, set()).add(frozenset(group))
    # Who goes through never changes how many rounds a bracket round takes, only whether its
    # heats' results are found: walk the shapes with the results the league actually has.
    count = 0
    field = len(bots)
    league = 1
    while True:
        heats_count, byes = bracket(field, seats)
        void = heats_count - len(by_round.get(league, ()))
        attempts = 1
        while void > 0 and league <= closed and attempts <= REPLAYS:
            league += 1
            count += 1
            attempts += 1
            void -= len(by_round.get(league, ()))
        league += 1
        if league > closed + 1 or (heats_count == 1 and byes == 0):
            return count
        field = heats_count * advance_count(heats_count, byes, seats) + byes


def _settings(bots: Sequence[str], players: int, settings: Mapping[str, Any]) -> dict[str, Any]:
    if settings:
        raise ValueError(f"a knockout takes no settings, not {', '.join(sorted(settings))}")
    bracket(len(bots), players)
    return {}


def _plan(request: RoundRequest) -> list[LeagueTable]:
    """League round ``number``'s heats, each a duplicate group of its own sealed deal: the
    next bracket round's, or the void heats of the round before dealt again (none once the
    final has been decided)."""
    withdrawn = {**request.withdrawn_at, request.number: request.withdrawn}
    walked = walk(request.bots, request.players, request.history, request.number - 1, withdrawn)
    if request.number not in walked.deals:
        if walked.final is not None:
            return []
        raise ValueError(f"round {request.number} of the knockout waits for the round before")
    bracket_round, indexes = walked.deals[request.number]
    tables: list[LeagueTable] = []
    for index in indexes:
        heat = walked.rounds[bracket_round - 1].heats[index]
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
    length=length,
)
