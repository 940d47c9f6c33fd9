"""Deliberately weakened builds, to show that each scenario fails without the code it guards.

`python -m tests.partitions.weakened ARGS` runs `premiere ARGS` (the arbiters, the worker,
beat and the ladder of a weakened cluster) with the weakness named by PARTITIONS_WEAKEN
switched on. Each weakness names the scenario it is shown against and the promise that
scenario must then find broken (`python -m tests.partitions --weakened` runs them all).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Weakness:
    name: str
    scenario: str
    breaks: str
    """The start of the promise (`Verdict.promise`) the scenario must find broken."""
    what: str
    apply: Callable[[], None]


def _no_self_fence() -> None:
    from server.arbiter import Arbiter

    Arbiter.fence_self_if_unrenewed = lambda self: 0  # type: ignore[method-assign]


def _relay_blames_the_bot() -> None:
    from server.router import Unreachable

    Unreachable.infrastructure = False


def _no_takeover() -> None:
    from server.arbiter import Arbiter

    async def adopt(self: Arbiter) -> int:
        return 0

    Arbiter.adopt = adopt  # type: ignore[method-assign]


def _answers_by_arrival() -> None:
    """An answer whose request is gone is taken as the answer to whatever request of that
    stream is pending: a late answer across a flapping link lands on a later decision."""
    from server.router import Router

    matched = Router.answer

    def answer(self: Router, conn: Any, reply: Any) -> None:
        future = conn.pending.get(reply.request_id)
        if future is None or future.done():
            waiting = [f for f in conn.pending.values() if not f.done()]
            if waiting:
                waiting[0].set_result(reply)
                return
        matched(self, conn, reply)

    setattr(Router, "answer", answer)  # noqa: B010


def _dispatch_not_idempotent() -> None:
    """Every run of a table's dispatch creates a match of its own (a fresh idempotency key)."""
    import uuid

    from workers import leagues

    leagues.idempotency_key = lambda *_: f"weakened:{uuid.uuid4()}"


def _fencing_off() -> None:
    """Lease expiry ignored and the database's fencing bypassed: the arbiter never stops a
    match on its own or on a lost renewal, and writes under whatever fencing number the
    lease holds now."""
    from server.arbiter import Arbiter
    from server.store import Store

    _no_self_fence()

    async def renew(self: Arbiter) -> None:
        await self.store.renew(self.owner, dict(self.fences), self.settings.lease_s)

    Arbiter.renew = renew  # type: ignore[method-assign]

    async def current(store: Store, match_id: str, fence: int) -> int:
        rows = await store._read("SELECT fence FROM match_leases WHERE match_id = %s", (match_id,))
        return int(rows[0]["fence"]) if rows else fence

    def steal(method: Any) -> Any:
        async def write(self: Store, match_id: str, fence: int, *args: Any) -> Any:
            return await method(self, match_id, await current(self, match_id, fence), *args)

        return write

    for name in ("mark_running", "append_move", "append_step", "append_fault", "finish", "void"):
        setattr(Store, name, steal(getattr(Store, name)))


def _claim_unchecked() -> None:
    """A claim takes the lease whoever holds it now, under its current fencing number: it
    no longer checks that the lease is still the one made out to this arbiter (fencing
    number 1, the match not begun)."""
    from server.store import Store

    async def claim(self: Store, match_id: str, owner: str, lease_s: float) -> int | None:
        rows = await self._read(
            "UPDATE match_leases l SET owner = %s,"
            " expires_at = now() + make_interval(secs => %s)"
            " FROM matches m WHERE l.match_id = %s AND m.id = l.match_id"
            " AND m.status IN ('pending', 'running')"
            " RETURNING l.fence",
            (owner, lease_s, match_id),
        )
        return int(rows[0]["fence"]) if rows else None

    Store.claim = claim  # type: ignore[method-assign]


def _no_peer_fallback() -> None:
    """Asks a dropped peer link was carrying are forgotten, not sent again through Redis."""
    from server.relay import Relay

    Relay._link_lost = lambda self, link: link.pending.clear()  # type: ignore[method-assign]


WEAKNESSES: dict[str, Weakness] = {
    w.name: w
    for w in (
        Weakness(
            "self-fence",
            "arbiter-postgres-cut",
            "the cut arbiter stopped hosting before its lease could be taken over",
            "an arbiter cut from the database keeps hosting until a write is refused",
            _no_self_fence,
        ),
        Weakness(
            "relay-blame",
            "arbiter-redis-cut",
            "no strike or forfeit charged to a bot for an infrastructure fault",
            "a relay failure mid-forward is charged to the bot",
            _relay_blames_the_bot,
        ),
        Weakness(
            "dispatch-twice",
            "worker-redis-cut",
            "each league table played by one match",
            "a table's dispatch run again (a redelivered task) creates another match",
            _dispatch_not_idempotent,
        ),
        Weakness(
            "answers-by-arrival",
            "bot-arbiter-flapping",
            "no acknowledged move lost",
            "an answer is matched to whatever request is pending, not by its request id",
            _answers_by_arrival,
        ),
        Weakness(
            "fencing-off",
            "paused-arbiter",
            "the resumed arbiter stopped hosting its moved matches within 2 s",
            "lease expiry ignored and writes carry the lease's current fencing number",
            _fencing_off,
        ),
        Weakness(
            "no-takeover",
            "postgres-restart",
            "every match ends",
            "no arbiter takes up a match whose lease lapsed",
            _no_takeover,
        ),
        Weakness(
            "claim-unchecked",
            "placed-arbiter-postgres-cut",
            "each lapsed placement taken up with the next fencing number and kept",
            "a claim takes the lease whoever holds it now, under its current fencing number",
            _claim_unchecked,
        ),
        Weakness(
            "peer-no-fallback",
            "peer-link-cut",
            "decisions fell back to Redis when the arbiters' link was cut",
            "asks a dropped peer link was carrying are not sent again through Redis",
            _no_peer_fallback,
        ),
        Weakness(
            "no-takeover-random",
            "random-schedule",
            "every match ends",
            "no arbiter takes up a match whose lease lapsed",
            _no_takeover,
        ),
    )
}


def weaken(name: str) -> None:
    weakness = WEAKNESSES.get(name)
    if weakness is None:
        raise SystemExit(f"PARTITIONS_WEAKEN is one of {sorted(WEAKNESSES)}, not {name!r}")
    weakness.apply()


def main() -> None:
    weaken(os.environ.get("PARTITIONS_WEAKEN", ""))
    from premiere.cli import main as premiere

    sys.argv = ["premiere", *sys.argv[1:]]
    premiere()


if __name__ == "__main__":
    main()
