"""`make bench`: run every benchmark module and write docs/benchmarks.md."""

from __future__ import annotations

import datetime
import importlib
import os
import platform
import sys
from pathlib import Path

MODULES = (
    "bench.playouts",
    "bench.ratings",
    "bench.ladder",
    "bench.arbiter",
    "bench.arbiters",
)
OUTPUT = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"


def main() -> None:
    sections = []
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            continue
        print(f"running {name} ...", file=sys.stderr)
        rows = module.run()
        lines = [
            f"## {name}",
            "",
            "| benchmark | figure | reference | reference figure |",
            "| --- | --- | --- | --- |",
        ]
        for row in rows:
            lines.append(
                f"| {row['name']} | {row['value']} {row['unit']} | {row['reference']} "
                f"| {row['reference_value']} {row['unit']} |"
            )
        sections.append("\n".join(lines))
        print("\n".join(lines))
    header = (
        "# Benchmarks\n\n"
        "Written by `make bench`; every figure is measured next to its reference in the same "
        "run on the same machine.\n\n"
        f"- date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC\n"
        f"- machine: {os.cpu_count()} cores, {platform.machine()}, "
        f"Python {platform.python_version()}\n"
    )
    OUTPUT.parent.mkdir(exist_ok=True)
    OUTPUT.write_text(header + "\n" + "\n\n".join(sections) + "\n")
    print(f"wrote {OUTPUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
