from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.services import Arbiter, free_port, scratch_database


@pytest.fixture
def database_url() -> Iterator[str]:
    with scratch_database() as url:
        yield url


@pytest.fixture
def arbiter(database_url: str, tmp_path: Path) -> Iterator[Arbiter]:
    server = Arbiter(database_url, free_port(), free_port())
    server.start(tmp_path / "arbiter.log")
    try:
        yield server
    finally:
        server.stop()
