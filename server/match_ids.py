"""Match ids: UUIDs that follow the clock (RFC 9562's version 7: the creation time in
milliseconds in the leading 48 bits, 74 random bits after it).

Every table keyed by a match (matches, match_seats, match_moves, rated_matches, rating_history)
keeps a B-tree on its id. A random (version 4) id puts each new match on a random page of each
of them: a page read (from the OS, or the disk once the ladder outgrows memory) and written back
per match and index, on indexes that grow with every match ever played. Rating 1,000 matches on
a 1M-match ladder read about 1,700 such pages (rated_matches and rating_history keys), and the
cost of each grew with the ladder. Ids that follow the clock put new matches side by side at the
end of each index, on pages already in memory, whatever the ladder's size. They stay
unguessable (74 random bits); the creation time they carry is the match's own ``created_at``."""

from __future__ import annotations

import secrets
import time
import uuid


def new_match_id(now_ns: int | None = None) -> str:
    """A fresh match id, ordered by creation time to the millisecond (random within one)."""
    millis = (time.time_ns() if now_ns is None else now_ns) // 1_000_000
    value = (
        (millis & (1 << 48) - 1) << 80
        | 0x7 << 76
        | secrets.randbits(12) << 64
        | 0b10 << 62
        | secrets.randbits(62)
    )
    return str(uuid.UUID(int=value))
