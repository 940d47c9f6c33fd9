"""Apply each curated mutation of tests/mutants/mutants.toml alone to a scratch copy of the
tree and run the tests named for it; print which were killed, by which test.

A mutation names a file, an exact snippet that must occur there once, its replacement, and the
tests that guard the promise it breaks. Every mutation must be killed: the exit status is 0
only then. docs/testing.md says why this is a list of patches and not a mutation tool's
automatic operators.

Usage: scripts/mutants.py [--fast] [--only ID ...] [--list FILE]

It needs nothing of the project but its tests: the scratch copy is put first on PYTHONPATH, so
the test process and every process it starts (arbiter, workers, bots) import the mutated code,
with this checkout's .venv.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIST = ROOT / "tests" / "mutants" / "mutants.toml"
SKIPPED_DIRS = {".git", ".venv", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache"}
SKIPPED_DIRS |= {".pytest_cache", ".hypothesis", ".state"}
TIMEOUT_SECONDS = 900

sys.path.insert(0, str(ROOT))  # tests.guard, as `python -m tests.guard` finds it from ROOT
from premiere.children import adopt_orphans, wait_reaping  # noqa: E402
from tests.guard import MARKER, Leftover, sweep  # noqa: E402

_adopting = False
"""Whether we adopt orphans and start nothing but test runs (`main`), so whatever runs below
us once a run has ended is that run's; otherwise (a test calling `run_one`) only the marked."""


@dataclass(frozen=True)
class Mutation:
    id: str
    promise: str
    file: str
    original: str
    replacement: str
    tests: tuple[str, ...]
    fast: bool = False


@dataclass(frozen=True)
class Outcome:
    mutation: Mutation
    killed: bool
    by: str
    """The first failing test, or why the run counts as killed or not."""
    seconds: float
    left: tuple[Leftover, ...] = ()
    """Processes its test run started and left running (ended by the runner): a test whose
    clean-up a mutation can skip."""


def load(path: Path = LIST) -> list[Mutation]:
    """The mutations of ``path``; ids must be unique and every mutation must name tests."""
    entries = tomllib.loads(path.read_text())["mutation"]
    mutations = [
        Mutation(
            id=entry["id"],
            promise=entry["promise"],
            file=entry["file"],
            original=entry["original"],
            replacement=entry["replacement"],
            tests=tuple(entry["tests"]),
            fast=bool(entry.get("fast", False)),
        )
        for entry in entries
    ]
    ids = [m.id for m in mutations]
    duplicated = sorted({i for i in ids if ids.count(i) > 1})
    if duplicated:
        raise ValueError(f"{path}: duplicated ids {duplicated}")
    for mutation in mutations:
        if not mutation.tests:
            raise ValueError(f"{path}: {mutation.id} names no test")
        if mutation.original == mutation.replacement:
            raise ValueError(f"{path}: {mutation.id} changes nothing")
    return mutations


def _ignore(folder: str, names: list[str]) -> set[str]:
    return {name for name in names if name in SKIPPED_DIRS or name.endswith(".pyc")}


@contextmanager
def scratch_copy(source: Path = ROOT) -> Iterator[Path]:
    """A copy of the tree (without caches, .git and the virtualenv, which is linked)."""
    with tempfile.TemporaryDirectory(prefix="premiere-mutants-") as folder:
        copy = Path(folder) / "tree"
        shutil.copytree(source, copy, ignore=_ignore, symlinks=True)
        (copy / ".venv").symlink_to(source / ".venv")
        node = source / "clients" / "node" / "node_modules"
        if node.exists():
            (copy / "clients" / "node" / "node_modules").symlink_to(node)
        yield copy


def check(mutation: Mutation, tree: Path) -> str:
    """The file's text, after checking the snippet occurs exactly once (a mutation whose code
    moved must be rewritten, never silently skipped)."""
    text = (tree / mutation.file).read_text()
    found = text.count(mutation.original)
    if found != 1:
        raise ValueError(
            f"{mutation.id}: the original snippet occurs {found} times in {mutation.file}"
        )
    return text


@contextmanager
def applied(mutation: Mutation, tree: Path) -> Iterator[None]:
    path = tree / mutation.file
    text = check(mutation, tree)
    path.write_text(text.replace(mutation.original, mutation.replacement))
    try:
        yield
    finally:
        path.write_text(text)


