"""The partition scenarios need root (network namespaces); without it they skip, saying so."""

from __future__ import annotations

import pytest

from tests.partitions.net import why_not


@pytest.fixture(scope="session")
def namespaces() -> None:
    reason = why_not()
    if reason is not None:
        pytest.skip(reason)
