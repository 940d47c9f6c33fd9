"""Rating benchmarks: the official standings fit over 100k four-player matches, cold and warm.

Each figure stands next to a reference measured in the same run: the cold fit next to live Elo
applied to the same matches one by one (the cheapest way to turn the log into numbers at all),
the warm refit next to a cold fit of the same log. The fit is timed with one BLAS thread, as a
rating job runs on a worker that shares its cores; ``OPENBLAS_NUM_THREADS`` and friends, when
already set, win.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
_NUMPY_PRELOADED = "numpy" in sys.modules
for _variable in _THREAD_VARIABLES:
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402

from bench.rows import print_rows, row  # noqa: E402
from ladder import elo  # noqa: E402
from ladder.standings import MatchLog, Standings, compile_log, extend_log, fit  # noqa: E402

MATCHES = 100_000
NEW_MATCHES = 1_000
SEATS = 4
REPEATS = 3
SEED = 20240601

_T = TypeVar("_T")


def _blas_threads() -> str:
    if _NUMPY_PRELOADED:
        return "BLAS threads as numpy was loaded"
    return f"{os.environ['OPENBLAS_NUM_THREADS']} BLAS thread(s)"


def _synthetic_log(bots: int, matches: int, seed: int) -> list[dict[int, int]]:
    """Rounds in which every bot sits once at a random four-player table (``bots`` divisible by
    four); finishing orders from Plackett-Luce (Gumbel trick), true strengths spread with a
    300-point standard deviation."""
    rng = np.random.default_rng(seed)
    theta = rng.normal(0.0, 300 * np.log(10) / 400, size=bots)
    rounds = -(-matches * SEATS // bots)
    seating = np.concatenate([rng.permutation(bots) for _ in range(rounds)])
    tables = seating[: matches * SEATS].reshape(matches, SEATS)
    noisy = theta[tables] + rng.gumbel(size=tables.shape)
    ranks = np.argsort(np.argsort(-noisy, axis=1), axis=1) + 1
    return [
        dict(zip(table, places, strict=True))
        for table, places in zip(tables.tolist(), ranks.tolist(), strict=True)
    ]


def _best_of(repeats: int, work: Callable[[], _T]) -> tuple[float, _T]:
    """The fastest of ``repeats`` runs, and what the last one returned."""
    timings = []
    for _ in range(repeats):
        started = time.perf_counter()
        result = work()
        timings.append(time.perf_counter() - started)
    return min(timings), result


def _live_elo(matches: list[dict[int, int]]) -> dict[int, float]:
    ratings: dict[int, float] = {}
    games: dict[int, int] = {}
    for match in matches:
        bots = list(match)
        update = elo.update(
            [ratings.get(bot, elo.DEFAULT_PARAMS.start_rating) for bot in bots],
            [games.get(bot, 0) for bot in bots],
            [match[bot] for bot in bots],
        )
        for bot, rating in zip(bots, update.ratings, strict=True):
            ratings[bot] = rating
            games[bot] = games.get(bot, 0) + 1
    return ratings


def _cold_fit(matches: list[dict[int, int]]) -> Standings[int]:
    return fit(compile_log(matches))


def _warm_fit(
    log: MatchLog[int], new: list[dict[int, int]], previous: dict[int, float]
) -> Standings[int]:
    return fit(extend_log(log, new), warm_start=previous)


def run() -> list[dict[str, Any]]:
    """Measure, and return one row per figure."""
    rows = []
    threads = _blas_threads()
    for bots in (200, 1000):
        log = _synthetic_log(bots, MATCHES + NEW_MATCHES, SEED + bots)
        old, new = log[:MATCHES], log[MATCHES:]
        elo_seconds, _ = _best_of(1, partial(_live_elo, old))
        cold_seconds, before = _best_of(REPEATS, partial(_cold_fit, old))
        warm_seconds, after = _best_of(
            REPEATS, partial(_warm_fit, compile_log(old), new, before.log_strengths)
        )
        full_seconds, full = _best_of(REPEATS, partial(_cold_fit, log))
        rows += [
            row(
                f"standings: compile + cold fit, {MATCHES:,} {SEATS}-player matches, "
                f"{bots} bots, {threads}",
                cold_seconds,
                "s",
                "live Elo, the same matches one by one (pure Python)",
                elo_seconds,
            ),
            row(
                f"standings: warm refit after {NEW_MATCHES:,} new matches "
                f"(extend log + fit from previous strengths), {bots} bots",
                warm_seconds,
                "s",
                f"cold fit of the same {MATCHES + NEW_MATCHES:,} matches",
                full_seconds,
            ),
            row(
                f"standings: Newton steps, warm refit, {bots} bots",
                after.iterations,
                "steps",
                "Newton steps, cold fit of the same matches",
                full.iterations,
            ),
        ]
    return rows


def main() -> None:
    print_rows(run())


if __name__ == "__main__":
    main()
