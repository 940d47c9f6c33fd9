"""Matches of one heuristic bot against random seats, for the Node and Go bot tests: every game
at its smallest table of two or more, the bot's seat rotating, and its mean rank against what
random play gives ((players + 1) / 2).

The games are played together, a fixed number of matches in flight at once, on one arbiter and
one bot process. A tally beats random play when its mean rank plus two standard errors is still
below the random rank: a one-sided bound that holds at the few dozen matches `make test` plays
as well as at the full-strength count (PREMIERE_HEURISTIC_MATCHES=200).

Each match is dealt from a fixed seed (`deal_seed`), and the random seats and both clients'
heuristics are deterministic, so a run's tallies are the same every time: a change in them is a
change in a bot, never the luck of the draw (with a fresh seed per match, a bot of mean rank 1.5
at Magic Trick once drew 1.8 over 40 matches and failed a clean-clone run).
"""

from __future__ import annotations

import hashlib
import math
import os
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

import games
from premiere_wire import match_pb2, match_pb2_grpc
from tests.integration.services import Arbiter, wait_ended

OPTIONS = {"movie-trailer": {"rounds": "1"}}
"""Movie Trailer with one round (each seat directs once) keeps a few hundred matches short."""

MATCHES = int(os.environ.get("PREMIERE_HEURISTIC_MATCHES", "40"))
"""Matches per game. At 40 the bound stays below the random rank by about three standard errors
in the closest game (Magic Trick: mean rank 1.475 ± 0.107 on these deals for both clients),
while a bot no better than random would pass a game on about one set of deals in forty."""

IN_FLIGHT = 24
"""Matches running at once; the bot is started with at least this many slots."""

RATED_EVERY = 16
"""One match in this many of each game is rated, so rated play is exercised too."""


@dataclass(frozen=True)
class Tally:
    game: str
    players: int
    ranks: tuple[int, ...]
    faults: int

    @property
    def matches(self) -> int:
        return len(self.ranks)

    @property
    def mean_rank(self) -> float:
        return sum(self.ranks) / len(self.ranks)

    @property
    def standard_error(self) -> float:
        """Of the mean rank, from the sample's own spread."""
        n = len(self.ranks)
        if n < 2:
            return math.inf
        mean = self.mean_rank
        variance = sum((rank - mean) ** 2 for rank in self.ranks) / (n - 1)
        return math.sqrt(variance / n)

    @property
    def random_rank(self) -> float:
        return (self.players + 1) / 2

    @property
    def beats_random(self) -> bool:
        return self.mean_rank + 2 * self.standard_error < self.random_rank

    def __str__(self) -> str:
        return (
            f"{self.game} ({self.players} seats): mean rank {self.mean_rank:.3f}"
            f" ± {self.standard_error:.3f} over {self.matches} matches"
            f" (random {self.random_rank}), {self.faults} bot faults"
        )


@dataclass(frozen=True)
class Planned:
    game: str
    number: int
    seat: int
    rated: bool

    @property
    def seed(self) -> str:
        return deal_seed(self.game, self.number)


def deal_seed(game_id: str, number: int) -> str:
    """The seed of a game's ``number``th match: 128 bits of hex, so rated matches accept it too."""
    return hashlib.sha256(f"heuristic-matches/{game_id}/{number}".encode()).hexdigest()[:32]


def table(game_id: str) -> int:
    return min(n for n in games.get(game_id).player_counts if n >= 2)


def every_game() -> list[str]:
    return sorted(games.ids())


def _plan(game_ids: Sequence[str], matches: int) -> list[Planned]:
    """Each game's matches interleaved with the others', the bot's seat rotating."""
    return [
        Planned(game, n, n % table(game), rated=n % RATED_EVERY == 0)
        for n in range(matches)
        for game in game_ids
    ]


def _create(stub: match_pb2_grpc.MatchServiceStub, bot: str, planned: Planned) -> str:
    request = match_pb2.CreateMatchRequest(
        game=planned.game, rated=planned.rated, seed=planned.seed
    )
    request.options.update(OPTIONS.get(planned.game, {}))
    for index in range(table(planned.game)):
        if index == planned.seat:
            request.seats.add(bot=bot)
        else:
            request.seats.add(builtin="random")
    request.time_control.move_time_ms = 10_000
    return str(stub.CreateMatch(request, timeout=10).match_id)


def play(arbiter: Arbiter, bot: str, game_ids: Sequence[str], matches: int) -> list[Tally]:
    """`matches` matches of each game, IN_FLIGHT at a time: each time the oldest running match
    ends, the next one starts."""
    ranks: dict[str, list[int]] = {game: [] for game in game_ids}
    faults = dict.fromkeys(game_ids, 0)
    running: deque[tuple[Planned, str]] = deque()
    plan = deque(_plan(game_ids, matches))
    stub = arbiter.matches()
    while plan or running:
        while plan and len(running) < IN_FLIGHT:
            planned = plan.popleft()
            running.append((planned, _create(stub, bot, planned)))
        planned, match_id = running.popleft()
        match = wait_ended(stub, match_id, timeout=300)
        assert match.status == match_pb2.MATCH_STATUS_FINISHED, match
        ranks[planned.game].append(match.outcome.ranks[planned.seat])
        faults[planned.game] += sum(1 for f in match.faults if f.blame == "bot")
    return [Tally(game, table(game), tuple(ranks[game]), faults[game]) for game in game_ids]
