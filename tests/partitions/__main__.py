"""`python -m tests.partitions [SCENARIO ...]`: run scenarios (all when none is named) and
print, per scenario, the faults injected, matches played, moves acknowledged and each
promise's verdict. Exits 1 when any promise failed. Needs root.

`--weaken WEAKNESS` runs its scenario (or the ones named) on a weakened build;
`--weakened` runs every weakness against its scenario and exits 1 unless each run fails,
and fails the promise the weakness breaks.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from tests.guard import KEPT_TMPDIR
from tests.partitions.history import Report
from tests.partitions.net import why_not
from tests.partitions.scenarios import run, scenarios
from tests.partitions.weakened import WEAKNESSES, Weakness


def _run(name: str, weakness: str = "") -> Report:
    # Kept for reading after the run: not in the run's own temporary folder (tests/guard.py).
    kept = os.environ.get(KEPT_TMPDIR)
    folder = Path(tempfile.mkdtemp(prefix=f"premiere-partitions-{name}-", dir=kept))
    report = run(scenarios()[name], folder, weakness)
    print(report.text(), flush=True)
    print(f"  (logs and records: {folder})\n", flush=True)
    return report


def broke_as_expected(weakness: Weakness, report: Report) -> bool:
    """The weakened run failed, and among its failures is the promise the weakness breaks."""
    failed = [v.promise for v in report.verdicts if not v.ok]
    return any(promise.startswith(weakness.breaks) for promise in failed)


def _weakened(names: list[str]) -> int:
    chosen = [w for w in WEAKNESSES.values() if not names or w.scenario in names]
    unexpected = []
    for weakness in chosen:
        print(f"(weakened: {weakness.name}, {weakness.what})", flush=True)
        report = _run(weakness.scenario, weakness.name)
        if broke_as_expected(weakness, report):
            print(f"  as expected: {weakness.scenario} broke '{weakness.breaks}'\n", flush=True)
        else:
            print(f"  NOT CAUGHT: {weakness.scenario} kept '{weakness.breaks}'\n", flush=True)
            unexpected.append(weakness.name)
    if unexpected:
        print(f"weaknesses not caught: {', '.join(unexpected)}")
    return 1 if unexpected else 0


def main() -> int:
    known = scenarios()
    parser = argparse.ArgumentParser(prog="python -m tests.partitions")
    parser.add_argument("names", nargs="*", choices=[[], *known], metavar="SCENARIO")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--weaken", choices=sorted(WEAKNESSES), help="run a weakened build")
    which.add_argument(
        "--weakened", action="store_true", help="every weakness against its scenario"
    )
    args = parser.parse_args()
    reason = why_not()
    if reason is not None:
        print(f"skipped: {reason}")
        return 0
    if args.weakened:
        return _weakened(args.names)
    weakness = WEAKNESSES[args.weaken] if args.weaken else None
    names = args.names or ([weakness.scenario] if weakness else list(known))
    if weakness is not None:
        print(f"(weakened: {weakness.name}, {weakness.what})", flush=True)
    reports = [_run(name, args.weaken or "") for name in names]
    return 0 if all(r.ok for r in reports) else 1


if __name__ == "__main__":
    sys.exit(main())
