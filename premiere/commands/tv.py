"""`premiere tv`: which match the /tv pages show."""

from __future__ import annotations

import click


@click.group()
def tv() -> None:
    """The TV channel (/tv, /tv/<game>): pin the match it shows."""


@tv.command("pin")
@click.argument("match_id")
@click.option("--game", default=None, help="Pin it to /tv/<game> instead of /tv.")
def tv_pin(match_id: str, game: str | None) -> None:
    """Show MATCH_ID on the channel while it runs, instead of the highest-rated table."""
    import psycopg

    from ladder import tv as ladder_tv
    from ladder.queries import NotFound
    from premiere.config import Settings

    with psycopg.connect(Settings().database_url, autocommit=True) as conn:
        try:
            ladder_tv.pin(conn, match_id, game)
        except NotFound as error:
            raise click.ClickException(str(error)) from None
    click.echo(f"pinned {match_id} to /tv{'/' + game if game else ''}")


@tv.command("unpin")
@click.option("--game", default=None, help="The /tv/<game> channel instead of /tv.")
def tv_unpin(game: str | None) -> None:
    """Take the pin off the channel: it follows the highest-rated table again."""
    import psycopg

    from ladder import tv as ladder_tv
    from premiere.config import Settings

    with psycopg.connect(Settings().database_url, autocommit=True) as conn:
        gone = ladder_tv.unpin(conn, game)
    click.echo("unpinned" if gone else "nothing was pinned")
