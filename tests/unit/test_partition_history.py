"""The history checker's rule for which answers were acknowledged (pure logic, no cluster)."""

from __future__ import annotations

from typing import Any

from tests.partitions.history import _acknowledged, overlaps


def ask(decision: int, t: float, boot: str = "b1") -> dict[str, Any]:
    return {"decision": decision, "t": t, "request_id": f"m:{boot}:{decision}", "index": 0}


def test_a_later_step_of_the_same_host_acknowledges_an_answer() -> None:
    answer = ask(3, 1.0)
    assert _acknowledged(answer, [answer, ask(6, 2.0)], [], players=3)


def test_a_step_mate_acknowledges_nothing() -> None:
    answer = ask(3, 1.0)
    assert not _acknowledged(answer, [answer, ask(4, 1.1), ask(5, 1.2)], [], players=3)


def test_another_host_acknowledges_nothing() -> None:
    answer = ask(3, 1.0)
    assert not _acknowledged(answer, [answer, ask(9, 2.0, boot="b2")], [], players=3)


def test_a_resumption_back_to_the_answer_voids_its_acknowledgement() -> None:
    """The same process re-adopted the match from ply 2 (before the answer): its later
    requests say nothing about the answer the earlier incarnation got."""
    answer = ask(3, 1.0)
    assert not _acknowledged(answer, [answer, ask(7, 3.0)], [(2, 2.0)], players=3)
    assert _acknowledged(answer, [answer, ask(7, 3.0)], [(4, 2.0)], players=3)


def test_a_match_handed_back_to_its_first_host_had_one_asker_at_a_time() -> None:
    """Host a, then b (a cut from the database), then a again (b cut): turns, not overlap."""
    turns = [(t / 10, "a") for t in range(10)] + [(t / 10, "b") for t in range(40, 60)]
    assert overlaps([*turns, *((t / 10, "a") for t in range(90, 99))]) == []


def test_a_stale_host_asking_after_the_new_one_took_over_is_an_overlap() -> None:
    taken_over = [(t / 10, "a") for t in range(10)] + [(t / 10 + 0.05, "b") for t in range(5, 15)]
    found = overlaps(taken_over)
    assert found and all("0.050 s after" in problem for problem in found)
