"""`premiere export`: a game's ended matches as one bulk file (docs/research.md, "Export")."""

from __future__ import annotations

import click

from workers.export_rows import FORMATS


@click.command("export")
@click.option("--game", required=True, help="The game, e.g. movie-tricks.")
@click.option("--since", default=None, help="First date or ISO time (UTC unless it says).")
@click.option("--until", default=None, help="Date or ISO time to stop before (UTC unless it says).")
@click.option(
    "--format", "fmt", type=click.Choice(FORMATS), required=True, help="The file's format."
)
@click.option(
    "--out",
    required=True,
    type=click.Path(dir_okay=False, writable=True),
    help="The file to write (replaced whole, or left as it was if the export fails).",
)
def export(game: str, since: str | None, until: str | None, fmt: str, out: str) -> None:
    """Write every ended match of GAME (finished, and voided ones marked) with its players,
    seed, moves, notes, result and rating changes; never a running match."""
    from pathlib import Path

    import psycopg

    import games
    from premiere.config import Settings
    from workers.export_rows import parse_instant
    from workers.exports import records, write_file

    if game not in games.ids():
        raise click.ClickException(f"no game {game!r}; known: {', '.join(games.ids())}")
    try:
        low = parse_instant(since) if since else None
        high = parse_instant(until) if until else None
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    with psycopg.connect(Settings().database_url, autocommit=True) as conn:
        count, size, digest = write_file(Path(out), fmt, records(conn, game, low, high))
    click.echo(f"{out}: {count} matches, {size} bytes, sha256 {digest}")
