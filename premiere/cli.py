"""The `premiere` command: its subcommands are in `premiere.commands`, one module per noun."""

from __future__ import annotations

import importlib
import os

import click

COMMANDS = {
    "accounts": "accounts:accounts",
    "invites": "accounts:invites",
    "bots": "bots:bots",
    "db": "db:db",
    "ladder": "ladder:ladder_command",
    "league": "leagues:league",
    "event": "events:event",
    "export": "export:export",
    "matches": "matches:matches",
    "selfplay": "selfplay:selfplay",
    "arbiter": "services:arbiter",
    "runner": "services:runner",
    "fetch-bundle": "services:fetch_bundle",
    "worker": "services:worker",
    "beat": "services:beat",
    "up": "services:up",
    "tv": "tv:tv",
}
"""Each subcommand and where it lives in `premiere.commands` (module:attribute), imported when
it is run or listed: a command imports only what it uses (`premiere bots add` need not load
every game, the leagues' formats and the events' rules; that was a third of a second a call)."""


class _Commands(click.Group):
    """Loads its subcommands lazily (`COMMANDS`), and turns an unreachable database into one
    clear line instead of a traceback."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        where = COMMANDS.get(cmd_name)
        if where is None:
            return None
        module, _, attribute = where.partition(":")
        command = getattr(importlib.import_module(f"premiere.commands.{module}"), attribute)
        assert isinstance(command, click.Command) and command.name == cmd_name
        return command

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
    from premiere.state import running_stack, state_dir

    stack = running_stack(state_dir())
    if stack is None:
        return
    os.environ.setdefault("PREMIERE_DATABASE_URL", stack["database_url"])
    os.environ.setdefault("PREMIERE_REDIS_URL", stack["redis_url"])
    os.environ.setdefault("PREMIERE_ARBITER_TARGET", stack["arbiter"])
