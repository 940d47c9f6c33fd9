"""The database: schema migrations (yoyo) and connection URLs."""

from __future__ import annotations

from pathlib import Path

import psycopg
from yoyo import get_backend, read_migrations

MIGRATIONS = Path(__file__).parent / "migrations"


def yoyo_url(database_url: str) -> str:
    """yoyo picks its driver from the scheme: psycopg 3 is `postgresql+psycopg`."""
    scheme, sep, rest = database_url.partition("://")
    if not sep or scheme not in ("postgres", "postgresql", "postgresql+psycopg"):
        raise ValueError(f"not a PostgreSQL URL: {database_url!r}")
    return f"postgresql+psycopg://{rest}"


def upgrade(database_url: str) -> list[str]:
    """Apply every pending migration under yoyo's lock; returns the ids applied."""
    backend = get_backend(yoyo_url(database_url))
    migrations = read_migrations(str(MIGRATIONS))
    with backend.lock():
        pending = backend.to_apply(migrations)
        backend.apply_migrations(pending)
    return [m.id for m in pending]


def create_database(admin_url: str, name: str) -> None:
    """CREATE DATABASE, for tests and first starts; a no-op when it exists."""
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(psycopg.sql.SQL("CREATE DATABASE {}").format(psycopg.sql.Identifier(name)))


def drop_database(admin_url: str, name: str) -> None:
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(
            psycopg.sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                psycopg.sql.Identifier(name)
            )
        )
