"""Where a match should live: on the arbiter holding the streams of most of its seats' bots.

Pure logic; the relay reads who holds which streams (Redis presence) and the arbiter acts on
the choice (`Arbiter.create`, `Arbiter.adopt`). A decision asked on a stream the host holds
itself costs no Redis round trip, so a match is best hosted where its bots are.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping


def seats_held(seats: Iterable[int], holders: Mapping[int, Iterable[str]]) -> dict[str, int]:
    """Per arbiter, how many of the match's bot seats it can ask directly. `seats` holds the
    bot of each bot seat (a bot seated twice counts twice); `holders` the arbiters holding a
    live stream of each bot that plays the match's game."""
    held: dict[str, int] = {}
    for bot_id in seats:
        for arbiter in set(holders.get(bot_id, ())):
            held[arbiter] = held.get(arbiter, 0) + 1
    return held


def choose(here: str, held: Mapping[str, int]) -> str:
    """The arbiter that should host: the one holding most seats' streams. This arbiter keeps
    the match on a tie (a hand-over costs a round trip and a wait for nothing), and ties
    elsewhere go to the first name, so every arbiter reading the same presence agrees."""
    mine = held.get(here, 0)
    best = max(held.values(), default=0)
    if mine >= best:
        return here
    return min(name for name, count in held.items() if count == best)
