"""`premiere league`: leagues: create, list, show, run a round now, pause, resume, cancel."""

from __future__ import annotations

import click

from games import get, ids
from games.errors import GameError
from games.interface import parse_options
from workers.formats import registry


@click.group()
def league() -> None:
    """Leagues and tournaments run by the workers."""


@league.command("create")
@click.option("--name", help="A unique name (default: GAME-FORMAT-N).")
@click.option("--game", "game_id", required=True, type=click.Choice(ids()))
@click.option("--format", "fmt", required=True, type=click.Choice(registry.names()))
@click.option(
    "--bots", required=True, help="Comma-separated bot names; builtin:NAME for built-ins."
)
@click.option("--players", type=int, help="Seats per match (default: the game's smallest).")
@click.option("--every", help="Open a round every 30s, 10m, 2h, 1d ...")
@click.option("--cron", help="Open a round on a cron schedule (UTC), e.g. '0 * * * *'.")
@click.option("--rounds", type=click.IntRange(min=1), help="Stop after this many rounds.")
@click.option("--seed", help="League seed: 32+ lowercase hex digits (default: 256 random bits).")
@click.option("--option", "option_pairs", multiple=True, metavar="NAME=VALUE")
@click.option("--move-time-ms", type=int, default=0, help="Per-move limit (0: arbiter default).")
@click.option(
    "--setting",
    "setting_pairs",
    multiple=True,
    metavar="NAME=VALUE",
    help="A setting of the league's format (each format's settings: docs/leagues.md).",
)
@click.option(
    "--rated/--unrated",
    default=None,
    help="Rate the league's matches (default: as its format says, docs/leagues.md).",
)
@click.option(
    "--allow-same-owner",
    is_flag=True,
    help="Let a rated league seat two bots of one owner (a private league); the tables that do"
    " are played unrated.",
)
@click.option(
    "--hosted-only",
    is_flag=True,
    help="Seat hosted bots (uploaded bundles run by the arena, on equal limits) and built-ins"
    " only, so the standings compare programs, not machines (docs/hosting.md).",
)
def league_create(
    name: str | None,
    game_id: str,
    fmt: str,
    bots: str,
    players: int | None,
    every: str | None,
    cron: str | None,
    rounds: int | None,
    seed: str | None,
    option_pairs: tuple[str, ...],
    move_time_ms: int,
    setting_pairs: tuple[str, ...],
    rated: bool | None,
    allow_same_owner: bool,
    hosted_only: bool,
) -> None:
    """Define a league; the workers run it from now on."""
    import psycopg

    from premiere.config import Settings
    from premiere.db import upgrade
    from workers import leagues
    from workers.schedule import check_cron, parse_every

    game = get(game_id)
    seats = players or min(n for n in game.player_counts if n >= 2)
    try:
        every_seconds = parse_every(every) if every else None
        cron_expression = check_cron(cron) if cron else None
        options = parse_options(game, option_pairs)
        settings_given = _format_settings(setting_pairs)
    except (ValueError, GameError) as error:
        raise click.BadParameter(str(error)) from None
    if every_seconds and cron_expression:
        raise click.BadParameter("give --every or --cron, not both")
    settings = Settings()
    upgrade(settings.database_url)
    names = [b.strip() for b in bots.split(",") if b.strip()]
    with leagues.connect(settings.database_url) as conn:
        count = len(leagues.list_leagues(conn)) + 1
        try:
            created = leagues.create_league(
                conn,
                name=name or f"{game_id}-{fmt}-{count}",
                game=game_id,
                format=fmt,
                players=seats,
                bots=names,
                options=options,
                every_seconds=every_seconds,
                cron=cron_expression,
                rounds=rounds,
                seed=seed,
                move_time_ms=move_time_ms,
                settings=settings_given,
                rated=rated,
                allow_same_owner=allow_same_owner,
                hosted_only=hosted_only,
            )
        except (ValueError, KeyError) as error:
            raise click.ClickException(str(error).strip("'\"")) from None
        except psycopg.errors.UniqueViolation:
            raise click.ClickException(f"a league named {name!r} already exists") from None
    click.echo(f"league {created.id} ({created.name}) created")


