"""Knockout: heats of N seats, the top of each heat going through, until one heat is left.

The league's bots, in the order given, are the seeds (seed 1 first; an event lists its entrants
by their official standing in the game, strongest first). Each round:

- the field still in is cut into ``h`` heats of N bots, and the ``b`` strongest seeds sit the
  round out with a bye and go through: ``h`` is the most heats that leave at least N bots for
  the next round (``bracket``), so a field that does not fill the bracket is evened out by
  byes, and no round ever leaves fewer than N;
- the playing seeds are dealt to the heats in a serpentine (1 to h, then h back to 1, ...), so
  the ``h`` strongest playing seeds are in ``h`` different heats, and every heat's seeds add
  up to within one heat's worth of the others;
- each heat is ``deals`` duplicate groups (``workers.formats.duplicate``; setting ``deals``,
  default ``DEALS``): for each deal, N tables dealing the same sealed cards, the seats rotated
  so each bot holds each seat's hand once; the heat ranks by points from ranks summed over its
  deals, so the deal's luck cancels and one deal's result does not decide;
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
from fractions import Fraction
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
from workers.formats.standings import match_points

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


DEALS = 3
"""Sealed deals a heat plays by default (setting ``deals``), each once per seat order."""
MAX_DEALS = 8

REPLAYS = 2
"""Times a void heat is dealt again before the tie-break decides it (so at most three deals)."""


def _through(
    heat: Sequence[str], groups: Sequence[Sequence[tuple[str, int]]], seed: Mapping[str, int]
) -> list[str]:
    """The heat's bots best first: by points from their ranks summed over the heat's
    duplicate groups (one a deal), ties to the better seed."""
    points = dict.fromkeys(heat, Fraction(0))
    for ranking in groups:
        bots = [bot for bot, _rank in ranking]
        for bot, value in zip(bots, match_points([rank for _bot, rank in ranking]), strict=True):
            points[bot] += value
    return sorted(heat, key=lambda bot: (-points[bot], seed[bot]))


def _results(history: History) -> dict[int, dict[frozenset[str], list[list[tuple[str, int]]]]]:
    """The finished groups by league round and by the set of bots they seat."""
    by_round: dict[int, dict[frozenset[str], list[list[tuple[str, int]]]]] = {}
    for number, group, ranks in history:
        found = by_round.setdefault(number, {}).setdefault(frozenset(group), [])
        found.append(list(zip(group, ranks, strict=True)))
    return by_round


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
    schedule: Mapping[int, tuple[int, tuple[int, ...]]]
    """League round -> (bracket round from 1, indexes of the heats it deals)."""
    final: tuple[str, ...] | None

    @property
    def replays(self) -> int:
        """League rounds that dealt void heats again."""
        firsts = {heat.dealt[0] for heats in self.heats for heat in heats if heat.dealt}
        return len(self.schedule) - len(firsts)


def walk(
    bots: Sequence[str],
    seats: int,
    history: History,
    closed: int | None = None,
    withdrawn: Mapping[int, frozenset[str]] | None = None,
    deals: int = 1,
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
    by_round = _results(history)
    field = list(bots)
    rounds: list[Round] = []
    shown: list[tuple[Heat, ...]] = []
    schedule: dict[int, tuple[int, tuple[int, ...]]] = {}
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
            schedule[league] = (len(rounds), tuple(pending))
            done = by_round.get(league, {})
            for index in pending:
                dealt[index].append(league)
                heat = current.heats[index]
                if len(done.get(frozenset(heat), ())) >= deals:
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
            return Bracket(tuple(rounds), tuple(shown), schedule, None)
        if len(current.heats) == 1 and not current.byes:
            return Bracket(tuple(rounds), tuple(shown), schedule, order[0])
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
    deals: int = 1,
) -> tuple[list[Round], list[list[list[str]]], list[str] | None]:
    """The bracket so far from the league's results: every round planned so far (the last may
    be unplayed), the decided heats of each round best first, and the final ranking once the
    final heat has been decided (None before)."""
    walked = walk(bots, seats, history, closed, withdrawn, deals)
    results = [
        [list(heat.order) for heat in heats_of if heat.order is not None]
        for heats_of in walked.heats
    ]
    return list(walked.rounds), results, list(walked.final) if walked.final else None


def length(
    bots: Sequence[str],
    seats: int,
    settings: Mapping[str, Any],
    history: History,
    closed: int,
) -> int:
    """The league rounds the knockout takes, given the results of its ``closed`` rounds: its
    natural length plus a round for each replay of void heats so far (who a tie-break sends
    through does not change it)."""
    deals = int(settings.get("deals", 1))
    return knockout_rounds(len(bots), seats) + _replays(bots, seats, history, closed, deals)


def _replays(bots: Sequence[str], seats: int, history: History, closed: int, deals: int) -> int:
    """Replay rounds so far: a league round that deals void heats again."""
    by_round = {
        number: {heat for heat, groups in found.items() if len(groups) >= deals}
        for number, found in _results(history).items()
    }
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
    unknown = sorted(set(settings) - {"deals"})
    if unknown:
        raise ValueError(f"a knockout takes the setting deals, not {', '.join(unknown)}")
    deals = settings.get("deals", DEALS)
    if not isinstance(deals, int) or isinstance(deals, bool) or not 1 <= deals <= MAX_DEALS:
        raise ValueError(f"deals is a whole number from 1 to {MAX_DEALS}")
    bracket(len(bots), players)
    return {"deals": deals}


def _plan(request: RoundRequest) -> list[LeagueTable]:
    """League round ``number``'s heats, each a duplicate group of its own sealed deal: the
    next bracket round's, or the void heats of the round before dealt again (none once the
    final has been decided)."""
    withdrawn = {**request.withdrawn_at, request.number: request.withdrawn}
    deals = int(request.settings.get("deals", 1))  # a league made before the setting: one
    walked = walk(
        request.bots, request.players, request.history, request.number - 1, withdrawn, deals
    )
    if request.number not in walked.schedule:
        if walked.final is not None:
            return []
        raise ValueError(f"round {request.number} of the knockout waits for the round before")
    bracket_round, indexes = walked.schedule[request.number]
    tables: list[LeagueTable] = []
    for index in indexes:
        heat = walked.rounds[bracket_round - 1].heats[index]
        for deal in range(deals):
            label, group_seed = heat_group(request.seed, request.number, index, deal, deals)
            tables += as_tables(duplicate_tables(heat, group_seed, group=label))
    return tables


def heat_group(seed: str, number: int, index: int, deal: int, deals: int) -> tuple[str, bytes]:
    """The duplicate group of a heat's ``deal``-th deal in league round ``number``: its label
    (``r<round>h<heat>``, and ``d<deal>`` where a heat deals more than once) and its seed."""
    if deals == 1:
        return f"r{number}h{index}", derive_seed(seed, "knockout", number, index)
    return f"r{number}h{index}d{deal}", derive_seed(seed, "knockout", number, index, deal)


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
