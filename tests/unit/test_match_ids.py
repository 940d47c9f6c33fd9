"""Match ids follow the clock (server/match_ids.py)."""

from __future__ import annotations

import time
import uuid

from server.match_ids import new_match_id


def test_match_ids_are_version_7_ordered_by_the_millisecond_and_distinct() -> None:
    now = time.time_ns()
    ids = [uuid.UUID(new_match_id(now + step * 1_000_000)) for step in range(1000)]
    assert all(i.version == 7 and i.variant == uuid.RFC_4122 for i in ids)
    assert ids == sorted(ids)
    assert all(i.int >> 80 == (now // 1_000_000) + step for step, i in enumerate(ids))
    same = {new_match_id(now) for _ in range(10_000)}
    assert len(same) == 10_000, "74 random bits apart within one millisecond"
    before = uuid.UUID(new_match_id())
    time.sleep(0.002)
    assert before < uuid.UUID(new_match_id())
