"""Partition scenarios, each a test: a cluster in network namespaces, a league, a schedule
of cut links and paused processes, then the history checker's verdict on every promise.

`make test` runs the short one (an arbiter cut from PostgreSQL while it hosts); the others run
under `make partitions` (PREMIERE_PARTITIONS=all), minutes in all.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.guard import KEPT_TMPDIR
from tests.partitions.scenarios import run, scenarios

SHORT = "arbiter-postgres-cut"
ALL = os.environ.get("PREMIERE_PARTITIONS") == "all"


def _check(name: str) -> None:
    # Reachable by the cluster's unprivileged servers (pytest's folders are private to their
    # owner), and kept for reading only when a promise failed (tests/guard.py: not in the
    # run's own temporary folder).
    kept = os.environ.get(KEPT_TMPDIR)
    folder = Path(tempfile.mkdtemp(prefix=f"premiere-partitions-{name}-", dir=kept))
    report = run(scenarios()[name], folder)
    print(f"\n{report.text()}\n  (logs and records: {folder})")
    assert report.ok, report.text()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.usefixtures("namespaces")
def test_an_arbiter_cut_from_postgres_stops_hosting_before_its_leases_move() -> None:
    _check(SHORT)


@pytest.mark.usefixtures("namespaces")
@pytest.mark.skipif(not ALL, reason="minutes long: run by `make partitions`")
@pytest.mark.parametrize("name", [n for n in scenarios() if n != SHORT])
def test_scenario(name: str) -> None:
    _check(name)
