"""In-process self-play: many seeded matches between built-in bots, with summary figures."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.interface import Game, Options
from games.play import play_match
from games.values import to_plain


@dataclass(frozen=True)
class SelfplayReport:
    game: str
    players: int
    games: int
    completed: int
    moves: int
    seconds: float
    mean_rank: tuple[float, ...]
    mean_score: tuple[float, ...]
    illegal: int
    digest: str
    bots: tuple[str, ...]

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "completed": self.completed,
            "moves": self.moves,
            "seconds": round(self.seconds, 3),
            "moves_per_second": round(self.moves_per_second, 1),
            "mean_rank": [round(r, 4) for r in self.mean_rank],
            "mean_score": [round(s, 4) for s in self.mean_score],
            "illegal": self.illegal,
            "digest": self.digest,
        }


def match_seed(seed: int, index: int) -> str:
    """The seed of the index-th match of a run: distinct per match, fixed by the run's seed."""
    return f"{seed}/{index}"


def run_selfplay(
    game: Game,
    players: int,
    games: int,
    seed: int,
    bots: Sequence[str],
    options: Options | None = None,
    on_match: Callable[[], None] | None = None,
) -> SelfplayReport:
    """Play `games` matches; the digest covers every match's options, seed, moves and outcome."""
    seats = list(bots) if len(bots) != 1 else list(bots) * players
    digest = hashlib.sha256()
    rank_sum = [0.0] * players
    score_sum = [0.0] * players
    moves = illegal = completed = 0
    started = time.perf_counter()
    for index in range(games):
        record = play_match(game, players, match_seed(seed, index), seats, options)
        completed += 1
        moves += len(record.moves)
        illegal += record.illegal
        for seat in range(players):
            rank_sum[seat] += record.outcome.ranks[seat]
            score_sum[seat] += record.outcome.scores[seat]
        line = {
            "seed": record.seed,
            "options": record.options,
            "moves": [[seat, to_plain(move)] for seat, move in record.moves],
            "outcome": to_plain(record.outcome),
        }
        digest.update(json.dumps(line, sort_keys=True).encode() + b"\n")
        if on_match is not None:
            on_match()
    seconds = time.perf_counter() - started
    return SelfplayReport(
        game=game.id,
        players=players,
        games=games,
        completed=completed,
        moves=moves,
        seconds=seconds,
        mean_rank=tuple(r / max(completed, 1) for r in rank_sum),
        mean_score=tuple(s / max(completed, 1) for s in score_sum),
        illegal=illegal,
        digest=digest.hexdigest(),
        bots=tuple(seats),
    )
