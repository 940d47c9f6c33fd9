"""Suite-wide fixtures."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.processes import mark, stop_since


@pytest.fixture(autouse=True)
def _no_process_outlives_its_test() -> Iterator[None]:
    """Function-scoped, so it is set up after every wider fixture of the test and stops only
    what the test and its function-scoped fixtures spawned."""
    start = mark()
    yield
    stop_since(start)
