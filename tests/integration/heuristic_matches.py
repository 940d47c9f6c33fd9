"""Matches of one heuristic bot against random seats, for the Node and Go bot tests: every game
at its smallest table of two or more, the bot's seat rotating, and its mean rank against what
random play gives ((players + 1) / 2)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import games
from premiere_wire import match_pb2
from tests.integration.services import Arbiter, wait_ended

OPTIONS = {"movie-trailer": {"rounds": "1"}}
"""Movie Trailer with one round (each seat directs once) keeps a few hundred matches short."""


@dataclass(frozen=True)
class Tally:
    game: str
    players: int
    matches: int
    mean_rank: float
    faults: int

    @property
    def random_rank(self) -> float:
        return (self.players + 1) / 2


def table(game_id: str) -> int:
    return min(n for n in games.get(game_id).player_counts if n >= 2)


def _create(arbiter: Arbiter, game_id: str, bot: str, seat: int, number: int, rated: bool) -> str:
    players = table(game_id)
    request = match_pb2.CreateMatchRequest(game=game_id, rated=rated)
    request.options.update(OPTIONS.get(game_id, {}))
    for index in range(players):
        if index == seat:
            request.seats.add(bot=bot)
        else:
            request.seats.add(builtin="random")
    request.time_control.move_time_ms = 10_000
    return str(arbiter.matches().CreateMatch(request, timeout=10).match_id)


def play(arbiter: Arbiter, bot: str, game_id: str, matches: int, batch: int = 16) -> Tally:
    """`matches` matches, `batch` at a time; the first of each batch is rated."""
    players = table(game_id)
    ranks: list[int] = []
    faults = 0
    for start in range(0, matches, batch):
        ids = [
            (n % players, _create(arbiter, game_id, bot, n % players, n, rated=n == start))
            for n in range(start, min(matches, start + batch))
        ]
        for seat, match_id in ids:
            match = wait_ended(arbiter.matches(), match_id, timeout=300)
            assert match.status == match_pb2.MATCH_STATUS_FINISHED, match
            ranks.append(match.outcome.ranks[seat])
            faults += sum(1 for f in match.faults if f.blame == "bot")
    return Tally(game_id, players, len(ranks), sum(ranks) / len(ranks), faults)


def every_game() -> Iterator[str]:
    yield from sorted(games.ids())
