"""``python -m tests.integration.bot_host ADDRESS``: play every bot whose token is a line of
stdin, each on its own connection (the SDK's `run`, the random example bot), all in this
process, until terminated. Many bots for a benchmark or a test at the cost of one process."""

from __future__ import annotations

import asyncio
import sys

from premiere_bot import run
from premiere_bot.examples.random_bot import RandomBot


def host(address: str) -> None:
    tokens = sys.stdin.read().split()

    async def play() -> None:
        await asyncio.gather(*(run(RandomBot(), address, token) for token in tokens))

    asyncio.run(play())


if __name__ == "__main__":
    host(sys.argv[1])
