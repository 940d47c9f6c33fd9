"""`python -m tests.partitions [SCENARIO ...] [--weaken WEAKNESS]`: run scenarios (all when
none is named) and print, per scenario, the faults injected, matches played, moves
acknowledged and each promise's verdict. Exits 1 when any promise failed. Needs root."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from tests.partitions.net import why_not
from tests.partitions.scenarios import run, scenarios
from tests.partitions.weakened import WEAKNESSES


def main() -> int:
    known = scenarios()
    parser = argparse.ArgumentParser(prog="python -m tests.partitions")
    parser.add_argument("names", nargs="*", choices=[[], *known], metavar="SCENARIO")
    parser.add_argument("--weaken", choices=WEAKNESSES, help="run a weakened arbiter")
    args = parser.parse_args()
    reason = why_not()
    if reason is not None:
        print(f"skipped: {reason}")
        return 0
    module = ""
    if args.weaken:
        os.environ["PARTITIONS_WEAKEN"] = args.weaken
        module = "tests.partitions.weakened"
        print(f"(weakened arbiters: {args.weaken})")
    failed = False
    for name in args.names or list(known):
        folder = Path(tempfile.mkdtemp(prefix=f"premiere-partitions-{name}-"))
        report = run(known[name], folder, arbiter_module=module)
        print(report.text(), flush=True)
        print(f"  (logs and records: {folder})\n", flush=True)
        failed |= not report.ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
