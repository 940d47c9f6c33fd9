"""`bench.ladder` on a ladder ten times its size: 10,000,000 stored matches, generated the same
way (COPY into a staging table, spread by SQL straight into the real tables).

Not part of `make bench`: building the ladder (40M seats, 40M rating-history rows) and its
whole-log fit, the cold start's reference, take far more than the whole of `make bench`'s budget
on two cores. Run it alone: ``BENCH_MODULES=bench.ladder10m make bench``.
``PREMIERE_BENCH_LADDER_LARGE`` sets another size.

Every row of `bench.ladder` is kept; the cold start, the leaderboard query and rating per match
answer this size's goals.
"""

from __future__ import annotations

import os

from bench import ladder
from bench.rows import Row, print_rows

LARGE = int(os.environ.get("PREMIERE_BENCH_LADDER_LARGE", "10000000"))
GOALS = {
    "ladder-cold": "ladder10m-cold",
    "ladder-rate": "ladder10m-rate",
    "ladder-rest": "ladder10m-rest",
}


def run() -> list[Row]:
    kept = ladder.MATCHES
    ladder.MATCHES = LARGE
    try:
        rows = ladder.run()
    finally:
        ladder.MATCHES = kept
    for item in rows:
        if item.get("goal") in GOALS:
            item["goal"] = GOALS[item["goal"]]
        elif item["name"].startswith("ladder: leaderboard query"):
            item["goal"] = "ladder10m-board"
        item["name"] = (
            item["name"]
            .replace("(goal ≤ 2 s)", "(goal ≤ 1 s)")
            .replace("(goal ≤ 1 ms)", "(goal ≤ 0.3 ms)")
        )
    return rows


if __name__ == "__main__":
    print_rows(run())
