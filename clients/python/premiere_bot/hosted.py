"""What runs a Python bot inside Premiere's sandbox: ``python -m premiere_bot.hosted
module:Class``, with the bundle on the path and the arbiter's socket, the token and the
manifest's games in the environment (the runner sets them; docs/hosting.md).

The manifest, not the class, says which games the bot plays and how many matches it takes at
once, so what the author uploaded is what the arena schedules.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys

from premiere_bot.loading import load_bot
from premiere_bot.runner import run


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if len(sys.argv) < 2:
        raise SystemExit("usage: premiere_bot.hosted module:Class")
    bot = load_bot(sys.argv[1])
    games = tuple(g for g in os.environ.get("PREMIERE_BOT_GAMES", "").split(",") if g)
    most = int(os.environ.get("PREMIERE_MAX_MATCHES", "0") or 0)
    bot.games = games  # type: ignore[misc]
    bot.version = ""  # type: ignore[misc]
    if most > 0:
        bot.max_matches = min(max(bot.max_matches, 1), most)  # type: ignore[misc]
    asyncio.run(run(bot, os.environ["PREMIERE_ARBITER"], os.environ["PREMIERE_BOT_TOKEN"]))


if __name__ == "__main__":
    main()
