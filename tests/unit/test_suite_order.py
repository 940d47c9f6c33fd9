"""The modules tests/conftest.py runs first exist: a renamed one would silently go back to
its place in the order, and the run could end waiting for it."""

from __future__ import annotations

from tests.conftest import LONGEST_FIRST
from tests.integration.services import ROOT


def test_every_module_run_first_exists() -> None:
    assert LONGEST_FIRST
    for module in LONGEST_FIRST:
        assert (ROOT / module).is_file(), module
