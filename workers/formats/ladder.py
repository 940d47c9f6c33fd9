"""The ladder league format: continuous matchmaking (``workers.formats.matchmaking``), round
after round until stopped, each table seated in the seats its bots have used least."""

from __future__ import annotations

from collections import Counter

from workers.formats._common import BotId, least_used_seating
from workers.formats._common import Table as PairedTable
from workers.formats.declaration import LeagueFormat, RoundRequest, as_tables, round_seed
from workers.formats.declaration import Table as LeagueTable
from workers.formats.matchmaking import ANY, LadderEntry, matchmake

__all__ = ["FORMAT"]


def _plan(request: RoundRequest) -> list[LeagueTable]:
    games = Counter(bot for _round, seats, _ranks in request.history for bot in seats)
    entries = [
        LadderEntry(
            bot,
            request.ratings.get(bot, 1500.0),
            games[bot],
            0,
            request.accepts.get(bot, ANY),
            bot in request.provisional,
        )
        for bot in request.bots
        if bot not in request.resting
    ]
    batch = matchmake(entries, request.players, round_seed(request), rated=request.rated)
    # Seats rotate: each table is seated in the seats its bots have used least in the league.
    use: dict[tuple[BotId, int], int] = Counter(
        (bot, seat) for _round, seats, _ranks in request.history for seat, bot in enumerate(seats)
    )
    return as_tables(
        [
            PairedTable(least_used_seating(table.seats, use), table.seed, table.group)
            for table in batch.tables
        ]
    )


FORMAT = LeagueFormat("ladder", _plan, lambda _bots, _players: None, endless=True)
