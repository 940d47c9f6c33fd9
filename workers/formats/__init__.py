"""Pairing formats and tournament standings, as pure functions.

No I/O, no clock, no global randomness: every input is a plain value, every bit of chance comes
from the seed passed in (through `games.rng`), and the same inputs always give the same tables.
The Celery tasks read the league's state, call one of these, and store what it returns.

- `round_robin`: everyone equally often, in every seat equally often (`cycle_length`).
- `swiss_round`: like scores together, no avoidable rematch, fair byes.
- `gauntlet`: one challenger against the field, balanced opponents and seats.
- `matchmake`: continuous ladder batches, fewest games first, close ratings, a pending cap.
- `duplicate_tables` / `score_duplicate`: one deal, seats rotated, scored as a whole.
- `sprt_pair_tables`: two bots on one deal with seats swapped, for a sequential test.
- `standings`: points from ranks, then tie-breaks.

Each league format is declared beside its pairing code, at the end of its module
(``FORMAT``, a ``workers.formats.declaration.LeagueFormat``; ``ladder.py`` and
``duplicate_swiss.py`` hold the declarations of formats built from the others' pairing), and
``workers.formats.registry`` finds them.

docs/leagues.md states each format's guarantees; tests/workers/test_pairing.py checks them.
"""

from workers.formats._common import BotId, Round, Table
from workers.formats.duplicate import duplicate_tables, score_duplicate, seat_square
from workers.formats.gauntlet import gauntlet, gauntlet_length
from workers.formats.matchmaking import Accepts, LadderEntry, matchmake, pass_over_bound
from workers.formats.round_robin import cycle_length, round_robin
from workers.formats.sprt import sprt_pair_tables
from workers.formats.standings import MatchResult, Tiebreak, match_points, standings
from workers.formats.swiss import repeated_pairs, swiss_round

__all__ = [
    "Accepts",
    "BotId",
    "LadderEntry",
    "MatchResult",
    "Round",
    "Table",
    "Tiebreak",
    "cycle_length",
    "duplicate_tables",
    "gauntlet",
    "gauntlet_length",
    "match_points",
    "matchmake",
    "pass_over_bound",
    "repeated_pairs",
    "round_robin",
    "score_duplicate",
    "seat_square",
    "sprt_pair_tables",
    "standings",
    "swiss_round",
]
