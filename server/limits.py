"""Per-key counters of concurrent things (streams per peer, watchers per match): a slot is taken
for the life of a call and given back when it ends, whatever way it ends."""

from __future__ import annotations

import time
from collections import defaultdict, deque
from collections.abc import Iterator
from contextlib import contextmanager


class LimitExceeded(Exception):
    """A bound was reached; the message is the one-line reason for the client."""


class Slots:
    """At most `limit` concurrent holders per key."""

    def __init__(self, limit: int, what: str) -> None:
        self.limit = limit
        self.what = what
        self._held: dict[str, int] = defaultdict(int)

    def held(self, key: str) -> int:
        return self._held.get(key, 0)

    @contextmanager
    def take(self, key: str) -> Iterator[None]:
        if self._held[key] >= self.limit:
            raise LimitExceeded(f"at most {self.limit} {self.what}")
        self._held[key] += 1
        try:
            yield
        finally:
            self._held[key] -= 1
            if self._held[key] <= 0:
                del self._held[key]


class Rate:
    """At most `limit` events in any `window_s` seconds (a sliding window of timestamps)."""

    def __init__(self, limit: int, window_s: float = 60.0) -> None:
        self.limit = limit
        self.window_s = window_s
        self._times: deque[float] | None = None
        """Made on the first event: every bot stream holds a Rate, most never use it."""

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self._times is None:
            self._times = deque()
        while self._times and now - self._times[0] > self.window_s:
            self._times.popleft()
        if len(self._times) >= self.limit:
            return False
        self._times.append(now)
        return True


def peer_host(peer: str) -> str:
    """The host part of a gRPC peer: "ipv4:10.0.0.1:5555" -> "ipv4:10.0.0.1" (ports differ per
    connection, so a per-peer bound counts hosts)."""
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6") and ":" in rest:
        return f"{kind}:{rest.rsplit(':', 1)[0]}"
    return peer
