"""The ladder tests' scratch database, and an autocommit connection to it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.integration.services import scratch_database


@pytest.fixture
def database_url() -> Iterator[str]:
    with scratch_database() as url:
        yield url


@pytest.fixture
def conn(database_url: str) -> Iterator[psycopg.Connection[Any]]:
    with psycopg.connect(database_url, autocommit=True) as connection:
        yield connection


@pytest.fixture
def cli_database_url(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[str]:
    """A scratch database that the `premiere` CLI, run in this process, finds configured."""
    with scratch_database() as url:
        monkeypatch.setenv("PREMIERE_DATABASE_URL", url)
        monkeypatch.setenv("PREMIERE_STATE_DIR", str(tmp_path))
        yield url
