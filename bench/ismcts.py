"""ISMCTS (OpenSpiel's) against random seats in every game: `bench.research.run_search`."""

from __future__ import annotations

from bench.research import run_search
from bench.rows import Row, print_rows


def run() -> list[Row]:
    return run_search()


if __name__ == "__main__":
    print_rows(run())
