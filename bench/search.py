"""Each search level against the game's heuristic: Elo difference with a 95% interval, and CPU
per search decision.

One match seats the level in one seat and the heuristic in every other, the level's seat
rotating through the table; its result is its rank scaled to [0, 1] (1 for first, 0 for last),
read as a score against the field. The Elo difference is the logistic inverse of the mean
score; the interval maps the mean's normal 95% interval the same way. CPU is the process's own
time spent inside the level's decisions (forced single moves included, as on the arbiter).

``BENCH_SEARCH_MATCHES`` sets the matches per pairing (the issue asks for 400; that is hours
of CPU on a small machine), ``BENCH_SEARCH_GAMES`` picks games (comma-separated).
``BENCH_QUICK=1`` plays one match at ``search:100`` of the game with the shortest matches (the
fewest decisions at its table).
"""

from __future__ import annotations

import math
import os
import statistics
import time
from dataclasses import dataclass

from bench.rows import Row, quick, row
from games import all_games, get
from games.bots import builtin_choice
from games.play import step
from games.search import LEVELS

PLAYERS = {game.id: game.bench_table() for game in all_games()}
"""A representative table per game, as each game declares it (`Game.bench_table`)."""
BASELINE = "heuristic"
Z95 = 1.96


@dataclass(frozen=True)
class Pairing:
    game: str
    level: str
    scores: tuple[float, ...]
    cpu_s: float
    decisions: int


def elo(score: float) -> float:
    """The Elo difference whose expected score is ``score`` (clipped off 0 and 1)."""
    clipped = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / clipped - 1)


def interval(scores: tuple[float, ...]) -> tuple[float, float]:
    """The 95% interval of the Elo difference, from the normal interval of the mean score."""
    mean = statistics.fmean(scores)
    spread = statistics.stdev(scores) if len(scores) > 1 else 0.5
    half = Z95 * spread / math.sqrt(len(scores))
    return elo(mean - half), elo(mean + half)


def play(game_id: str, level: str, matches: int) -> Pairing:
    game = get(game_id)
    players = PLAYERS[game_id]
    scores: list[float] = []
    cpu = 0.0
    decisions = 0
    for index in range(matches):
        seat = index % players
        names = [BASELINE] * players
        names[seat] = level
        seed = f"bench/search/{game_id}/{index}"
        state = game.new(players, seed)
        ply = 0
        while not state.is_over():
            asked = step(state)
            answers = []
            for k, a in enumerate(asked):
                started = time.process_time()
                move = builtin_choice(
                    game, names[a.seat], seed, a.seat, ply + k, a.observation, a.legal, state
                )
                if a.seat == seat:
                    cpu += time.process_time() - started
                    decisions += 1
                answers.append(move)
            for a, move in zip(asked, answers, strict=True):
                state.apply(a.seat, move)
            ply += len(asked)
        outcome = state.outcome()
        assert outcome is not None
        scores.append((players - outcome.ranks[seat]) / (players - 1))
    return Pairing(game_id, level, tuple(scores), cpu, decisions)


def quickest() -> str:
    """The game whose matches at its bench table take the fewest decisions."""
    return min(PLAYERS, key=lambda game_id: get(game_id).max_decisions(PLAYERS[game_id]))


def rows_of(result: Pairing) -> list[Row]:
    low, high = interval(result.scores)
    n = len(result.scores)
    label = f"{result.game} {result.level} vs {BASELINE} ({PLAYERS[result.game]}p, n={n})"
    strongest = result.level == max(LEVELS, key=LEVELS.__getitem__)  # issue #29's goals
    return [
        row(
            f"{label}: Elo (95% {low:+.0f} .. {high:+.0f})",
            elo(statistics.fmean(result.scores)),
            "Elo",
            "issue #29's goal",
            150,
            goal="search-elo" if strongest else None,
        ),
        row(
            f"{label}: CPU per decision",
            1000 * result.cpu_s / max(result.decisions, 1),
            "ms",
            "issue #29's budget",
            1000,
            goal="search-cpu" if strongest else None,
        ),
    ]


def run() -> list[Row]:
    if quick():
        return rows_of(play(quickest(), "search:100", 1))
    matches = int(os.environ.get("BENCH_SEARCH_MATCHES", "") or 400)
    chosen = os.environ.get("BENCH_SEARCH_GAMES", "")
    names = [g.strip() for g in chosen.split(",") if g.strip()] or sorted(PLAYERS)
    rows: list[Row] = []
    for game_id in names:
        for level in LEVELS:
            rows.extend(rows_of(play(game_id, level, matches)))
    return rows
