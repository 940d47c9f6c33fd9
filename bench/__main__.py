"""`make bench`: run every benchmark module and write docs/benchmarks.md.

``BENCH_QUICK=1`` runs each harness for a fraction of a second (a test runs it so the harness
cannot rot) and skips the modules that need minutes of set-up; ``BENCH_MODULES`` picks modules
(comma-separated); ``BENCH_OUTPUT`` writes somewhere else than docs/benchmarks.md.
"""

from __future__ import annotations

import datetime
import importlib
import os
import platform
import sys
from pathlib import Path

from bench.goals import table
from bench.rows import Row, quick, ratio_text

MODULES = (
    "bench.playouts",
    "bench.engines",
    "bench.inner",
    "bench.ratings",
    "bench.ladder",
    "bench.arbiter",
    "bench.arbiters",
    "bench.league",
    "bench.hosting",
    "bench.search",
    "bench.research",
)
QUICK_MODULES = ("bench.playouts", "bench.engines", "bench.inner", "bench.arbiter", "bench.league")
"""The ladder and ratings benchmarks build million-match ladders, and the search benchmark
plays hundreds of searched matches: not in the quick mode (`bench.search` alone, with
BENCH_QUICK=1 and BENCH_MODULES, plays one match)."""
OUTPUT = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
EXPLANATION = Path(__file__).resolve().parent / "references.md"


def _modules() -> tuple[str, ...]:
    chosen = os.environ.get("BENCH_MODULES", "")
    if chosen:
        return tuple(name.strip() for name in chosen.split(",") if name.strip())
    return QUICK_MODULES if quick() else MODULES


def _section(name: str, rows: list[Row]) -> str:
    lines = [
        f"## {name}",
        "",
        "| benchmark | figure | reference | reference figure | ratio |",
        "| --- | --- | --- | --- | --- |",
    ]
    for item in rows:
        lines.append(
            f"| {item['name']} | {item['value']} {item['unit']} | {item['reference']} "
            f"| {item['reference_value']} {item.get('reference_unit', item['unit'])} "
            f"| {ratio_text(item)} |"
        )
    return "\n".join(lines)


def main() -> None:
    sections = []
    every: list[Row] = []
    for name in _modules():
        module = importlib.import_module(name)
        print(f"running {name} ...", file=sys.stderr)
        rows: list[Row] = module.run()
        every.extend(rows)
        sections.append(_section(name, rows))
        print(sections[-1])
    goals = "## Goals (issues #28, #29 and #40) in this run\n\n" + "\n".join(table(every))
    print(goals)
    header = (
        "# Benchmarks\n\n"
        "Written by `make bench`; every figure is measured next to its reference in the same "
        "run on the same machine, and the ratio is figure / reference.\n\n"
        f"- date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC\n"
        f"- machine: {os.cpu_count()} cores, {platform.machine()}, "
        f"Python {platform.python_version()}\n"
        f"- mode: {'quick (BENCH_QUICK=1: smoke figures only)' if quick() else 'full'}\n"
        f"- modules: {', '.join(_modules())}\n"
    )
    output = Path(os.environ.get("BENCH_OUTPUT", "") or OUTPUT)
    output.parent.mkdir(parents=True, exist_ok=True)
    explanation = EXPLANATION.read_text() if EXPLANATION.exists() else ""
    output.write_text(header + "\n" + goals + "\n\n" + "\n\n".join(sections) + "\n\n" + explanation)
    print(f"wrote {output}", file=sys.stderr)


if __name__ == "__main__":
    main()
