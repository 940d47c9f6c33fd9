"""How often the strongest of four built-ins of known strength order wins a knockout, per game,
for plain heats (one table a heat) and for duplicate heats of 1, 2 and 3 deals (each deal once
per seat order, `workers.formats.knockout`'s setting ``deals``).

The four are ``random`` < ``heuristic`` < ``search:100`` < ``search:1000``, seeded in a random
order each knockout (so the seeding does not help the strongest), at two seats where the game
is played by two and at three otherwise. The brackets are the format's own
(`workers.formats.knockout`: its planning, `walk` and tie-break); the plain heats use the same
brackets with one table a heat, its seats in a random order.

The matches are real, between the built-ins as the arena runs them, but a search:1000 match
takes ten seconds to a minute, so every knockout deals its heats from a pool of
``BENCH_KNOCKOUT_DEALS`` sealed deals per game, drawn at random (without replacement within a
knockout where the pool allows): a match is played once per (deal, seat order) and its result
reused by every knockout that draws it. Many knockouts on a small pool measure the format on
that pool: the share's interval is from the knockouts, and the pool's size is stated in each
row. The edge of ``search:1000`` over ``search:100`` (Elo, from every pooled match that seats
both: 1 for finishing ahead, ½ for a tie) says whether the game counts for the goal (an edge of
+150 Elo or more).

``BENCH_KNOCKOUT_GAMES`` picks games (comma-separated), ``BENCH_KNOCKOUT_DEALS`` sets the pool
(default 24), ``BENCH_KNOCKOUT_RUNS`` the knockouts per game and heat kind (default 400),
``BENCH_KNOCKOUT_LONGEST`` the longest duplicate heat measured (default 3 deals; at most the
pool's size, or heats share deals), ``BENCH_KNOCKOUT_JOBS`` the processes that play the pool's
matches first (default: one per core; 1 plays each match when a knockout first draws it). A
match's ranks depend on its deal and seat order alone, so the jobs change the wall time, never
a figure.
"""

from __future__ import annotations

import itertools
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from bench.rows import Row, quick, row
from games import all_games, get
from games.bots import builtin_choice
from games.play import step
from workers.formats.knockout import DEALS, walk
from workers.planning import PlayedTable, fold_duplicates, plan

FIELD = ("random", "heuristic", "search:100", "search:1000")
"""Weakest to strongest."""
STRONGEST, NEXT = FIELD[-1], FIELD[-2]
KINDS: tuple[int, ...] = (0, 1, 2, 3)
"""0: plain heats (one table a heat); k: duplicate heats of k deals (up to
``BENCH_KNOCKOUT_LONGEST``, default 3)."""
GOAL_SHARE = 90.0
GOAL_EDGE = 150.0
Z95 = 1.96


def seats_of(game_id: str) -> int:
    counts = get(game_id).player_counts
    return 2 if 2 in counts else min(n for n in counts if n >= 2)


@dataclass
class Pool:
    """A game's sealed deals and the matches played on them, each played once."""

    game: str
    deals: int
    played: dict[tuple[int, tuple[str, ...]], tuple[int, ...]] = field(default_factory=dict)
    seconds: float = 0.0

    def ranks(self, deal: int, seats: tuple[str, ...]) -> tuple[int, ...]:
        key = (deal, seats)
        if key not in self.played:
            self.played[key], seconds = _timed(self.game, key)
            self.seconds += seconds
        return self.played[key]

    def fill(self, jobs: int) -> None:
        """Play every (deal, seat order) not yet played, across ``jobs`` processes."""
        keys = [
            (deal, seats)
            for deal in range(self.deals)
            for seats in itertools.permutations(FIELD, seats_of(self.game))
            if (deal, seats) not in self.played
        ]
        with ProcessPoolExecutor(jobs) as pool:
            games = [self.game] * len(keys)
            for key, (ranks, seconds) in zip(keys, pool.map(_timed, games, keys), strict=True):
                self.played[key] = ranks
                self.seconds += seconds

    def edge(self) -> tuple[float, float, float, int]:
        """search:1000 over search:100 in Elo, with its 95% interval, and the meetings."""
        scores = []
        for (_deal, seats), ranks in self.played.items():
            if STRONGEST in seats and NEXT in seats:
                mine, theirs = ranks[seats.index(STRONGEST)], ranks[seats.index(NEXT)]
                scores.append(1.0 if mine < theirs else 0.5 if mine == theirs else 0.0)
        if not scores:
            return 0.0, 0.0, 0.0, 0
        mean = statistics.fmean(scores)
        spread = statistics.stdev(scores) if len(scores) > 1 else 0.5
        half = Z95 * spread / math.sqrt(len(scores))
        return elo(mean), elo(mean - half), elo(mean + half), len(scores)


def elo(score: float) -> float:
    clipped = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / clipped - 1)


def play(game_id: str, seed: str, seats: Sequence[str]) -> tuple[int, ...]:
    """One match of built-ins, ``seats`` in seat order: its ranks."""
    game = get(game_id)
    state = game.new(len(seats), seed)
    ply = 0
    while not state.is_over():
        asked = step(state)
        moves = [
            builtin_choice(
                game, seats[a.seat], seed, a.seat, ply + k, a.observation, a.legal, state
            )
            for k, a in enumerate(asked)
        ]
        for a, move in zip(asked, moves, strict=True):
            state.apply(a.seat, move)
        ply += len(asked)
    outcome = state.outcome()
    assert outcome is not None
    return tuple(outcome.ranks)


