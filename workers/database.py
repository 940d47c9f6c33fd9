"""The workers' PostgreSQL connections: one small pool per process, opened lazily.

A task used to open a connection of its own, which costs a TCP connect, authentication and a
backend start for each of a round's dispatch tasks. Celery's prefork pool forks worker
processes, and a connection must not cross a fork, so each process opens its own pool on first
use and opens a new one if it finds itself in a new process (as ``workers.client`` does for the
gRPC channel). Connections are in autocommit mode and return dict rows, as the tasks expect.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.rows import DictRow, dict_row
from psycopg_pool import ConnectionPool

__all__ = ["connection"]

_POOL_SIZE = 4
"""Per process: a prefork child runs one task at a time, a thread-pool worker a few."""

_pools: dict[tuple[int, str], ConnectionPool[psycopg.Connection[DictRow]]] = {}


def _pool(database_url: str) -> ConnectionPool[psycopg.Connection[DictRow]]:
    key = (os.getpid(), database_url)
    pool = _pools.get(key)
    if pool is None:
        for stale in [k for k in _pools if k[0] != key[0]]:
            # Inherited from the parent: its sockets are the parent's; drop without closing.
            del _pools[stale]
        kwargs: dict[str, Any] = {"autocommit": True, "row_factory": dict_row}
        pool = ConnectionPool(
            database_url,
            connection_class=psycopg.Connection[DictRow],
            min_size=1,
            max_size=_POOL_SIZE,
            kwargs=kwargs,
            check=ConnectionPool.check_connection,
            open=True,
        )
        _pools[key] = pool
    return pool


@contextmanager
def connection(database_url: str) -> Iterator[psycopg.Connection[DictRow]]:
    """A pooled connection for the length of the ``with`` block."""
    with _pool(database_url).connection() as conn:
        yield conn
