"""`premiere db`: the database's schema."""

from __future__ import annotations

import click


@click.group()
def db() -> None:
    """Database schema."""


@db.command("upgrade")
def db_upgrade() -> None:
    """Apply pending migrations (safe to run from several processes at once)."""
    from premiere.config import Settings
    from premiere.db import upgrade

    applied = upgrade(Settings().database_url)
    click.echo(
        f"applied {len(applied)} migration(s)" + (f": {', '.join(applied)}" if applied else "")
    )