def _timed(game_id: str, key: tuple[int, tuple[str, ...]]) -> tuple[tuple[int, ...], float]:
    started = time.perf_counter()
    deal, seats = key
    ranks = play(game_id, f"bench/knockout/{game_id}/{deal}", seats)
    return ranks, time.perf_counter() - started


def _dealer(pool: Pool, rng: random.Random) -> Callable[[str], int]:
    """Table seed -> pool deal, a fresh draw for each new seed of one knockout."""
    drawn: dict[str, int] = {}
    order = rng.sample(range(pool.deals), pool.deals)

    def deal(seed: str) -> int:
        if seed not in drawn:
            index = len(drawn)
            drawn[seed] = order[index] if index < len(order) else rng.randrange(pool.deals)
        return drawn[seed]

    return deal


def knockout(pool: Pool, kind: int, rng: random.Random) -> str:
    """One knockout of the four, seeded at random: its champion."""
    bots = tuple(rng.sample(FIELD, len(FIELD)))
    seats = seats_of(pool.game)
    league_seed = f"{rng.getrandbits(128):032x}"
    deal = _dealer(pool, rng)
    played: list[PlayedTable] = []
    history: list[tuple[int, tuple[str, ...], tuple[int, ...]]] = []
    number = 1
    while True:
        if kind == 0:
            walked = walk(bots, seats, history, number - 1)
            if walked.final is not None:
                return walked.final[0]
            bracket_round, indexes = walked.schedule[number]
            for index in indexes:
                heat = list(walked.rounds[bracket_round - 1].heats[index])
                rng.shuffle(heat)
                table = tuple(heat)
                history.append((number, table, pool.ranks(deal(f"{number}/{index}"), table)))
        else:
            tables = plan(
                "knockout", bots, seats, number, league_seed, fold_duplicates(played), {},
                {"deals": kind},
            )  # fmt: skip
            if not tables:
                walked = walk(bots, seats, fold_duplicates(played), number - 1, None, kind)
                assert walked.final is not None
                return walked.final[0]
            for t in tables:
                ranks = pool.ranks(deal(t.seed), t.seats)
                played.append(PlayedTable(number, t.seats, t.seed, t.group, ranks))
        number += 1


def measure(
    game_id: str, deals: int, runs: int, jobs: int = 1, kinds: tuple[int, ...] = KINDS
) -> list[Row]:
    pool = Pool(game_id, deals)
    if jobs > 1:
        pool.fill(jobs)
    rng = random.Random(f"bench/knockout/{game_id}")
    seats = seats_of(game_id)
    wins: dict[int, int] = {}
    for kind in kinds:
        wins[kind] = sum(knockout(pool, kind, rng) == STRONGEST for _ in range(runs))
        print(f"  {game_id} kind {kind}: {wins[kind]}/{runs}", file=sys.stderr, flush=True)
    edge, low, high, meetings = pool.edge()
    counts = edge >= GOAL_EDGE
    plain = 100.0 * wins[0] / runs
    rows: list[Row] = []
    where = f"{seats} seats, pool of {deals} deals, {runs} knockouts"
    rows.append(
        row(
            f"{game_id} {STRONGEST} over {NEXT}, Elo (95% {low:+.0f} .. {high:+.0f},"
            f" {meetings} meetings in the pool's matches)",
            edge,
            "Elo",
            "the goal's edge",
            GOAL_EDGE,
        )
    )
    for kind in kinds[1:]:
        share = 100.0 * wins[kind] / runs
        half = 100.0 * Z95 * math.sqrt(max(share / 100 * (1 - share / 100), 1e-9) / runs)
        rows.append(
            row(
                f"{game_id} strongest of four wins the knockout, duplicate heats of {kind}"
                f" deal{'s' if kind > 1 else ''} (± {half:.0f} points; {where})",
                share,
                "%",
                "plain heats (one table a heat), same pool",
                plain,
                goal="knockout-luck" if counts and kind == DEALS else None,
            )
        )
    rows.append(
        row(
            f"{game_id} pool's matches played ({len(pool.played)} matches)",
            pool.seconds,
            "s",
            "knockouts measured",
            float(runs * len(kinds)),
            reference_unit="knockouts",
        )
    )
    return rows


def run() -> list[Row]:
    chosen = os.environ.get("BENCH_KNOCKOUT_GAMES", "")
    names = [g.strip() for g in chosen.split(",") if g.strip()] or sorted(
        game.id for game in all_games()
    )
    deals = int(os.environ.get("BENCH_KNOCKOUT_DEALS", "") or (1 if quick() else 24))
    runs = int(os.environ.get("BENCH_KNOCKOUT_RUNS", "") or (4 if quick() else 400))
    jobs = int(os.environ.get("BENCH_KNOCKOUT_JOBS", "") or (1 if quick() else os.cpu_count() or 1))
    longest = int(os.environ.get("BENCH_KNOCKOUT_LONGEST", "") or KINDS[-1])
    rows: list[Row] = []
    for game_id in names:
        print(f"knockout luck: {game_id}", file=sys.stderr, flush=True)
        rows.extend(measure(game_id, deals, runs, jobs, tuple(range(longest + 1))))
    return rows
