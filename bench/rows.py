"""The row every benchmark reports: a figure next to its reference from the same run, and the
ratio between them (figure / reference)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

Row = dict[str, Any]


def quick() -> bool:
    """`BENCH_QUICK=1`: every harness runs for a fraction of a second per figure, so a test can
    run the whole of `make bench` in seconds (the figures are then only smoke)."""
    return os.environ.get("BENCH_QUICK", "") not in ("", "0")


def row(
    name: str,
    value: float,
    unit: str,
    reference: str,
    reference_value: float,
    reference_unit: str | None = None,
    goal: str | None = None,
) -> Row:
    """``goal`` names a line of the goals table (`bench.goals`) that this row's ratio answers."""
    made: Row = {
        "name": name,
        "value": round(value, 3),
        "unit": unit,
        "reference": reference,
        "reference_value": round(reference_value, 3),
        "reference_unit": unit if reference_unit is None else reference_unit,
    }
    if goal is not None:
        made["goal"] = goal
    return made


def ratio(item: Row) -> float | None:
    """Figure over reference, when both are numbers and the reference is not zero."""
    value, reference = item.get("value"), item.get("reference_value")
    if not isinstance(value, int | float) or not isinstance(reference, int | float):
        return None
    if reference == 0:
        return None
    return float(value) / float(reference)


def ratio_text(item: Row) -> str:
    found = ratio(item)
    return "n/a" if found is None else f"{found:.3g}x"


def print_rows(rows: Iterable[Row]) -> None:
    for item in rows:
        print(
            f"{item['name']}: {item['value']} {item['unit']}"
            f"  (reference: {item['reference']}: {item['reference_value']}"
            f" {item.get('reference_unit', item['unit'])}; ratio {ratio_text(item)})"
        )
