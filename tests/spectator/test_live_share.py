"""One address's share of the live page's feeds (issue 41, finding 8): the hub's bound, with a
stand-in arbiter that never answers (the feeds stay open; what is bounded is who opens them)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import games
from spectator.live import LiveHub, TooManyFromOneAddress


class _Silent:
    """An arbiter stub whose calls never return: every feed stays open."""

    async def GetMatch(self, request: Any) -> Any:
        await asyncio.Event().wait()


def test_one_address_cannot_take_every_live_match_feed() -> None:
    async def main() -> None:
        hub = LiveHub(None, lambda: _Silent(), max_matches=4, max_viewers=64, omniscient_delay=0)  # type: ignore[arg-type, return-value]
        game = games.get("magic-trick")
        held = []
        for n in range(2):
            follow = hub.follow(f"m{n}", game, address="ipv4:10.0.0.1")
            held.append((follow, asyncio.create_task(anext(follow))))
        await asyncio.sleep(0.05)
        third = hub.follow("m2", game, address="ipv4:10.0.0.1")
        with pytest.raises(TooManyFromOneAddress, match="2 different live matches"):
            await anext(third)
        again = hub.follow("m0", game, address="ipv4:10.0.0.1")  # a match it follows already
        held.append((again, asyncio.create_task(anext(again))))
        for n in (2, 3):
            other = hub.follow(f"m{n}", game, address="ipv4:10.0.0.2")
            held.append((other, asyncio.create_task(anext(other))))
        await asyncio.sleep(0.05)
        assert len(hub.feeds) == 4
        assert not any(task.done() for _, task in held)
        for follow, task in held[:1]:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await follow.aclose()
        assert hub.matches_by_address["ipv4:10.0.0.1"] == {"m0": 1, "m1": 1}
        for follow, task in held[1:]:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await follow.aclose()
        assert hub.matches_by_address == {}

    asyncio.run(main())
