"""`premiere-bot try` and `premiere-bot check`: their options, and their output."""

from __future__ import annotations

import argparse
from typing import Any

from premiere_bot.bot import Bot


def add_commands(commands: Any) -> None:
    trier = commands.add_parser(
        "try",
        help="play a bot against built-in bots in this process (needs the local extra)",
        description="Play matches of a bot against the built-in bots in this process, with"
        " Premiere's engines and the arbiter's clock and fault rules, and print its mean rank,"
        " illegal moves and decision times. The bot's seat rotates from match to match.",
    )
    trier.add_argument("bot", help="the bot class, as module:Class (a premiere_bot.Bot)")
    trier.add_argument("--game", required=True, help="the game id, e.g. magic-trick")
    trier.add_argument(
        "--vs",
        default=None,
        help="comma-separated built-in opponents, one per other seat, e.g. heuristic,random"
        " (random, first, last, a game's own such as heuristic, or a search level:"
        " search:100, search:1000). Default: random bots"
        " filling the game's smallest table, e.g. two at a game for 3 to 5 players (none"
        " when the smallest table is one seat: the bot then plays solo)",
    )
    trier.add_argument(
        "--games", type=int, default=10, help="how many matches to play (default: 10)"
    )
    trier.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, e.g. prestige=false (repeatable; docs/protocol.md lists them)",
    )
    trier.add_argument(
        "--seed", default="try", help="seed prefix: the same seed plays the same deals"
    )
    _clock_options(trier)
    checker = commands.add_parser(
        "check",
        help="play every game and player count the bot claims and report what would cost"
        " strikes (needs the local extra)",
        description="Play every game and player count the bot claims, in every seat and with"
        " every option value, against the random bot, plus a reconnect in mid-match; report"
        " each decision that would cost a strike (timeout, illegal or malformed answer) and"
        " each exception. Exits 1 when it finds any.",
    )
    checker.add_argument("bot", help="the bot class, as module:Class (a premiere_bot.Bot)")
    checker.add_argument("--seed", default="check", help="seed prefix of the matches played")
    _clock_options(checker)
    bundle = commands.add_parser(
        "bundle", help="a hosted bot's bundle folder (docs/hosting.md; needs the local extra)"
    )
    verbs = bundle.add_subparsers(dest="verb", required=True, metavar="VERB")
    bundle_check = verbs.add_parser(
        "check",
        help="check a bundle as the arena will and play it in its sandbox against random",
        description="Pack DIR and check it with the arena's rules, then start it in the same"
        " sandbox the arena uses (bubblewrap) and play one match per claimed game against the"
        " random bot. Exits 1 when the arena would refuse it or it would cost strikes.",
    )
    bundle_check.add_argument("folder", metavar="DIR", help="the bundle's folder")


def _clock_options(parser: argparse.ArgumentParser) -> None:
    from premiere_bot import local_defaults

    parser.add_argument(
        "--move-time-ms",
        type=int,
        default=local_defaults.MOVE_TIME_MS,
        help=f"per-move limit, as the arbiter's (default: {local_defaults.MOVE_TIME_MS})",
    )
    parser.add_argument(
        "--time-bank-ms",
        type=int,
        default=local_defaults.TIME_BANK_MS,
        help=f"time bank per match, as the arbiter's (default: {local_defaults.TIME_BANK_MS})",
    )
    parser.add_argument(
        "--strike-limit",
        type=int,
        default=local_defaults.STRIKE_LIMIT,
        help=f"strikes before a forfeit, as the arbiter's (default: {local_defaults.STRIKE_LIMIT})",
    )


def main(args: argparse.Namespace) -> int:
    from premiere_bot.loading import load_bot

    if args.command == "bundle":
        try:
            from hosting.check import check_bundle
        except ImportError:
            raise SystemExit(
                "premiere-bot bundle check plays the bundle with Premiere's engines and sandbox:"
                " install them with `pip install 'premiere-bot[local]'`"
            ) from None
        from pathlib import Path

        found = check_bundle(Path(args.folder), lambda text: print(text, flush=True))
        if found.problems:
            print(f"{found.problems} problem(s): the arena would refuse it or strike it")
        else:
            print("ok: upload it with `premiere-bot upload DIR --bot NAME`")
        return 1 if found.problems else 0

    try:
        from premiere_bot import local
    except ImportError as error:
        raise SystemExit(str(error)) from None
    bot: Bot = load_bot(args.bot)
    clock = local.Clock(args.move_time_ms, args.time_bank_ms, args.strike_limit)
    if args.command == "check":
        report = local.check_bot(bot, args.seed, clock)
        for line in report.lines:
            print(line, flush=True)
        return 1 if report.problems else 0
    if args.game not in local.game_ids():
        raise SystemExit(f"unknown game {args.game!r}; choose from {list(local.game_ids())}")
    if args.games < 1:
        raise SystemExit("--games is at least 1")
    if args.vs is None:
        opponents = local.default_opponents(args.game)
    else:
        opponents = [name.strip() for name in args.vs.split(",") if name.strip()]
    try:
        options = local.game_options(args.game, args.option)
        summary = local.try_bot(bot, args.game, opponents, args.games, args.seed, options, clock)
    except (ValueError, KeyError) as error:
        raise SystemExit(str(error).strip('"')) from None
    name = type(bot).__name__
    print(
        f"{name} at {args.game}, {len(opponents) + 1} players,"
        f" vs {', '.join(opponents) or 'nobody (solo)'}:",
        flush=True,
    )
    for line in summary.lines():
        print(f"  {line}", flush=True)
    return 0