def _format_settings(pairs: tuple[str, ...]) -> dict[str, object]:
    """NAME=VALUE pairs; a value that reads as a number is one."""
    out: dict[str, object] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise ValueError(f"a setting is NAME=VALUE, not {pair!r}")
        value: object = text
        for kind in (int, float):
            try:
                value = kind(text)
                break
            except ValueError:
                continue
        out[name.strip()] = value
    return out


@league.command("list")
def league_list() -> None:
    """Every league with its progress."""
    from premiere.config import Settings
    from workers import leagues

    with leagues.connect(Settings().database_url) as conn:
        for item in leagues.list_leagues(conn):
            done = leagues.progress(conn, item.id)
            click.echo(
                f"{item.id:>4}  {item.name:<28} {item.game:<16} {item.format:<12} {item.status:<9}"
                f" {_rounds(item.status, done['rounds_closed'], item.rounds)}"
                f"  matches {done['tables_done']}/{done['tables']}"
            )


def _rounds(status: str, closed: int, planned: int | None) -> str:
    """ "rounds 3/10" while a league runs; "finished after 6 rounds" once it ended early (an
    SPRT's verdict) or on time."""
    if status == "finished":
        return f"finished after {closed} round{'s' if closed != 1 else ''}"
    return f"rounds {closed}/{planned if planned is not None else '-'}"


@league.command("show")
@click.argument("key")
def league_show(key: str) -> None:
    """Standings and progress of one league (by id or name)."""
    from premiere.config import Settings
    from workers import leagues
    from workers.planning import shown

    with leagues.connect(Settings().database_url) as conn:
        item = leagues.get_league(conn, key)
        if item is None:
            raise click.ClickException(f"no league {key!r} (`premiere league list` shows them)")
        done = leagues.progress(conn, item.id)
        table = leagues.current_standings(conn, item)
    hosted = ", hosted bots only" if item.hosted_only else ""
    click.echo(
        f"{item.name}: {item.game}, {item.format}, {item.players} seats, {item.status}{hosted}"
    )
    click.echo(
        f"{_rounds(item.status, done['rounds_closed'], item.rounds)},"
        f" matches {done['tables_done']}/{done['tables']}"
    )
    drawn = shown(item.format, item.progress)
    if drawn is not None:
        figures = "; ".join(f"{figure.label} {figure.text}" for figure in drawn.figures)
        click.echo(
            f"{item.format} {drawn.summary}: {drawn.question} {figures};"
            f" verdict {drawn.verdict or 'none yet'}"
        )
    click.echo("rank  bot                      points  games")
    for row in table:
        click.echo(f"{row['rank']:>4}  {row['bot']:<24} {row['points']:>6}  {row['games']:>5}")


@league.command("run-now")
@click.argument("key")
def league_run_now(key: str) -> None:
    """Open the league's next round now, without waiting for its schedule."""
    from datetime import UTC, datetime

    from premiere.config import Settings
    from workers import leagues

    with leagues.connect(Settings().database_url) as conn:
        item = leagues.get_league(conn, key)
        if item is None:
            raise click.ClickException(f"no league {key!r} (`premiere league list` shows them)")
        number = leagues.open_round(conn, item.id, datetime.now(UTC), manual=True)
    if number is None:
        raise click.ClickException(
            f"league {item.name} is {item.status}"
            if item.status != "active"
            else "a round is still open, or the league has played all its rounds"
        )
    click.echo(f"round {number} opened; the workers will plan and play it")


def _set_league_status(key: str, status: str) -> None:
    from premiere.config import Settings
    from workers import leagues

    with leagues.connect(Settings().database_url) as conn:
        item = leagues.get_league(conn, key)
        if item is None:
            raise click.ClickException(f"no league {key!r} (`premiere league list` shows them)")
        try:
            now = leagues.set_status(conn, item.id, status)
        except (ValueError, LookupError) as error:
            raise click.ClickException(str(error)) from None
    click.echo(f"league {item.id} ({item.name}) is {now}")


@league.command("pause")
@click.argument("key")
def league_pause(key: str) -> None:
    """Stop opening rounds and creating matches (matches already under way finish)."""
    _set_league_status(key, "paused")


@league.command("resume")
@click.argument("key")
def league_resume(key: str) -> None:
    """Let a paused league go on where it stopped."""
    _set_league_status(key, "active")


@league.command("cancel")
@click.argument("key")
def league_cancel(key: str) -> None:
    """End a league for good: no more rounds; its standings so far stay."""
    _set_league_status(key, "cancelled")
