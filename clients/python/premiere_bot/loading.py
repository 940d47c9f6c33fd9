"""Bots by name: ``module:Class``, as every ``premiere-bot`` command that runs a bot takes it."""

from __future__ import annotations

import importlib
import os
import sys

from premiere_bot.bot import Bot


def load_bot(spec: str) -> Bot:
    """Instantiate `module:Class`; the module is imported from the current directory too."""
    module_name, sep, class_name = spec.partition(":")
    if not sep or not module_name or not class_name:
        raise SystemExit(f"expected module:Class, got {spec!r}")
    sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise SystemExit(f"cannot import {module_name}: {error}") from None
    cls = getattr(module, class_name, None)
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise SystemExit(f"{spec} is not a premiere_bot.Bot subclass")
    return cls()
