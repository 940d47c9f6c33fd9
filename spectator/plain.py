"""Dataclass trees as JSON values: what every JSON answer of the HTTP server sends."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Mapping
from typing import Any


def plain(value: Any) -> Any:
    """A dataclass tree as JSON-ready values; times in ISO 8601."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            field.name: plain(getattr(value, field.name)) for field in dataclasses.fields(value)
        }
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value
