"""premiere-bot: run a bot against an arbiter, or try and check it locally first.

  PREMIERE_BOT_TOKEN=T premiere-bot run mybot:MyBot --arbiter HOST:PORT [--ladder HOST:PORT]
  PREMIERE_BOT_TOKEN=T premiere-bot challenge --game magic-trick --vs builtin:random,builtin:first
  premiere-bot try mybot:MyBot --game magic-trick --vs heuristic,random --games 100
  premiere-bot check mybot:MyBot
  premiere-bot account create NAME [--invite CODE]      # an author's account, once
  premiere-bot bots create|list|rotate-token|remove|versions|activate|events ...
  premiere-bot events list|enter EVENT --bot NAME|withdraw EVENT --bot NAME

`try` and `check` play the real engines in this process; they need the `local` extra
(`pip install 'premiere-bot[local]'`, which installs Premiere's engines).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
from collections.abc import Sequence
from pathlib import Path

import grpc

from premiere_bot.challenge import ChallengeRefused, challenge
from premiere_bot.loading import load_bot
from premiere_bot.report import Reporter
from premiere_bot.runner import AuthenticationError, RefusedError, UnreachableError, run


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="premiere-bot",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    runner = commands.add_parser(
        "run",
        help="connect a bot to an arbiter and play until interrupted",
        description="Connect a bot to an arbiter and play its matches until Ctrl-C. Prints a"
        " line when each match starts, when it ends (rank, scores, faults) and, with"
        " --ladder, when the ladder has rated it (rating change).",
    )
    runner.add_argument("bot", help="the bot class, as module:Class (a premiere_bot.Bot)")
    _connection_options(runner)
    runner.add_argument(
        "--ladder",
        default=os.environ.get("PREMIERE_LADDER"),
        help="the ladder's gRPC address, to print each match's rating change"
        " (default: $PREMIERE_LADDER; none: no rating lines)",
    )
    runner.add_argument(
        "--max-matches",
        type=int,
        help="matches played at once on this connection (default: the bot's max_matches)",
    )
    runner.add_argument(
        "--bot-version",
        help="announce this version of the bot (e.g. 2.1): a version the ladder has not seen"
        " becomes a new ladder entry, linked to the one active until now",
    )
    runner.add_argument(
        "--no-reconnect",
        action="store_true",
        help="exit when the stream drops or the arbiter cannot be reached, instead of retrying",
    )
    runner.add_argument(
        "--moves",
        action="store_true",
        help="after each match, print the bot's moves in words",
    )
    runner.add_argument(
        "-v", "--verbose", action="store_true", help="log connections and retries too"
    )

    challenger = commands.add_parser(
        "challenge",
        help="ask the arbiter for a match now (the bot must be running: `run`)",
        description="Ask the arbiter for a match now, against built-in bots or bots that accept"
        " challenges; it is played by the bot's running `premiere-bot run`. Prints the match id.",
    )
    challenger.add_argument("--game", required=True, help="the game id, e.g. magic-trick")
    challenger.add_argument(
        "--vs",
        required=True,
        help="comma-separated opponents in seat order: builtin:NAME for a built-in bot"
        " (builtin:random, builtin:heuristic, builtin:search:100, ...) or the name of a bot that"
        " accepts challenges",
    )
    challenger.add_argument(
        "--rated",
        action="store_true",
        help="ask for a rated match (refused where the operator allows casual ones only)",
    )
    challenger.add_argument(
        "--seat", type=int, default=0, help="your seat, from 0 (default: 0, the first)"
    )
    challenger.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, e.g. prestige=false (repeatable; docs/protocol.md lists them)",
    )
    _connection_options(challenger)

    from premiere_bot import author_cli, local_cli

    author_cli.add_commands(commands, _arbiter_options)
    local_cli.add_commands(commands)
    return parser


def _connection_options(parser: argparse.ArgumentParser) -> None:
    _arbiter_options(parser)
    parser.add_argument(
        "--token",
        default=os.environ.get("PREMIERE_BOT_TOKEN"),
        help="the bot's token; prefer the environment variable PREMIERE_BOT_TOKEN: a command"
        " line is visible to every user of the machine",
    )


def _arbiter_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--arbiter",
        default=os.environ.get("PREMIERE_ARBITER", "127.0.0.1:50051"),
        help="the arbiter's gRPC address (default: $PREMIERE_ARBITER or 127.0.0.1:50051)",
    )
    parser.add_argument(
        "--tls",
        action="store_true",
        default=os.environ.get("PREMIERE_TLS", "").lower() in ("1", "true", "yes"),
        help="dial the arbiter over TLS (or PREMIERE_TLS=1); use it for any remote arbiter",
    )
    parser.add_argument(
        "--ca",
        default=os.environ.get("PREMIERE_CA"),
        help="PEM file of the CA to trust instead of the system's roots (implies --tls;"
        " default: $PREMIERE_CA)",
    )


def _credentials(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> tuple[str, bytes | None, grpc.ChannelCredentials | None]:
    if not args.token:
        parser.error(
            "set PREMIERE_BOT_TOKEN (or --token) to the token `premiere-bot bots create NAME`"
            " printed"
        )
    ca = None
    if args.ca:
        try:
            ca = Path(args.ca).read_bytes()
        except OSError as error:
            parser.error(f"--ca {args.ca}: {error.strerror}")
    tls = args.tls or ca is not None
    credentials = grpc.ssl_channel_credentials(root_certificates=ca) if tls else None
    return str(args.token), ca, credentials


def _challenge(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    token, _, credentials = _credentials(parser, args)
    opponents = [name.strip() for name in args.vs.split(",") if name.strip()]
    options = {}
    for pair in args.option:
        name, sep, value = pair.partition("=")
        if not sep:
            parser.error(f"--option takes NAME=VALUE, not {pair!r}")
        options[name.strip()] = value.strip()
    try:
        reply = asyncio.run(
            challenge(
                args.arbiter,
                token,
                args.game,
                opponents,
                rated=args.rated,
                seat=args.seat,
                options=options,
                credentials=credentials,
            )
        )
    except ChallengeRefused as error:
        raise SystemExit(f"the arbiter at {args.arbiter} refused the challenge: {error}") from None
    reason = reply.unrated_reason or "casual"
    kind = "rated" if reply.rated else "casual" if reason == "casual" else f"unrated: {reason}"
    print(f"match {reply.match_id} {args.game} created ({kind}); your running bot plays it")
    return 0


def main(argv: Sequence[str] | None = None) -> None:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "challenge":
        raise SystemExit(_challenge(parser, args))
    if args.command in ("account", "bots", "events", "upload"):
        from premiere_bot import author_cli

        raise SystemExit(author_cli.main(args))
    if args.command != "run":
        from premiere_bot import local_cli

        raise SystemExit(local_cli.main(args))
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
    )
    if args.max_matches is not None and args.max_matches < 1:
        parser.error("--max-matches is at least 1")
    token, ca, credentials = _credentials(parser, args)
    tls = credentials is not None
    bot = load_bot(args.bot)
    if args.max_matches:
        bot.max_matches = args.max_matches  # type: ignore[misc]
    if args.bot_version:
        bot.version = args.bot_version  # type: ignore[misc]
    reporter = Reporter(args.arbiter, token, credentials, args.ladder, moves=args.moves)
    try:
        asyncio.run(
            run(
                bot,
                args.arbiter,
                token,
                reconnect=not args.no_reconnect,
                tls=tls,
                ca=ca,
                listener=reporter,
                on_error=reporter.decide_raised,
            )
        )
    except AuthenticationError as error:
        raise SystemExit(
            f"the arbiter at {args.arbiter} refused the token ({error}); check"
            " PREMIERE_BOT_TOKEN, or get a new one with `premiere-bot bots rotate-token NAME`"
        ) from None
    except RefusedError as error:
        raise SystemExit(f"the arbiter at {args.arbiter} refused this bot: {error}") from None
    except UnreachableError as error:
        raise SystemExit(f"{error}; is the arbiter running, and is the address right?") from None
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
