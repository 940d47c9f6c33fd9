"""`premiere event`: events authors enter themselves: create, list, show, pause, resume, cancel."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import click

from games import get, ids
from games.errors import GameError
from games.interface import parse_options
from premiere.commands.leagues import _format_settings
from workers.formats import registry

_IN = re.compile(r"^\+(\d+)([smhd])$")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_moment(text: str, now: datetime) -> datetime:
    """ "now", "+10m" (from now), or an ISO 8601 time (UTC unless it says otherwise)."""
    if text == "now":
        return now
    found = _IN.match(text)
    if found:
        return now + timedelta(seconds=int(found.group(1)) * _UNITS[found.group(2)])
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(
            f"expected now, +30s, +10m, +2h, +1d or an ISO time, not {text!r}"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@click.group("event")
def event() -> None:
    """Events: competitions authors enter themselves (`premiere-bot events enter`)."""


@event.command("create")
@click.option("--name", required=True, help="A unique name.")
@click.option("--game", "game_id", required=True, type=click.Choice(ids()))
@click.option("--format", "fmt", required=True, type=click.Choice(registry.names()))
@click.option("--players", type=int, help="Seats per table (default: the game's smallest).")
@click.option("--opens", default="now", show_default=True, help="When entry opens.")
@click.option("--starts", required=True, help="When it starts: now, +10m, or an ISO time.")
@click.option("--rounds", type=click.IntRange(min=1), help="Stop after this many rounds.")
@click.option("--option", "option_pairs", multiple=True, metavar="NAME=VALUE")
@click.option("--setting", "setting_pairs", multiple=True, metavar="NAME=VALUE")
@click.option("--move-time-ms", type=int, default=0, help="Per-move limit (0: arbiter default).")
@click.option("--hosted-only", is_flag=True, help="Hosted bots only (uploaded bundles).")
@click.option("--min-games", type=click.IntRange(min=0), default=0, help="Rated games needed.")
@click.option("--min-rating", type=float, help="Rating in the game needed to enter.")
@click.option(
    "--invite",
    "invited",
    multiple=True,
    metavar="ACCOUNT",
    help="Invite only: the accounts that may enter (repeat).",
)
@click.option(
    "--allow-same-owner", is_flag=True, help="Let one account enter several bots (unrated then)."
)
def event_create(
    name: str,
    game_id: str,
    fmt: str,
    players: int | None,
    opens: str,
    starts: str,
    rounds: int | None,
    option_pairs: tuple[str, ...],
    setting_pairs: tuple[str, ...],
    move_time_ms: int,
    hosted_only: bool,
    min_games: int,
    min_rating: float | None,
    invited: tuple[str, ...],
    allow_same_owner: bool,
) -> None:
    """Announce an event; the workers open its entry and run it at its start."""
    import psycopg

    from premiere.config import Settings
    from premiere.db import upgrade
    from workers import events, leagues

    game = get(game_id)
    seats = players or min(n for n in game.player_counts if n >= 2)
    now = datetime.now(UTC)
    try:
        opens_at = parse_moment(opens, now)
        starts_at = parse_moment(starts, now)
        options = parse_options(game, option_pairs)
        settings_given = _format_settings(setting_pairs)
    except (ValueError, GameError) as error:
        raise click.BadParameter(str(error)) from None
    settings = Settings()
    upgrade(settings.database_url)
    with leagues.connect(settings.database_url) as conn:
        try:
            created = events.create_event(
                conn,
                name=name,
                game=game_id,
                format=fmt,
                players=seats,
                opens_at=opens_at,
                starts_at=starts_at,
                options=options,
                settings=settings_given,
                rounds=rounds,
                move_time_ms=move_time_ms,
                hosted_only=hosted_only,
                min_games=min_games,
                min_rating=min_rating,
                invited=list(invited) if invited else None,
                allow_same_owner=allow_same_owner,
            )
        except (ValueError, KeyError) as error:
            raise click.ClickException(str(error).strip("'\"")) from None
        except psycopg.errors.UniqueViolation:
            raise click.ClickException(f"an event named {name!r} already exists") from None
    click.echo(
        f"event {created.name} announced: entry opens {created.opens_at.isoformat()},"
        f" starts {created.starts_at.isoformat()}"
    )


@event.command("list")
def event_list() -> None:
    """Every event with its state and entrants."""
    from premiere.config import Settings
    from workers import events, leagues

    with leagues.connect(Settings().database_url) as conn:
        for item in events.list_events(conn):
            count = len(events.entrants(conn, item.id))
            click.echo(
                f"{item.name:<24} {item.status:<10} {item.game:<14} {item.format:<14}"
                f" {count:>3} entrants  starts {item.starts_at.isoformat(timespec='seconds')}"
            )


@event.command("show")
@click.argument("name")
def event_show(name: str) -> None:
    """An event: its rules, entrants and (once it runs) its league's standings."""
    from premiere.config import Settings
    from workers import events, leagues

    with leagues.connect(Settings().database_url) as conn:
        item = events.get_event(conn, name)
        if item is None:
            raise click.ClickException(f"no event named {name!r}")
        click.echo(f"{item.name}: {item.status}{' (' + item.reason + ')' if item.reason else ''}")
        click.echo(f"  {item.game}, {item.format}, {item.players} seats a table")
        click.echo(f"  entry opens {item.opens_at.isoformat(timespec='seconds')}")
        click.echo(f"  starts      {item.starts_at.isoformat(timespec='seconds')}")
        click.echo(f"  entry: {'; '.join(item.rules())}")
        for row in events.entrants(conn, item.id):
            click.echo(f"  entrant {row['bot']} ({row['account']})")
        if item.league_id is not None:
            league = leagues.get_league(conn, item.league_id)
            if league is not None:
                click.echo(f"  league {league.name}: {league.status}")
                for row in leagues.current_standings(conn, league):
                    click.echo(f"  {row['rank']:>4}  {row['bot']:<24} {row['points']:>6}")


def _set_status(name: str, status: str) -> None:
    from premiere.config import Settings
    from workers import events, leagues

    with leagues.connect(Settings().database_url) as conn:
        try:
            now = events.set_status(conn, name, status)
        except (LookupError, ValueError) as error:
            raise click.ClickException(str(error).strip("'\"")) from None
    click.echo(f"event {name} is {now}")


@event.command("pause")
@click.argument("name")
def event_pause(name: str) -> None:
    """Hold an event (its entry, its start, its league's rounds)."""
    _set_status(name, "paused")


@event.command("resume")
@click.argument("name")
def event_resume(name: str) -> None:
    """Let a paused event go on."""
    _set_status(name, "active")


@event.command("cancel")
@click.argument("name")
def event_cancel(name: str) -> None:
    """End an event for good (and its league, once it runs)."""
    _set_status(name, "cancelled")
