"""`premiere matches`: an operator's void of a match."""

from __future__ import annotations

import click


@click.group()
def matches() -> None:
    """Finished matches."""


@matches.command("void")
@click.argument("match_id")
@click.option("--reason", required=True, help="Why, for the record (shown with the match).")
def matches_void(match_id: str, reason: str) -> None:
    """Void a finished match: it leaves the ladder (later ratings are replayed without it) and
    the league standings. Unfinished matches are the arbiter's to void."""
    import uuid

    import psycopg

    from ladder.store import void_match
    from premiere.config import Settings

    try:
        match_id = str(uuid.UUID(match_id))
    except ValueError:
        raise click.ClickException(
            f"{match_id!r} is not a match id (a UUID, as the dashboard and the JSON API show)"
        ) from None
    with psycopg.connect(Settings().database_url, autocommit=True) as conn:
        try:
            changed = void_match(conn, match_id, reason)
        except (LookupError, ValueError) as error:
            raise click.ClickException(str(error)) from None
    click.echo(f"match {match_id} voided" if changed else f"match {match_id} was already void")
