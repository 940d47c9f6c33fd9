"""The `premiere` command."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import click

from games import get, ids
from games.bots import bot_names
from games.errors import GameError
from games.interface import parse_options
from premiere.selfplay import SelfplayReport, run_selfplay
from workers import league_formats


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


@main.command()
@click.option("--game", "game_id", required=True, type=click.Choice(ids()), help="Game id.")
@click.option("--players", type=int, required=True, help="Seats per match.")
@click.option("--games", "count", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the whole run.")
@click.option(
    "--bots",
    default="random",
    show_default=True,
    help="Comma-separated built-in bots, one per seat; a single name fills every seat.",
)
@click.option(
    "--option",
    "option_pairs",
    multiple=True,
    metavar="NAME=VALUE",
    help="A game option, e.g. --option prestige=false. Repeatable.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object and nothing else.")
def selfplay(
    game_id: str,
    players: int,
    count: int,
    seed: int,
    bots: str,
    option_pairs: tuple[str, ...],
    as_json: bool,
) -> None:
    """Play matches between built-in bots in-process and report figures."""
    game = get(game_id)
    names = [name.strip() for name in bots.split(",") if name.strip()]
    if players not in game.player_counts:
        raise click.BadParameter(
            f"{game_id} takes {game.player_counts} players", param_hint="--players"
        )
    if len(names) not in (1, players):
        raise click.BadParameter(
            f"give one bot or {players} bots, not {len(names)}", param_hint="--bots"
        )
    unknown = sorted(set(names) - set(bot_names(game)))
    if unknown:
        raise click.BadParameter(
            f"{', '.join(unknown)}: {game_id} has {', '.join(bot_names(game))}", param_hint="--bots"
        )
    try:
        options = parse_options(game, option_pairs)
    except GameError as error:
        raise click.BadParameter(str(error), param_hint="--option") from None
    if as_json or count < 20 or not sys.stderr.isatty():
        report = run_selfplay(game, players, count, seed, names, options)
    else:
        with click.progressbar(length=count, label=f"{game_id} x{players}", file=sys.stderr) as bar:
            report = run_selfplay(game, players, count, seed, names, options, lambda: bar.update(1))
    if as_json:
        click.echo(json.dumps(report.to_json()))
    else:
        click.echo(_describe(report))


def _describe(report: SelfplayReport) -> str:
    lines = [
        f"{report.game}: {report.completed}/{report.games} matches, {report.players} players",
        f"moves: {report.moves} in {report.seconds:.2f} s ({report.moves_per_second:,.0f}/s)",
        f"illegal moves attempted: {report.illegal}",
        "seat  bot          mean rank  mean score",
    ]
    for seat in range(report.players):
        lines.append(
            f"{seat:>4}  {report.bots[seat]:<12} {report.mean_rank[seat]:>9.3f}"
            f"  {report.mean_score[seat]:>10.2f}"
        )
    lines.append(f"digest: {report.digest}")
    return "\n".join(lines)


@main.command()
@click.option("--address", help="host:port to bind (default PREMIERE_ARBITER_ADDRESS).")
@click.option("--metrics-port", type=int, help="Port of /metrics (PREMIERE_ARBITER_METRICS_PORT).")
@click.option("--no-migrate", is_flag=True, help="Do not apply pending migrations first.")
def arbiter(address: str | None, metrics_port: int | None, no_migrate: bool) -> None:
    """Run the gRPC arbiter until SIGTERM or Ctrl-C."""
    import asyncio
    import logging

    from premiere.db import upgrade
    from server.app import serve
    from server.config import ArbiterSettings

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    overrides: dict[str, object] = {}
    if address:
        overrides["arbiter_address"] = address
    if metrics_port is not None:
        overrides["arbiter_metrics_port"] = metrics_port
    settings = ArbiterSettings(**overrides)  # type: ignore[arg-type]
    if not no_migrate:
        upgrade(settings.database_url)
    asyncio.run(serve(settings))


@main.command()
@click.option("--arbiter", "target", help="host:port of the arbiter (PREMIERE_ARBITER_TARGET).")
@click.option(
    "--backend",
    type=click.Choice(["bwrap", "kubernetes"]),
    help="bwrap: a sandbox on this machine; kubernetes: a Pod per bot (PREMIERE_RUNNER_BACKEND).",
)
def runner(target: str | None, backend: str | None) -> None:
    """Run hosted bots in their sandboxes until SIGTERM or Ctrl-C (docs/hosting.md)."""
    import logging

    from hosting.config import RunnerSettings
    from hosting.runner import RunnerConfig, serve
    from hosting.sandbox import Pool, Unavailable, detect

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    settings = RunnerSettings()
    kubernetes = (backend or settings.runner_backend) == "kubernetes"
    from prometheus_client import start_http_server

    from premiere.config import metrics_host

    start_http_server(settings.runner_metrics_port, addr=metrics_host(settings))
    bwrap = ""
    if not kubernetes:
        try:
            bwrap = detect(settings.runner_bwrap)
        except Unavailable as error:
            raise click.ClickException(str(error)) from None
    modules = settings.runner_node_modules or str(
        Path(__file__).resolve().parents[1] / "clients" / "node" / "node_modules"
    )
    config = RunnerConfig(
        database_url=settings.database_url,
        arbiter=target or settings.arbiter_target,
        work=settings.work_path(),
        bwrap=bwrap,
        pool=Pool(
            name=settings.runner_pool,
            cpus=settings.runner_cpus,
            memory_mb=settings.runner_memory_mb,
            processes=settings.runner_processes,
            open_files=settings.runner_open_files,
            scratch_mb=settings.runner_scratch_mb,
            max_matches=settings.runner_max_matches,
        ),
        poll_s=settings.runner_poll_s,
        idle_s=settings.runner_idle_s,
        log_kb=settings.hosted_log_kb,
        max_running=settings.runner_max_running,
        backoff_s=settings.runner_backoff_s,
        uid_base=settings.runner_uid_base,
        arbiter_socket=(
            Path(settings.runner_arbiter_socket) if settings.runner_arbiter_socket else None
        ),
        node_packages=Path(modules),
    )
    if kubernetes:
        from importlib.util import find_spec

        if find_spec("kubernetes") is None:
            raise click.ClickException(
                "the kubernetes backend needs the k8s extra: pip install 'premiere[k8s]'"
            )
        from hosting import pod_runner

        try:
            pod_runner.serve(config, pod_runner.backend_from_settings(settings, config.arbiter))
        except Unavailable as error:
            raise click.ClickException(str(error)) from None
        return
    serve(config)


@main.command("fetch-bundle")
@click.argument("url")
@click.argument("sha256")
@click.argument("target", type=click.Path(file_okay=False, path_type=Path))
def fetch_bundle(url: str, sha256: str, target: Path) -> None:
    """Fetch bundle SHA256 from the runner at URL and unpack it into the empty folder TARGET
    (a hosted Pod's init container; the key is in $BUNDLE_FETCH_KEY)."""
    from hosting.fetch import KEY_ENV, fetch
    from premiere_wire.bundle import BundleError

    key = os.environ.get(KEY_ENV)
    if not key:
        raise click.ClickException(f"{KEY_ENV} is not set: the runner puts the fetch key there")
    try:
        checked = fetch(url, sha256, key, target)
    except BundleError as error:
        raise click.ClickException(str(error)) from None
    click.echo(
        f"unpacked {checked.manifest.name} ({sha256[:12]}): {checked.files} files,"
        f" {checked.unpacked} bytes"
    )


@main.group()
def db() -> None:
    """Database schema."""


@db.command("upgrade")
def db_upgrade() -> None:
    """Apply pending migrations (safe to run from several processes at once)."""
    from premiere.config import Settings
    from premiere.db import upgrade

    applied = upgrade(Settings().database_url)
    click.echo(
        f"applied {len(applied)} migration(s)" + (f": {', '.join(applied)}" if applied else "")
    )


@main.group()
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


@main.group()
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


@main.group()
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


@main.group()
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


@main.group()
def league() -> None:
    """Leagues and tournaments run by the workers."""


@league.command("create")
@click.option("--name", help="A unique name (default: GAME-FORMAT-N).")
@click.option("--game", "game_id", required=True, type=click.Choice(ids()))
@click.option("--format", "fmt", required=True, type=click.Choice(league_formats.names()))
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
    help="A format setting, e.g. sprt: elo0=0 elo1=10 alpha=0.05 beta=0.05 (docs/leagues.md).",
)
@click.option(
    "--rated/--unrated",
    default=None,
    help="Rate the league's matches (default: yes, except for the sprt format).",
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
    if item.progress is not None and item.progress.get("kind") == "sprt":
        p = item.progress
        click.echo(
            f"sprt {p['a']} vs {p['b']}: elo0 {p['elo0']} elo1 {p['elo1']} alpha {p['alpha']}"
            f" beta {p['beta']}; pairs {p['pairs']} ({p['games']} games);"
            f" LLR {p['llr']:.3f} in [{p['lower']:.3f}, {p['upper']:.3f}]"
            f"; verdict {p['verdict'] or 'none yet'}"
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


@main.command()
@click.option("--concurrency", type=int, default=2, show_default=True)
@click.option("--metrics-port", type=int, help="Port of /metrics (PREMIERE_WORKER_METRICS_PORT).")
def worker(concurrency: int, metrics_port: int | None) -> None:
    """Run a Celery worker for leagues, match dispatch and ratings."""
    from workers.run import run_worker

    run_worker(concurrency, metrics_port)


@main.command()
def beat() -> None:
    """Run Celery beat: it ticks, and each tick decides which rounds are due."""
    from workers.run import run_beat

    run_beat()


@main.group("ladder", invoke_without_command=True)
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
    import os

    # The standings fit is dense linear algebra on a shared machine: one BLAS thread is several
    # times faster than two competing ones (docs/ratings.md). Set before numpy loads.
    for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(variable, "1")

    from ladder.app import serve
    from ladder.config import LadderSettings
    from premiere.config import Settings
    from premiere.db import upgrade

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


@main.command()
@click.option(
    "--demo/--no-demo",
    default=True,
    show_default=True,
    help="Create a demo league over every game and run the example bot.",
)
def up(demo: bool) -> None:
    """Start the whole stack locally (private PostgreSQL/Redis unless PREMIERE_* name them)."""
    from premiere.children import adopt_orphans
    from premiere.stack import (
        Stack,
        ladder_http,
        running_stack,
        shut_down,
        state_dir,
        write_description,
    )
    from premiere.watch import watch

    folder = state_dir()
    running = running_stack(folder)
    if running is not None:
        raise click.ClickException(
            f"already running from {folder} (process {running['launcher']}; dashboard"
            f" {running.get('ladder_api', '?')}); stop it with Ctrl-C where it runs first"
        )
    adopt_orphans()
    stack = Stack(folder)
    try:
        click.echo("starting PostgreSQL and Redis (private unless configured) ...")
        stack.start_services()
        click.echo("starting the arbiter, the ladder, a worker and beat ...")
        stack.start_processes()
        if stack.hosting is None:
            click.echo("hosted bots: on (a runner starts uploaded bots in their sandbox)")
        else:
            click.echo(f"hosted bots: off ({stack.hosting}); everything else runs as usual")
        described = write_description(stack)
        click.echo(f"arbiter (bots connect here): {stack.settings.arbiter_address}")
        click.echo(f"dashboard: http://{ladder_http()}/  (JSON API under /api/games)")
        click.echo(f"logs and {described.name}: {stack.folder}")
        if not demo:
            click.echo("running; Ctrl-C stops everything")
            while True:
                stack.check_alive()
                time.sleep(1)
        stack.start_example_bot()
        hosted = stack.start_hosted_example()
        if hosted is not None:
            click.echo(f"hosted example bot: {hosted} (clients/python/hosted, run by the runner)")
        names = stack.create_demo_leagues(hosted)
        write_description(stack)
        click.echo(f"demo leagues: {', '.join(names)}; Ctrl-C stops everything")
        api = f"http://{ladder_http()}/api"
        watch(stack.env["PREMIERE_DATABASE_URL"], names, api, stack.check_alive)
    except KeyboardInterrupt:
        click.echo("stopping ...")
    except (RuntimeError, TimeoutError) as error:
        raise click.ClickException(str(error)) from None
    except PermissionError as error:
        raise click.ClickException(
            f"{error}. As root, the private PostgreSQL and Redis run as user 'nobody', who must"
            " be able to enter every folder above the project: move it (e.g. under /srv or"
            " /opt), run as an ordinary user, or set PREMIERE_DATABASE_URL and"
            " PREMIERE_REDIS_URL to servers of your own"
        ) from None
    finally:
        shut_down(stack)


@main.group()
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
