"""The `premiere` command: its subcommands are in `premiere.commands`, one module per noun."""

from __future__ import annotations

import os

import click

from premiere.commands import (
    accounts,
    bots,
    db,
    events,
    export,
    ladder,
    leagues,
    matches,
    selfplay,
    services,
    tv,
)


class _Commands(click.Group):
    """Turns an unreachable database into one clear line instead of a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        import psycopg

        try:
            return super().invoke(ctx)
        except psycopg.OperationalError as error:
            from premiere.config import Settings

            reason = str(error).strip().splitlines()[0]
            raise click.ClickException(
                f"cannot use the database {_redacted(Settings().database_url)}: {reason}\n"
                "Set PREMIERE_DATABASE_URL, or start the local stack with `premiere up`."
            ) from None


def _redacted(url: str) -> str:
    head, at, tail = url.rpartition("@")
    if not at or ":" not in head.split("//", 1)[-1]:
        return url
    scheme, _, credentials = head.partition("//")
    user = credentials.split(":", 1)[0]
    return f"{scheme}//{user}:***@{tail}"


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.pass_context
def main(ctx: click.Context) -> None:
    """Premiere: tournaments and rating ladders for card-game bots."""
    if ctx.invoked_subcommand != "up":
        _join_local_stack()


def _join_local_stack() -> None:
    """Point at the stack `premiere up` is running from this folder or a parent, unless
    PREMIERE_* say otherwise."""
    from premiere.stack import running_stack, state_dir

    stack = running_stack(state_dir())
    if stack is None:
        return
    os.environ.setdefault("PREMIERE_DATABASE_URL", stack["database_url"])
    os.environ.setdefault("PREMIERE_REDIS_URL", stack["redis_url"])
    os.environ.setdefault("PREMIERE_ARBITER_TARGET", stack["arbiter"])


main.add_command(accounts.accounts)
main.add_command(accounts.invites)
main.add_command(bots.bots)
main.add_command(db.db)
main.add_command(ladder.ladder_command)
main.add_command(leagues.league)
main.add_command(events.event)
main.add_command(export.export)
main.add_command(matches.matches)
main.add_command(selfplay.selfplay)
main.add_command(services.arbiter)
main.add_command(services.runner)
main.add_command(services.fetch_bundle)
main.add_command(services.worker)
main.add_command(services.beat)
main.add_command(services.up)
main.add_command(tv.tv)
