"""Partition scenarios, each a test: a cluster in network namespaces, a league, a schedule
of cut links and paused processes, then the history checker's verdict on every promise.

`make test` runs the short one (an arbiter cut from PostgreSQL while it hosts); the others run
under `make partitions` (PREMIERE_PARTITIONS=all), minutes in all.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.partitions.scenarios import run, scenarios

SHORT = "arbiter-postgres-cut"
ALL = os.environ.get("PREMIERE_PARTITIONS") == "all"


def _check(name: str, folder: Path) -> None:
    report = run(scenarios()[name], folder)
    print(f"\n{report.text()}\n  (logs and records: {folder})")
    assert report.ok, report.text()


@pytest.mark.usefixtures("namespaces")
def test_an_arbiter_cut_from_postgres_stops_hosting_before_its_leases_move(
    tmp_path: Path,
) -> None:
    _check(SHORT, tmp_path)


@pytest.mark.usefixtures("namespaces")
@pytest.mark.skipif(not ALL, reason="minutes long: run by `make partitions`")
@pytest.mark.parametrize("name", [n for n in scenarios() if n != SHORT])
def test_scenario(name: str, tmp_path: Path) -> None:
    _check(name, tmp_path)
