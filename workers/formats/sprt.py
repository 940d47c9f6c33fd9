"""SPRT head-to-head pairs: two bots, each pair of games on one deal with their seats swapped.

A round holds ``pairs`` pairs. Pair k of round r is two tables sharing one match seed (one deal)
and one group name. For N seats the table is a cycle: the candidates ``a`` and ``b`` sit next to
each other and the ``fillers`` (fixed built-ins, N - 2 of them, in their given order) fill the
rest; the cycle is turned by one seat for every pair played, so over every N consecutive pairs
each candidate sits in every seat exactly once in each order. The pair's second table is the
first with ``a`` and ``b`` exchanged, fillers unmoved: within a pair, each candidate held the
other's seat and cards, which is what cancels the deal's luck and the seat's advantage.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.rng import Seed, derive_seed
from workers.formats._common import BotId, Table, check_bots, check_seats

__all__ = ["sprt_pair_tables"]


def sprt_pair_tables(
    a: BotId,
    b: BotId,
    fillers: Sequence[BotId],
    seed: Seed,
    *,
    first_pair: int,
    pairs: int,
) -> tuple[Table, ...]:
    """The ``2 * pairs`` tables of pairs ``first_pair .. first_pair + pairs - 1`` (counted over
    the whole test, from 0), two consecutive tables per pair."""
    seats = len(fillers) + 2
    check_seats(seats)
    check_bots([a, b, *fillers])
    if pairs < 1 or first_pair < 0:
        raise ValueError("pairs must be >= 1 and first_pair >= 0")
    base = [a, b, *fillers]
    tables: list[Table] = []
    for k in range(first_pair, first_pair + pairs):
        turn = k % seats
        order = base[-turn:] + base[:-turn] if turn else list(base)
        swapped = [b if bot == a else a if bot == b else bot for bot in order]
        match_seed = derive_seed("premiere-sprt", seed, k)
        group = f"pair{k}"
        tables.append(Table(tuple(order), match_seed, group))
        tables.append(Table(tuple(swapped), match_seed, group))
    return tuple(tables)
