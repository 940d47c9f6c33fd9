"""One arbiter per test module (each start costs seconds on a busy machine); a test that needs
other settings starts its own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.conftest import database_url
from tests.integration.services import Arbiter, free_port, scratch_database

__all__ = ["database_url", "shared"]


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arbiter]:
    folder: Path = tmp_path_factory.mktemp("arbiter")
    with scratch_database() as url:
        server = Arbiter(url, free_port(), free_port())
        server.start(folder / "arbiter.log")
        try:
            yield server
        finally:
            server.stop()
