"""The suite's own guard: a process a test spawned does not outlive the test."""

from __future__ import annotations

from tests.processes import mark, spawn, stop_since


def test_what_a_test_spawned_is_stopped_and_what_came_before_is_left() -> None:
    before = spawn(["sleep", "60"])
    start = mark()
    mine = spawn(["sleep", "60"])
    finished = spawn(["true"])
    finished.wait(10)
    try:
        stopped = stop_since(start)
        assert stopped == [mine]
        assert mine.poll() is not None
        assert before.poll() is None
        assert stop_since(start) == []
    finally:
        before.kill()
        before.wait(10)
