"""The weakened builds are wired to real scenarios and real promises (no root needed): each
names a scenario that exists and the start of a promise its run reports, and a weakened run
counts as caught only when that promise failed."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.partitions.__main__ import broke_as_expected
from tests.partitions.history import Checker, Report, Verdict
from tests.partitions.scenarios import Run, scenarios
from tests.partitions.weakened import WEAKNESSES, weaken


def _no_rows(*_: Any) -> list[dict[str, Any]]:
    return []


def promises(name: str, tmp_path: Path) -> list[str]:
    """Every promise the scenario's run reports, from an empty history."""
    scenario = scenarios()[name]
    report = Checker(_no_rows, []).check(name, [], 0.0, scenario.bound_s, False)
    log = tmp_path / "arbiter1.log"
    log.write_text("")
    cluster: Any = SimpleNamespace(rows=_no_rows, procs={"arbiter1": SimpleNamespace(log=log)})
    extras = [extra(cluster, Run(cluster)) for extra in scenario.extra]
    return [v.promise for v in [*report.verdicts, *extras]]


@pytest.mark.parametrize("weakness", WEAKNESSES.values(), ids=lambda w: w.name)
def test_each_weakness_breaks_a_promise_its_scenario_reports(weakness: Any, tmp_path: Path) -> None:
    assert weakness.scenario in scenarios()
    reported = promises(weakness.scenario, tmp_path)
    assert [p for p in reported if p.startswith(weakness.breaks)], reported


def test_every_scenario_has_a_weakness_it_must_catch() -> None:
    assert {w.scenario for w in WEAKNESSES.values()} == set(scenarios())


def _report(*failed: str) -> Report:
    verdicts = [Verdict("one writer per match (fencing numbers only go up)")]
    verdicts += [Verdict(p, ["counterexample"]) for p in failed]
    return Report("s", [], 1, 1, verdicts)


def test_a_weakened_run_is_caught_only_by_the_promise_it_breaks() -> None:
    weakness = WEAKNESSES["relay-blame"]
    assert broke_as_expected(weakness, _report(weakness.breaks))
    assert not broke_as_expected(weakness, _report())
    assert not broke_as_expected(weakness, _report("league rounds close"))


def test_an_unknown_weakness_is_refused_by_name() -> None:
    with pytest.raises(SystemExit, match="not 'fencing'"):
        weaken("fencing")
