"""Continuous ladder matchmaking: batch after batch, the least-played bots, by rating, in tables.

Each call forms one batch from the active bots:

This is Halite's matchmaking, by batch: Halite seeds each game with the player that has played
least recently and fills it with opponents near that player in rating; here the least-played
bots are seated first and the seated bots are cut into tables by rating.

1. *Eligible* bots are those with fewer than ``cap`` matches pending (fewer than their own
   ``accepts.max_pending`` if they declared less) that accept an N-seat table of this kind
   (rated or casual, ``accepts``); nobody else is seated, and a bot gets at most one table per
   batch, so pending matches never exceed either cap, and no bot gets a table it declined.
2. *Who plays*: the eligible bots are ordered by games started (played + pending), fewest first,
   ties in a seeded order, and the first ``N * floor(E / N)`` of them are seated (E eligible).
   Fewer than N eligible bots wait. *Provisional* bots (a new bot or version, with fewer
   rated games than the ladder's provisional count) go before everybody else, so they
   settle quickly; that lasts a bounded number of games, after which the order is games
   started alone, and the bounds below apply among established bots once it ends.
3. *Who with whom*: each seated bot gets a sort key, its rating plus a seeded jitter drawn
   uniformly from ``[-window/2, window/2]``; with probability ``explore`` the bot *explores* and
   draws its jitter from ``[-explore_window/2, explore_window/2]`` instead. Sorted by key, the
   bots are cut into consecutive tables of N. Seats within a table are shuffled by the seed.

What that guarantees (and the tests check):

- Pending matches never exceed ``cap``.
- Every seated bot has started no more games than any eligible bot left waiting.
- No starvation. While a bot waits, its games-started count k stays put (a finishing match
  moves one from pending to played). A batch that seats S > 0 bots but passes over an eligible
  bot seats only bots that had started at most k games, and each then has one more. So the
  debt ``sum(max(0, k + 1 - k_i))`` over the other bots' counts k_i, taken when the wait
  began, falls by at least S each time, and the bot is passed over at most ``floor(debt / S)``
  times, S the fewest bots any of those batches seated (never below N): `pass_over_bound`.
  If every bot is eligible in every batch and all start level, counts never differ by more
  than one, so nobody is passed over more than ``floor(2 (B - 1) / S)`` batches running.
  (A pending match that is voided rather than played lowers a count; the bound then restarts.)
- Close ratings. Jitter moves a key by at most half a window, so a non-exploring bot seated
  elsewhere never has a rating more than ``window`` inside the rating range of a table's
  non-exploring bots. With ``window = 0`` and ``explore = 0`` tables are runs of consecutive
  ratings. The jitter is what varies opponents among bots of similar rating from batch to
  batch; exploring bots meet bots far from their rating now and then, which keeps ratings
  connected across the ladder.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.rng import Rng, Seed, derive_seed
from workers.formats._common import BotId, Table, bot_key, check_bots, check_seats, table_seed

__all__ = ["ANY", "Accepts", "LadderBatch", "LadderEntry", "matchmake", "pass_over_bound"]

_UNIT = 1 << 53


@dataclass(frozen=True, slots=True)
class Accepts:
    """What a bot declared it accepts (in its Hello): table sizes (None: any), rated and casual
    matches, and at most ``max_pending`` matches at once (None: the ladder's cap)."""

    player_counts: frozenset[int] | None = None
    rated: bool = True
    casual: bool = True
    max_pending: int | None = None

    def allows(self, seats: int, rated: bool) -> bool:
        if self.player_counts is not None and seats not in self.player_counts:
            return False
        return self.rated if rated else self.casual


ANY = Accepts()


@dataclass(frozen=True, slots=True)
class LadderEntry:
    """One active bot as the ladder sees it now. ``provisional``: too few rated games for a
    settled rating (a new bot or version), so it is seated first."""

    bot: BotId
    rating: float
    games: int = 0
    pending: int = 0
    accepts: Accepts = ANY
    provisional: bool = False

    @property
    def started(self) -> int:
        """Games played plus games pending: what the fairness order counts."""
        return self.games + self.pending

    def cap(self, cap: int) -> int:
        """Matches it may have pending: the ladder's cap, or less if it said so."""
        own = self.accepts.max_pending
        return cap if own is None else max(1, min(cap, own))


@dataclass(frozen=True, slots=True)
class LadderBatch:
    """The tables of one batch; ``explored`` are seated bots that drew from the wide window,
    ``waiting`` the eligible bots left out this time (fewer than N)."""

    tables: tuple[Table, ...]
    explored: frozenset[BotId]
    waiting: tuple[BotId, ...]


def matchmake(
    entries: Iterable[LadderEntry],
    seats: int,
    seed: Seed,
    *,
    cap: int = 1,
    window: float = 100.0,
    explore: float = 0.1,
    explore_window: float = 800.0,
    rated: bool = True,
) -> LadderBatch:
    """The next batch of ladder tables (see the module doc for the rules and guarantees).

    ``seed`` must be new for every batch (derive it from the ladder and a batch counter).
    """
    check_seats(seats)
    active = list(entries)
    _check(active, cap, window, explore, explore_window)
    rng = Rng(derive_seed("premiere-ladder", seed))
    eligible = sorted(
        (e for e in active if e.pending < e.cap(cap) and e.accepts.allows(seats, rated)),
        key=lambda e: bot_key(e.bot),
    )
    rng.shuffle(eligible)
    eligible.sort(key=lambda e: (not e.provisional, e.started))
    seated_count = len(eligible) // seats * seats
    seated, waiting = eligible[:seated_count], eligible[seated_count:]
    keyed = []
    explored = set()
    for entry in seated:
        wide = rng.below(_UNIT) < explore * _UNIT
        span = explore_window if wide else window
        keyed.append((entry.rating + (rng.below(_UNIT + 1) / _UNIT - 0.5) * span, entry))
        if wide:
            explored.add(entry.bot)
    keyed.sort(key=lambda pair: (pair[0], bot_key(pair[1].bot)))
    tables = []
    for table_no, start in enumerate(range(0, seated_count, seats)):
        bots = [entry.bot for _, entry in keyed[start : start + seats]]
        rng.shuffle(bots)
        tables.append(Table(tuple(bots), table_seed("ladder", seed, table_no)))
    return LadderBatch(
        tables=tuple(tables),
        explored=frozenset(explored),
        waiting=tuple(entry.bot for entry in waiting),
    )


def pass_over_bound(started: int, others: Sequence[int], seated_per_batch: int) -> int:
    """The most batches that can pass over an eligible bot that has started ``started`` games,
    given the other bots' games-started counts when its wait began and the fewest bots any of
    those batches seats."""
    if seated_per_batch <= 0:
        raise ValueError("a batch that seats nobody passes nobody over")
    debt = sum(max(0, started + 1 - k) for k in others)
    return debt // seated_per_batch


def _check(
    active: Sequence[LadderEntry], cap: int, window: float, explore: float, explore_window: float
) -> None:
    check_bots(entry.bot for entry in active)
    if cap < 1:
        raise ValueError("cap must be >= 1")
    if not (0.0 <= explore <= 1.0):
        raise ValueError("explore is a probability")
    for name, value in (("window", window), ("explore_window", explore_window)):
        if not (math.isfinite(value) and value >= 0):
            raise ValueError(f"{name} must be finite and >= 0")
    for entry in active:
        if not math.isfinite(entry.rating):
            raise ValueError(f"{entry.bot!r} has no finite rating")
        if entry.games < 0 or entry.pending < 0:
            raise ValueError(f"{entry.bot!r} has a negative count")
