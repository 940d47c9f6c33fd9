"""`premiere ladder`: the ladder process (its gRPC service, rating loop, JSON API and pages),
and its anchors."""

from __future__ import annotations

import os

import click

from games import ids


@click.group("ladder", invoke_without_command=True)
@click.option("--grpc-address", help="host:port of LadderService (PREMIERE_LADDER_GRPC_ADDRESS).")
@click.option(
    "--http-address", help="host:port of the JSON API and /metrics (PREMIERE_LADDER_HTTP_ADDRESS)."
)
@click.option(
    "--interval",
    type=click.FloatRange(min=0, min_open=True),
    help="Seconds between rating passes (PREMIERE_LADDER_RATE_INTERVAL_S).",
)
@click.option("--no-migrate", is_flag=True, help="Do not apply pending migrations first.")
@click.pass_context
def ladder_command(
    ctx: click.Context,
    grpc_address: str | None,
    http_address: str | None,
    interval: float | None,
    no_migrate: bool,
) -> None:
    """Serve the rating ladders (gRPC, JSON over HTTP, /metrics) and rate finished matches;
    with a command, manage the ladders instead (`premiere ladder anchor --help`)."""
    if ctx.invoked_subcommand is not None:
        if grpc_address or http_address or interval is not None or no_migrate:
            raise click.UsageError("the serving options go without a command")
        return
    import asyncio
    import logging

    # The standings fit is dense linear algebra on a shared machine: one BLAS thread is several
    # times faster than two competing ones (docs/ratings.md). Set before numpy loads.
    for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(variable, "1")

    from ladder.config import LadderSettings
    from premiere.config import Settings
    from premiere.db import upgrade
    from spectator.process import serve

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    overrides: dict[str, object] = {}
    if grpc_address:
        overrides["grpc_address"] = grpc_address
    if http_address:
        overrides["http_address"] = http_address
    if interval is not None:
        overrides["rate_interval_s"] = interval
    ladder_settings = LadderSettings(**overrides)  # type: ignore[arg-type]
    database_url = Settings().database_url
    if not no_migrate:
        upgrade(database_url)
    asyncio.run(serve(database_url, ladder_settings))


@ladder_command.group("anchor")
def ladder_anchor() -> None:
    """Pinned anchors: built-in players held at a fixed rating on a game's ladder, which set
    the scale of its live Elo and standings (docs/ratings.md, "Anchors")."""


def _anchor_game(game: str) -> str:
    if game not in ids():
        raise click.BadParameter(f"{game!r} is not a game ({', '.join(ids())})", param_hint="GAME")
    return game


@ladder_anchor.command("set")
@click.argument("game")
@click.argument("player")
@click.argument("rating", type=float)
def ladder_anchor_set(game: str, player: str, rating: float) -> None:
    """Pin PLAYER (builtin:<name>) at RATING on GAME's ladder, or move its pin."""
    import psycopg

    from ladder.anchors import set_anchor
    from premiere.config import Settings
    from premiere.db import upgrade

    settings = Settings()
    upgrade(settings.database_url)
    with psycopg.connect(settings.database_url, autocommit=True) as conn:
        try:
            set_anchor(conn, _anchor_game(game), player, rating)
        except ValueError as error:
            raise click.ClickException(str(error)) from None
    click.echo(f"{player} pinned at {rating:g} on {game}")


@ladder_anchor.command("list")
@click.argument("game", required=False)
def ladder_anchor_list(game: str | None) -> None:
    """The pinned anchors, of GAME or of every game."""
    import psycopg

    from ladder.anchors import anchors
    from premiere.config import Settings

    with psycopg.connect(Settings().database_url, autocommit=True) as conn:
        found = anchors(conn, _anchor_game(game) if game else None)
    if not found:
        click.echo("no anchors")
    for anchor in found:
        click.echo(f"{anchor.game}\t{anchor.player}\t{anchor.rating:g}")


@ladder_anchor.command("remove")
@click.argument("game")
@click.argument("player")
def ladder_anchor_remove(game: str, player: str) -> None:
    """Unpin PLAYER on GAME: from its next match it moves like anyone, from its pin."""
    import psycopg

    from ladder.anchors import remove_anchor
    from premiere.config import Settings

    with psycopg.connect(Settings().database_url, autocommit=True) as conn:
        removed = remove_anchor(conn, _anchor_game(game), player)
    if not removed:
        raise click.ClickException(f"{player} is not pinned on {game}")
    click.echo(f"{player} unpinned on {game}")
