"""The mutation list in every `make test`: each entry still applies (its snippet occurs once,
so no mutation silently stops testing anything), and the cheapest mutations of the fast part
are killed by their tests. `make mutants` runs the whole list."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from premiere.children import alive

ROOT = Path(__file__).resolve().parents[2]
CHEAPEST = ("operator-token-prefix", "gate-any-seat-rated", "swiss-bye-to-the-leader")


def runner() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutants_runner", ROOT / "scripts" / "mutants.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_every_mutation_applies_and_names_tests_that_exist() -> None:
    mutants = runner()
    listed = mutants.load()
    assert 25 <= len(listed) <= 70
    assert set(CHEAPEST) <= {m.id for m in listed if m.fast}
    for mutation in listed:
        mutants.check(mutation, ROOT)
        for test in mutation.tests:
            if not test.startswith("-") and not listed_option(mutation.tests, test):
                assert (ROOT / test.split("::")[0]).is_file(), f"{mutation.id}: no {test}"


def listed_option(tests: tuple[str, ...], item: str) -> bool:
    """Whether ``item`` is the value of an option (``-k EXPR``), not a test path."""
    index = tests.index(item)
    return index > 0 and tests[index - 1].startswith("-")


@pytest.fixture(scope="module")
def tree() -> Iterator[Path]:
    with runner().scratch_copy() as copy:
        yield copy


@pytest.mark.parametrize("mutation_id", CHEAPEST)
def test_a_cheap_mutation_is_killed(tree: Path, mutation_id: str) -> None:
    mutants = runner()
    (mutation,) = [m for m in mutants.load() if m.id == mutation_id]
    outcome = mutants.run_one(mutation, tree, timeout=300)
    assert outcome.killed, f"{mutation_id} survived: {outcome.by}"
    assert outcome.by.startswith(mutation.tests[0].split("::")[0]), outcome.by


@pytest.mark.parametrize(
    ("ending", "status"),
    [("assert False, 'broken by a mutation'", 1), ("time.sleep(300)", None)],
    ids=["failed-before-its-clean-up", "timed-out"],
)
def test_what_a_mutants_tests_leave_running_is_named_and_ended(
    tmp_path: Path, ending: str, status: int | None
) -> None:
    """A test that starts a process in a session of its own, then fails before its clean-up
    or hangs until the runner's timeout kills pytest: the process would outlive the run (an
    arbiter listening on its ports in a deleted scratch tree); the runner ends it and says."""
    (tmp_path / "test_leaky.py").write_text(
        "import subprocess, time\n\n\ndef test_leaky():\n"
        "    subprocess.Popen(['sleep', '301'], start_new_session=True)\n"
        f"    {ending}\n"
    )
    timeout = 120 if status is not None else 15
    found, output, left = runner().run_tests(tmp_path, ["test_leaky.py"], timeout=timeout)
    assert found == status, output
    assert [leftover.command for leftover in left] == ["sleep 301"], output
    assert not alive(left[0].pid)
