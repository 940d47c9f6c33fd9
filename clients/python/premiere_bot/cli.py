"""`PREMIERE_BOT_TOKEN=T premiere-bot run module:Class --arbiter HOST:PORT [--tls [--ca F]]`."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from premiere_bot.bot import Bot
from premiere_bot.runner import AuthenticationError, RefusedError, run


def load_bot(spec: str) -> Bot:
    """Instantiate `module:Class`; the module is imported from the current directory too."""
    module_name, sep, class_name = spec.partition(":")
    if not sep or not module_name or not class_name:
        raise SystemExit(f"expected module:Class, got {spec!r}")
    sys.path.insert(0, os.getcwd())
    cls = getattr(importlib.import_module(module_name), class_name, None)
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise SystemExit(f"{spec} is not a premiere_bot.Bot subclass")
    return cls()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="premiere-bot", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    runner = commands.add_parser("run", help="connect a bot and play until interrupted")
    runner.add_argument("bot", help="module:Class of a premiere_bot.Bot subclass")
    runner.add_argument("--arbiter", default=os.environ.get("PREMIERE_ARBITER", "127.0.0.1:50051"))
    runner.add_argument(
        "--token",
        default=os.environ.get("PREMIERE_BOT_TOKEN"),
        help="prefer the environment variable PREMIERE_BOT_TOKEN: a command line is visible"
        " to every user of the machine",
    )
    runner.add_argument(
        "--tls",
        action="store_true",
        default=os.environ.get("PREMIERE_TLS", "") in ("1", "true"),
        help="dial the arbiter over TLS (or PREMIERE_TLS=1); use it for any remote arbiter",
    )
    runner.add_argument(
        "--ca",
        default=os.environ.get("PREMIERE_CA"),
        help="PEM file of the CA to trust instead of the system's roots (implies --tls)",
    )
    runner.add_argument("--max-matches", type=int, help="override the bot's max_matches")
    runner.add_argument("--bot-version", help="announce this version of the bot (e.g. 2.1)")
    runner.add_argument("--no-reconnect", action="store_true", help="exit when the stream drops")
    runner.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
    )
    if not args.token:
        parser.error("PREMIERE_BOT_TOKEN (or --token) is required")
    ca = None
    if args.ca:
        try:
            ca = Path(args.ca).read_bytes()
        except OSError as error:
            parser.error(f"--ca {args.ca}: {error.strerror}")
    bot = load_bot(args.bot)
    if args.max_matches:
        bot.max_matches = args.max_matches  # type: ignore[misc]
    if args.bot_version:
        bot.version = args.bot_version  # type: ignore[attr-defined]
    try:
        asyncio.run(
            run(
                bot,
                args.arbiter,
                args.token,
                reconnect=not args.no_reconnect,
                tls=args.tls,
                ca=ca,
            )
        )
    except AuthenticationError as error:
        raise SystemExit(f"the arbiter refused the token: {error}") from None
    except RefusedError as error:
        raise SystemExit(f"the arbiter refused this bot: {error}") from None
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