def _first_failure(output: str) -> str:
    for line in output.splitlines():
        found = re.match(r"(FAILED|ERROR) (\S+)", line)
        if found:
            return found.group(2)
    return ""


def run_tests(
    tree: Path, tests: Sequence[str], timeout: float = TIMEOUT_SECONDS
) -> tuple[int | None, str, list[Leftover]]:
    """Run ``tests`` in ``tree`` with this checkout's interpreter; (exit status, None on a
    timeout; output; the processes it left running, now ended).

    The run gets a marker of its own in its environment, which every process it starts
    inherits: whatever carries it once pytest has ended (or been killed at the timeout) is
    left over. We adopt orphans, so a process started with an environment of its own is
    found too, as our descendant."""
    run_id = uuid.uuid4().hex
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tree), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env[MARKER] = run_id
    command = [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider"]
    command += ["-x", "-q", "-rfE", "--no-header", *tests]
    with tempfile.TemporaryFile("w+") as out:
        process = subprocess.Popen(
            command,
            cwd=tree,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        status: int | None
        try:
            status = wait_reaping(process, timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            wait_reaping(process)
            status = None
        out.seek(0)
        output = out.read()
    return status, output, sweep(run_id, os.getpid() if _adopting else None)


def run_one(mutation: Mutation, tree: Path, timeout: float = TIMEOUT_SECONDS) -> Outcome:
    """Apply ``mutation`` alone, run its tests, put the file back."""
    started = time.monotonic()
    with applied(mutation, tree):
        status, output, left = run_tests(tree, mutation.tests, timeout)
    seconds = time.monotonic() - started
    if status is None:
        return Outcome(mutation, True, f"timeout after {timeout:.0f} s", timeout, tuple(left))
    if status == 0:
        return Outcome(mutation, False, "all its tests passed", seconds, tuple(left))
    if status == 1:
        by = _first_failure(output) or "a test failed"
        return Outcome(mutation, True, by, seconds, tuple(left))
    # 2..5: interrupted, internal error, usage error, nothing collected: the list is wrong.
    tail = " | ".join(output.strip().splitlines()[-3:])
    return Outcome(mutation, False, f"pytest exited {status}: {tail}", seconds, tuple(left))


def table(outcomes: Sequence[Outcome]) -> str:
    rows = [("mutation", "promise", "result", "seconds", "killed by")]
    for o in outcomes:
        result = "killed" if o.killed else "SURVIVED"
        rows.append((o.mutation.id, o.mutation.promise, result, f"{o.seconds:.0f}", o.by))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = []
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row[:4], widths, strict=True)]
        lines.append("  ".join([*cells, row[4]]))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fast", action="store_true", help="only the mutations marked fast")
    parser.add_argument("--only", nargs="+", default=(), help="only these mutation ids")
    parser.add_argument("--list", type=Path, default=LIST, help="the mutation list (TOML)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT_SECONDS)
    args = parser.parse_args(argv)
    mutations = load(args.list)
    if args.fast:
        mutations = [m for m in mutations if m.fast]
    if args.only:
        unknown = set(args.only) - {m.id for m in mutations}
        if unknown:
            parser.error(f"no such mutation: {sorted(unknown)}")
        mutations = [m for m in mutations if m.id in args.only]
    outcomes = []
    global _adopting
    _adopting = adopt_orphans()
    with scratch_copy() as tree:
        for mutation in mutations:
            check(mutation, tree)
        for mutation in mutations:
            outcome = run_one(mutation, tree, args.timeout)
            outcomes.append(outcome)
            mark = "killed" if outcome.killed else "SURVIVED"
            print(f"{mutation.id}: {mark} ({outcome.by})", flush=True)
            for leftover in outcome.left:
                print(f"  its tests left {leftover}; ended it", flush=True)
    print()
    print(table(outcomes))
    survived = [o.mutation.id for o in outcomes if not o.killed]
    print(f"\n{len(outcomes) - len(survived)} of {len(outcomes)} killed", end="")
    print(f"; survived: {', '.join(survived)}" if survived else "")
    leaky = [o.mutation.id for o in outcomes if o.left]
    if leaky:
        print(f"left processes running (each named above): {', '.join(leaky)}")
    return 1 if survived or leaky else 0


if __name__ == "__main__":
    sys.exit(main())
