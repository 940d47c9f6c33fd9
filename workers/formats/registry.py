"""Every league format by name: each module of this package that declares a ``FORMAT``
(``workers.formats.declaration.LeagueFormat``), found when first asked for, so a new format is
its module alone."""

from __future__ import annotations

import functools
import importlib
import pkgutil

import workers.formats
from workers.formats.declaration import LeagueFormat


@functools.cache
def _formats() -> dict[str, LeagueFormat]:
    found: dict[str, LeagueFormat] = {}
    for module in sorted(pkgutil.iter_modules(workers.formats.__path__), key=lambda m: m.name):
        found_in = importlib.import_module(f"workers.formats.{module.name}")
        declared = getattr(found_in, "FORMAT", None)
        if isinstance(declared, LeagueFormat):
            if declared.name in found:
                raise RuntimeError(f"two league formats are named {declared.name!r}")
            found[declared.name] = declared
    return found


def get(name: str) -> LeagueFormat:
    try:
        return _formats()[name]
    except KeyError:
        raise ValueError(f"unknown format {name!r}; choose from {', '.join(names())}") from None


def names() -> tuple[str, ...]:
    return tuple(_formats())
