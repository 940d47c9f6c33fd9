"""`premiere selfplay`: a game played by its built-in bots, in-process, with a report."""

from __future__ import annotations

import json
import sys

import click

from games import get, ids
from games.bots import bot_names
from games.errors import GameError
from games.interface import parse_options
from premiere.selfplay import SelfplayReport, run_selfplay


@click.command()
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
