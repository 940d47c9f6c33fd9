"""`make bench`'s harness runs end to end in its quick mode, so it cannot rot unnoticed: every
module it runs writes its rows with a reference and a ratio, and the goals table gets a
measured ratio for every goal the quick modules answer."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from bench import openspiel
from bench.goals import GOALS
from games import all_games

ROOT = Path(__file__).resolve().parents[2]


def test_quick_bench_writes_every_row_with_its_reference_and_ratio(tmp_path: Path) -> None:
    output = tmp_path / "benchmarks.md"
    env = dict(os.environ, BENCH_QUICK="1", BENCH_OUTPUT=str(output))
    subprocess.run(
        [sys.executable, "-m", "bench"], env=env, cwd=ROOT, check=True, capture_output=True
    )
    text = output.read_text()
    assert "last run: " in text and ", quick, " in text
    for section in (
        "bench.playouts",
        "bench.engines",
        "bench.inner",
        "bench.arbiter",
        "bench.league",
        "bench.research",
    ):
        assert f"## {section}" in text
    goals = text.split("## Goals (issues #28, #29, #40, #44 and #45)")[1].split("\n## ")[0]
    for goal in GOALS:
        (line,) = [line for line in goals.splitlines() if line.startswith(f"| {goal.figure} |")]
        measured = line.split("|")[4]
        without_openspiel = goal.key in ("observation", "playout") and not openspiel.available()
        # No ladder, search, hosting, two-arbiter or scale module in quick mode (each needs a
        # minute or more).
        outside = goal.key.startswith(
            ("hosted-", "thousand-", "capacity-", "placement-", "knockout-")
        )
        if goal.unit != "x" or without_openspiel or outside:
            assert "not measured" in measured
        else:
            ratios = re.findall(r"([0-9.e+-]+)x", measured)
            assert ratios and all(float(r) > 0 for r in ratios), line
    arbiter = text.split("## bench.arbiter")[1].split("\n## ")[0]
    for name in ("decisions per second", "CPU per decision", "bot SDK CPU per decision"):
        assert name in arbiter
    engines = text.split("## bench.engines")[1].split("\n## ")[0]
    rows = [line for line in engines.splitlines() if line.startswith("| magic-trick")]
    assert len(rows) == 2
    for line in rows:
        figure = float(line.split("|")[2].split()[0])
        assert figure > 0
        if not openspiel.available():
            assert "OpenSpiel not installed" in line
    inner = text.split("## bench.inner")[1].split("\n## ")[0]
    for game in all_games():
        rows = [line for line in inner.splitlines() if line.startswith(f"| {game.id} ")]
        assert len(rows) == 4, game.id  # clone, playout, indistinguishable, search:100
        for line in rows:
            assert float(line.split("|")[2].split()[0]) > 0, line
            if "CPU per decision" not in line and not openspiel.available():
                assert "OpenSpiel not installed" in line
    # The rows are kept beside the document, so a run of one module keeps the others' figures.
    env["BENCH_MODULES"] = "bench.playouts"
    subprocess.run(
        [sys.executable, "-m", "bench"], env=env, cwd=ROOT, check=True, capture_output=True
    )
    again = output.read_text()
    assert "modules of the last run: bench.playouts\n" in again
    kept = again.split("## bench.league")[1].split("\n## ")[0]
    assert "an earlier run: not measured in the last" in kept
    assert "an earlier run" not in again.split("## bench.playouts")[1].split("\n## ")[0]
    league = text.split("## bench.league")[1].split("\n## ")[0]
    rows = [line for line in league.splitlines() if line.startswith("| league round")]
    assert len(rows) == 6
    (through,) = [line for line in rows if "round opened to last match rated" in line]
    assert "created directly on the arbiter" in through
    for line in rows:
        figure, reference = (float(line.split("|")[i].split()[0]) for i in (2, 4))
        assert figure > 0 and reference > 0, line
