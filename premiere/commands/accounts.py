"""`premiere accounts` and `premiere invites`: authors' accounts and the invites that make them."""

from __future__ import annotations

import click


@click.group()
def accounts() -> None:
    """Bot authors' accounts (each owns its bots; `operator` owns those of `premiere bots add`)."""


@accounts.command("list")
def accounts_list() -> None:
    """Every account with its state and how many bots it has."""
    from premiere.config import Settings
    from premiere.db import upgrade
    from server.accounts import list_accounts

    settings = Settings()
    upgrade(settings.database_url)
    for account in list_accounts(settings.database_url):
        click.echo(
            f"{account.name:<28} {account.state:<9} {account.bots:>3} bot(s)"
            f"  since {account.created_at:%Y-%m-%d %H:%M}"
        )


@accounts.command("show")
@click.argument("name")
def accounts_show(name: str) -> None:
    """An account and its bots, with each bot's standing."""
    from premiere.config import Settings
    from server.accounts import NotFound, account_named, owned_bots

    settings = Settings()
    try:
        account = account_named(settings.database_url, name)
    except NotFound as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"{account.name}: {account.state} ({account.reason or 'no reason given'})")
    for bot in owned_bots(settings.database_url, account):
        click.echo(f"  {bot.name:<28} active {bot.active:<36} {bot.state or 'not connected yet'}")


def _account_switch(name: str, active: bool, reason: str) -> None:
    from premiere.config import Settings
    from premiere.db import upgrade
    from server.accounts import AccountError, set_account_state

    settings = Settings()
    upgrade(settings.database_url)
    try:
        account = set_account_state(settings.database_url, name, active, reason)
    except AccountError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"account {account.name}: {account.state} ({account.reason})")


@accounts.command("disable")
@click.argument("name")
@click.option("--reason", default="", help="Why, for the record.")
def accounts_disable(name: str, reason: str) -> None:
    """Take every bot of the account out of play at once: no new matches, its streams are
    closed within seconds, its tokens (account and bots) log in nothing."""
    _account_switch(name, False, reason)


@accounts.command("enable")
@click.argument("name")
@click.option("--reason", default="", help="Why, for the record.")
def accounts_enable(name: str, reason: str) -> None:
    """Let a disabled account's bots play again."""
    _account_switch(name, True, reason)


@click.group()
def invites() -> None:
    """Invite codes, for sign-up by invite (PREMIERE_SIGNUP=invite)."""


@invites.command("create")
@click.option("--uses", type=click.IntRange(min=1), default=1, help="Accounts it can make.")
@click.option("--expires", help="Lifetime: 30m, 12h, 7d ... (default: never).")
def invites_create(uses: int, expires: str | None) -> None:
    """Print a new invite code, once (only its hash is kept); give it to an author, who runs
    `premiere-bot account create NAME --invite CODE`."""
    import datetime

    from premiere.config import Settings
    from premiere.db import upgrade
    from server.accounts import create_invite
    from workers.schedule import parse_every

    try:
        lifetime = datetime.timedelta(seconds=parse_every(expires)) if expires else None
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--expires") from None
    settings = Settings()
    upgrade(settings.database_url)
    click.echo(create_invite(settings.database_url, uses, lifetime))
