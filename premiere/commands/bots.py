"""`premiere bots`: the operator's bots: add, list, remove, tokens, versions, standing."""

from __future__ import annotations

import click


@click.group()
def bots() -> None:
    """Registered bots."""


@bots.command("add")
@click.argument("name")
def bots_add(name: str) -> None:
    """Register a bot and print its token, once: only a hash of it is stored."""
    import psycopg

    from premiere.config import Settings
    from premiere.db import upgrade
    from server.bots import add_bot

    settings = Settings()
    upgrade(settings.database_url)
    try:
        token = add_bot(settings.database_url, name)
    except psycopg.errors.UniqueViolation:
        raise click.ClickException(f"a bot named {name!r} already exists") from None
    except (psycopg.errors.CheckViolation, ValueError):
        raise click.ClickException(
            "a bot name is 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit"
        ) from None
    click.echo(token)


@bots.command("list")
def bots_list() -> None:
    """Registered bots, with the games they said they play when they last connected."""
    from premiere.config import Settings
    from premiere.db import upgrade
    from server.bots import list_bots

    settings = Settings()
    upgrade(settings.database_url)
    entries = list_bots(settings.database_url)
    if not entries:
        click.echo("no registered bots; `premiere bots add NAME` registers one")
    for entry in entries:
        plays = (
            ", ".join(entry.games or ("every game",))
            if entry.games is not None
            else "never connected"
        )
        click.echo(f"{entry.name:<28} {plays:<40} added {entry.created_at:%Y-%m-%d %H:%M}")


@bots.command("remove")
@click.argument("name")
def bots_remove(name: str) -> None:
    """Remove a bot: its token stops working; its past matches and ratings stay."""
    from premiere.config import Settings
    from server.bots import UnknownBot, remove_bot

    try:
        remove_bot(Settings().database_url, name)
    except UnknownBot as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"bot {name} removed; its matches and ratings stay on record")


@bots.command("rotate-token")
@click.argument("name")
def bots_rotate_token(name: str) -> None:
    """Give a bot a new token and print it, once; the old token stops working for new
    connections at once (a bot connected with it stays connected until it reconnects)."""
    from premiere.config import Settings
    from server.bots import UnknownBot, rotate_token

    try:
        token = rotate_token(Settings().database_url, name)
    except UnknownBot as error:
        raise click.ClickException(str(error)) from None
    click.echo(token)


@bots.command("versions")
@click.argument("name")
def bots_versions(name: str) -> None:
    """A bot's versions, oldest first: each is its own ladder entry; * marks the active one."""
    from premiere.config import Settings
    from server.bots import UnknownBot, lineage

    try:
        entries = lineage(Settings().database_url, name)
    except UnknownBot as error:
        raise click.ClickException(str(error)) from None
    for entry in entries:
        mark = "*" if entry.active else " "
        after = f"after {entry.predecessor}" if entry.predecessor else "first"
        click.echo(
            f"{mark} {entry.name:<40} version {entry.version or '-':<12} {after:<40}"
            f" added {entry.created_at:%Y-%m-%d %H:%M}"
        )


@bots.command("version")
@click.argument("name")
@click.argument("version")
@click.option(
    "--activate/--no-activate", default=True, help="Make it the version seated from now on."
)
def bots_version(name: str, version: str, activate: bool) -> None:
    """Announce a new VERSION of bot NAME (as a Hello naming it would): its own ladder entry,
    starting from the active version's rating."""
    from premiere.config import Settings
    from premiere.db import upgrade
    from server.bots import UnknownBot, announce_version

    settings = Settings()
    upgrade(settings.database_url)
    try:
        _id, entry, created = announce_version(settings.database_url, name, version, activate)
    except (UnknownBot, ValueError) as error:
        raise click.ClickException(str(error).strip("'\"")) from None
    click.echo(f"{entry}: {'new version' if created else 'known already'}")


@bots.command("activate")
@click.argument("name")
@click.argument("version")
def bots_activate(name: str, version: str) -> None:
    """Seat VERSION of bot NAME from now on (a roll back to an earlier one, or forward)."""
    from premiere.config import Settings
    from server.bots import activate_version
    from workers import gate, leagues

    settings = Settings()
    try:
        entry = activate_version(settings.database_url, name, version)
    except LookupError as error:
        raise click.ClickException(str(error).strip("'\"")) from None
    with leagues.connect(settings.database_url) as conn:
        gate.note(conn, entry, "activated", f"made the active version of {name} by the operator.")
    click.echo(f"{name} plays as {entry} from now on")


def _switch(name: str, enabled: bool) -> None:
    from premiere.config import Settings
    from premiere.db import upgrade
    from workers import gate, leagues

    settings = Settings()
    upgrade(settings.database_url)
    with leagues.connect(settings.database_url) as conn:
        try:
            change = gate.set_enabled(conn, name, enabled)
        except (LookupError, ValueError, RuntimeError) as error:
            raise click.ClickException(str(error).strip("'\"")) from None
    click.echo(f"{name}: {change.message}")


@bots.command("disable")
@click.argument("name")
def bots_disable(name: str) -> None:
    """Seat bot NAME (a version: NAME@VERSION) in no match until it is enabled again."""
    _switch(name, False)


@bots.command("enable")
@click.argument("name")
def bots_enable(name: str) -> None:
    """Enable a disabled bot, or one that failed validation: it validates again."""
    _switch(name, True)


@bots.command("events")
@click.argument("name")
def bots_events(name: str) -> None:
    """A bot's standing and every change of it (validation, probation, disable), oldest first."""
    from premiere.config import Settings
    from workers import gate, leagues

    with leagues.connect(Settings().database_url) as conn:
        now = gate.standing(conn, name)
        history = gate.events(conn, name)
    if now is None:
        click.echo(f"{name}: no standing yet (it has not connected since it was added)")
        return
    click.echo(f"{name}: {now.state}")
    for event in history:
        click.echo(f"{event['at']:%Y-%m-%d %H:%M:%S}  {event['kind']:<18} {event['message']}")
