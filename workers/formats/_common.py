"""Values shared by every format: tables, rounds, input checks and the seat balancer."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.rng import Rng, Seed, derive_seed

BotId = str | int
"""A bot is named by a string or an integer; formats never look inside it."""

MIN_SEATS = 2
MAX_SEATS = 8


@dataclass(frozen=True, slots=True)
class Table:
    """One match to play: the bots in seat order, its match seed, and its duplicate group.

    ``seed`` is 32 bytes derived from the format's seed, so the same schedule always deals the
    same cards (use ``seed.hex()`` where text is needed). Tables of one duplicate group share a
    seed and carry the same ``group``; every other table has ``group=None``.
    """

    seats: tuple[BotId, ...]
    seed: bytes
    group: str | None = None


@dataclass(frozen=True, slots=True)
class Round:
    """Tables played at the same time, and the bots sitting this round out."""

    tables: tuple[Table, ...]
    byes: tuple[BotId, ...] = ()

    def bots(self) -> frozenset[BotId]:
        """Every bot seated this round."""
        return frozenset(bot for table in self.tables for bot in table.seats)


def bot_key(bot: BotId) -> tuple[int, int, str]:
    """A total order on bot ids of either kind, so results never depend on input order."""
    if isinstance(bot, int):
        return (0, bot, "")
    return (1, 0, bot)


def check_seats(seats: int) -> None:
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"seats per table must be {MIN_SEATS}..{MAX_SEATS}, not {seats}")


def check_bots(bots: Iterable[BotId]) -> list[BotId]:
    """The bots in canonical order; refuses duplicates and ids that are not str or int."""
    out: list[BotId] = []
    for bot in bots:
        if isinstance(bot, bool) or not isinstance(bot, str | int):
            raise TypeError(f"a bot id is a str or an int, not {bot!r}")
        out.append(bot)
    if len(set(out)) != len(out):
        raise ValueError("a bot is listed twice")
    return sorted(out, key=bot_key)


def shuffled(bots: Sequence[BotId], rng: Rng) -> list[BotId]:
    """The bots in canonical order, then shuffled by ``rng``."""
    order = sorted(bots, key=bot_key)
    rng.shuffle(order)
    return order


def table_seed(fmt: str, seed: Seed, *where: int) -> bytes:
    """The match seed of one table, e.g. ``table_seed("swiss", seed, table_no)``."""
    return derive_seed("premiere-table", fmt, seed, *where)


def least_used_seating(
    bots: Sequence[BotId], use: dict[tuple[BotId, int], int]
) -> tuple[BotId, ...]:
    """The seating of ``bots`` that minimises the sum of their past uses of the seats they get
    (``use[bot, seat]``, missing is 0); ties go to the seating that is first in bot order.

    A dynamic programme over which bots are seated so far (at most 2**8 states).
    """
    order = sorted(bots, key=bot_key)
    size = len(order)
    best: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}
    for seat in range(size):
        nxt: dict[int, tuple[int, tuple[int, ...]]] = {}
        for mask, (cost, seated) in best.items():
            for k, bot in enumerate(order):
                if mask >> k & 1:
                    continue
                candidate = (cost + use.get((bot, seat), 0), (*seated, k))
                key = mask | 1 << k
                if key not in nxt or candidate < nxt[key]:
                    nxt[key] = candidate
        best = nxt
    return tuple(order[k] for k in best[(1 << size) - 1][1])


def balance_seats(groups: Sequence[Sequence[BotId]], seats: int) -> list[tuple[BotId, ...]]:
    """Seat every group so that each bot, within every ``seats`` consecutive games it plays
    (taken in the order of ``groups``), sits in each seat at most once.

    So over a stretch in which a bot plays a multiple of ``seats`` games it sits in every seat
    equally often, and over any prefix its seat counts differ by at most one.

    Why it always works: cut each bot's games, in order, into chunks of ``seats`` games. In the
    bipartite graph of tables against chunks every vertex has degree at most ``seats``, so by
    Konig's theorem its edges can be coloured with ``seats`` colours, no colour twice at a
    vertex. A colour is a seat: each table gets each seat once and each chunk at most once. The
    colouring is the textbook alternating-path algorithm, exact and deterministic.
    """
    played: dict[BotId, int] = {}
    chunk_of: list[list[tuple[BotId, int]]] = []
    for group in groups:
        if len(group) != seats:
            raise ValueError(f"a table of {seats} seats got {len(group)} bots")
        row = []
        for bot in group:
            count = played.get(bot, 0)
            played[bot] = count + 1
            row.append((bot, count // seats))
        chunk_of.append(row)
    colouring = _Colouring(seats)
    for table, row in enumerate(chunk_of):
        for chunk in row:
            colouring.add(table, chunk)
    return [colouring.seating(table) for table in range(len(groups))]


class _Colouring:
    """Proper edge colouring of a bipartite graph (tables x chunks) with ``colours`` colours."""

    def __init__(self, colours: int) -> None:
        self.colours = colours
        self.at_table: dict[int, list[tuple[BotId, int] | None]] = {}
        self.at_chunk: dict[tuple[BotId, int], list[int | None]] = {}

    def _table(self, table: int) -> list[tuple[BotId, int] | None]:
        return self.at_table.setdefault(table, [None] * self.colours)

    def _chunk(self, chunk: tuple[BotId, int]) -> list[int | None]:
        return self.at_chunk.setdefault(chunk, [None] * self.colours)

    def add(self, table: int, chunk: tuple[BotId, int]) -> None:
        a = self._table(table).index(None)
        b = self._chunk(chunk).index(None)
        if self._chunk(chunk)[a] is not None:
            if self._table(table)[b] is None:
                a = b
            else:
                self._flip(chunk, a, b)
        self._set(table, chunk, a)

    def _set(self, table: int, chunk: tuple[BotId, int], colour: int) -> None:
        self._table(table)[colour] = chunk
        self._chunk(chunk)[colour] = table

    def _flip(self, start: tuple[BotId, int], a: int, b: int) -> None:
        """Swap colours ``a`` and ``b`` along the path leaving ``start`` by colour ``a``.

        The path alternates a, b, a, ... and, the graph being bipartite, never reaches the table
        whose edge is being added (that table has ``a`` free), so afterwards ``a`` is free at
        both ends of the new edge.
        """
        path: list[tuple[int, tuple[BotId, int], int]] = []
        chunk = start
        while (table := self._chunk(chunk)[a]) is not None:
            path.append((table, chunk, a))
            following = self._table(table)[b]
            if following is None:
                break
            path.append((table, following, b))
            chunk = following
        for table, chunk, colour in path:
            self._table(table)[colour] = None
            self._chunk(chunk)[colour] = None
        for table, chunk, colour in path:
            self._set(table, chunk, b if colour == a else a)

    def seating(self, table: int) -> tuple[BotId, ...]:
        row = self._table(table)
        if any(chunk is None for chunk in row):
            raise AssertionError("the seat colouring left a seat empty")
        return tuple(chunk[0] for chunk in row if chunk is not None)
