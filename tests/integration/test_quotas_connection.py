"""The gateway's kept database connection (`server.quotas.Quotas._kept`): one connection for
the checks it runs twice a second, and a shutdown that a hung statement cannot hold up."""

from __future__ import annotations

import threading
import time

from server.config import ArbiterSettings
from server.quotas import Quotas


def backends(quotas: Quotas) -> set[int]:
    seen = set()
    for _ in range(5):
        with quotas._kept() as conn:
            row = conn.execute("SELECT pg_backend_pid() AS pid").fetchone()
            assert row is not None
            seen.add(row["pid"])
    return seen


def test_the_checks_share_one_connection(database_url: str) -> None:
    quotas = Quotas(database_url, "arbiter-q", ArbiterSettings())
    try:
        assert len(backends(quotas)) == 1
        quotas.renew([])
        quotas.retired([1])
        assert len(backends(quotas)) == 1
    finally:
        quotas.close()
    assert quotas._kept_conn is None


def test_closing_does_not_wait_for_a_hung_statement(database_url: str) -> None:
    quotas = Quotas(database_url, "arbiter-q", ArbiterSettings())
    started, release = threading.Event(), threading.Event()

    def hung() -> None:
        with quotas._kept():
            started.set()
            release.wait(30)

    worker = threading.Thread(target=hung)
    worker.start()
    try:
        assert started.wait(10)
        began = time.monotonic()
        quotas.close(wait_s=0.2)
        assert time.monotonic() - began < 2
    finally:
        release.set()
        worker.join(10)
        quotas.close()
