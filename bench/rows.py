"""The row every benchmark reports: a figure next to its reference from the same run."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

Row = dict[str, Any]


def row(name: str, value: float, unit: str, reference: str, reference_value: float) -> Row:
    return {
        "name": name,
        "value": round(value, 3),
        "unit": unit,
        "reference": reference,
        "reference_value": round(reference_value, 3),
    }


def print_rows(rows: Iterable[Row]) -> None:
    for item in rows:
        print(
            f"{item['name']}: {item['value']} {item['unit']}"
            f"  (reference: {item['reference']}: {item['reference_value']})"
        )
