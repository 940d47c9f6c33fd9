"""Deliberately weakened arbiters, to show that a scenario fails without the code it guards:
`python -m tests.partitions.weakened` runs `premiere arbiter` with the weakness named by
PARTITIONS_WEAKEN switched on.

- `self-fence`: an arbiter cut from the database keeps hosting until a write is refused (the
  lease watchdog does nothing);
- `relay-blame`: a relay failure mid-forward is charged to the bot, as before the fix.
"""

from __future__ import annotations

import os
import sys

WEAKNESSES = ("self-fence", "relay-blame")


def weaken(name: str) -> None:
    if name == "self-fence":
        from server.arbiter import Arbiter

        Arbiter.fence_self_if_unrenewed = lambda self: 0  # type: ignore[method-assign]
    elif name == "relay-blame":
        from server.router import Unreachable

        Unreachable.infrastructure = False
    else:
        raise SystemExit(f"PARTITIONS_WEAKEN is one of {WEAKNESSES}, not {name!r}")


def main() -> None:
    weaken(os.environ.get("PARTITIONS_WEAKEN", ""))
    from premiere.cli import main as premiere

    sys.argv = ["premiere", "arbiter"]
    premiere()


if __name__ == "__main__":
    main()
