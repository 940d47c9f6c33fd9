"""Where the local stack keeps its state, and whether one is running from there.

Apart from `premiere.stack` (which starts the stack) because every `premiere` command asks
it before it runs, and these few lines should not load what starting a stack needs."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

MARKER = "premiere-state"
"""A file in every state folder, so commands run in a subfolder find the project's."""


def state_dir() -> Path:
    """PREMIERE_STATE_DIR; else the nearest `.state` of Premiere's here or in a parent folder,
    so every command finds the stack started from the project's root; else ./.state."""
    configured = os.environ.get("PREMIERE_STATE_DIR")
    if configured:
        return Path(configured).resolve()
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        candidate = folder / ".state"
        if (candidate / MARKER).exists() or (candidate / "stack.json").exists():
            return candidate
    return here / ".state"


def running_stack(folder: Path) -> dict[str, Any] | None:
    """The description of the stack running from `folder`, if its launcher is alive."""
    try:
        stack: dict[str, Any] = json.loads((folder / "stack.json").read_text())
        launcher = int(stack["launcher"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    try:
        os.kill(launcher, 0)
    except PermissionError:
        return stack  # alive, under another user
    except OSError:
        return None
    return stack
