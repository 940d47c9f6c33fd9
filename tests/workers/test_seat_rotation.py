"""Every league format rotates seats, so no bot's results (and so its rating) carry a seat's
advantage: in a game where the first seat always wins, every bot of a league wins its share."""

from __future__ import annotations

from collections import Counter

import pytest

from workers.formats import registry
from workers.planning import plan, resolve_settings

BOTS = ("ada", "grace", "edsger", "barbara", "donald", "linus")

# How far apart a bot's seat counts may drift. Swiss seats each table in the seats its bots
# used least, but pairs by score first, so a bot may be a game ahead in two seats at once.
SPREAD = {"swiss": 2}


def _league(format: str, players: int) -> tuple[str, ...]:
    if registry.get(format).head_to_head:
        return ("ada", "grace", *[f"builtin:f{i}" for i in range(players - 2)])
    if format == "gauntlet":
        return BOTS[: players + 2]
    return BOTS


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("format", registry.names())
def test_seats_rotate_so_a_first_seat_edge_favours_no_bot(format: str, players: int) -> None:
    bots = _league(format, players)
    settings = resolve_settings(format, bots, players, {})
    history: list[tuple[int, tuple[str, ...], tuple[int, ...]]] = []
    seats: Counter[tuple[str, int]] = Counter()
    rounds = 0
    while len(history) < 24 * players and rounds < 200:
        rounds += 1
        for table in plan(format, bots, players, rounds, "seed" * 8, history, {}, settings):
            # The first seat always wins: the rest in seat order.
            history.append((rounds, table.seats, tuple(range(1, players + 1))))
            for seat, bot in enumerate(table.seats):
                seats[bot, seat] += 1
    field = [b for b in bots if not b.startswith("builtin:")]
    if format == "gauntlet":
        field = field[:1]  # the challenger: the field is rotated against it, not among itself
    for bot in field:
        counts = [seats[bot, s] for s in range(players)]
        spread = SPREAD.get(format, 1)
        assert max(counts) - min(counts) <= spread, (bot, counts)
        # So its share of first-seat wins is 1/players of its games, within that spread.
        assert abs(seats[bot, 0] - sum(counts) / players) <= spread
