"""`make bench`: run every benchmark module but the search-strength one and write
docs/benchmarks.md; `make bench-search` runs that one (hours of searched matches).

``BENCH_QUICK=1`` runs each harness for a fraction of a second (a test runs it so the harness
cannot rot) and skips the modules that need minutes of set-up; ``BENCH_MODULES`` picks modules
(comma-separated; ``-`` runs none and rewrites the document from the kept rows, as after a
merge); ``BENCH_OUTPUT`` writes somewhere else than docs/benchmarks.md.

Every module's rows are also kept beside the document (``benchmarks.json``), with when and in
which mode they were measured, so a run of some modules rewrites their sections and the goals
and keeps the others' last figures, each section saying when it was measured.
"""

from __future__ import annotations

import datetime
import importlib
import json
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
    "bench.research",
)
SEARCH_MODULES = ("bench.search", "bench.ismcts", "bench.knockout_luck")
"""Hundreds of searched matches per game (hours on 2 cores): `make bench-search`."""
SCALE_MODULES = ("bench.thousand", "bench.capacity", "bench.ladder10m")
"""A thousand matches on one arbiter, the capacity model's costs on one and three arbiters
(minutes each), a ten-million-match ladder (an hour to generate): `make bench-scale`."""
QUICK_MODULES = (
    "bench.playouts",
    "bench.engines",
    "bench.inner",
    "bench.arbiter",
    "bench.league",
    "bench.research",
)
"""The ladder and ratings benchmarks build million-match ladders, and the search benchmark
plays hundreds of searched matches: not in the quick mode (`bench.search` alone, with
BENCH_QUICK=1 and BENCH_MODULES, plays one match). Nor are the scale modules (`bench.thousand`,
`bench.capacity`: a minute each even in their quick mode); `bench.ladder10m` (a 10,000,000-match
ladder, far past `make bench`'s budget) runs only when BENCH_MODULES names it."""
OUTPUT = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
EXPLANATION = Path(__file__).resolve().parent / "references.md"


def _modules() -> tuple[str, ...]:
    chosen = os.environ.get("BENCH_MODULES", "")
    if chosen == "-":
        return ()
    if chosen:
        return tuple(name.strip() for name in chosen.split(",") if name.strip())
    return QUICK_MODULES if quick() else MODULES


def _section(name: str, rows: list[Row], measured: str) -> str:
    lines = [
        f"## {name}",
        "",
        f"Measured {measured}.",
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


def _kept(path: Path) -> dict[str, dict[str, object]]:
    """The modules' rows of earlier runs, by module (empty when there are none)."""
    try:
        found = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    modules = found.get("modules") if isinstance(found, dict) else None
    return modules if isinstance(modules, dict) else {}


def main() -> None:
    output = Path(os.environ.get("BENCH_OUTPUT", "") or OUTPUT)
    store = output.with_suffix(".json")
    mode = "quick" if quick() else "full"
    now = f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC"
    machine = f"{os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}"
    kept = _kept(store)
    ran = _modules()
    for name in ran:
        module = importlib.import_module(name)
        print(f"running {name} ...", file=sys.stderr)
        rows: list[Row] = module.run()
        kept[name] = {"date": now, "mode": mode, "machine": machine, "rows": rows}
        print(_section(name, rows, f"{now}, {mode}"))
    order = [*MODULES, *SEARCH_MODULES, *SCALE_MODULES]
    names = [name for name in order if name in kept] + sorted(set(kept) - set(order))
    sections = []
    every: list[Row] = []
    for name in names:
        entry = kept[name]
        rows = list(entry.get("rows", []))  # type: ignore[call-overload]
        every.extend(rows)
        when = f"{entry.get('date')}, {entry.get('mode')}, {entry.get('machine')}"
        if name not in ran:
            when += " (an earlier run: not measured in the last)"
        sections.append(_section(name, rows, when))
    goals = "## Goals (issues #28, #29, #40, #44 and #45)\n\n" + "\n".join(table(every))
    print(goals)
    header = (
        "# Benchmarks\n\n"
        "Written by `make bench` (every module but `bench.search`) and `make bench-search`;"
        " every figure is measured next to its reference in the same run on the same machine,"
        " and the ratio is figure / reference. Each section says when it was measured.\n\n"
        + (
            f"- last run: {now}, {mode}, {machine}\n- modules of the last run: {', '.join(ran)}\n"
            if ran
            else f"- rewritten from the kept rows on {now}; each section's own date stands\n"
        )
    )
    output.parent.mkdir(parents=True, exist_ok=True)
    explanation = EXPLANATION.read_text() if EXPLANATION.exists() else ""
    output.write_text(header + "\n" + goals + "\n\n" + "\n\n".join(sections) + "\n\n" + explanation)
    store.write_text(json.dumps({"modules": kept}, indent=1, sort_keys=True) + "\n")
    print(f"wrote {output} and {store.name}", file=sys.stderr)


if __name__ == "__main__":
    main()
