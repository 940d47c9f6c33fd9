"""The suite's own guard: a process a test spawned does not outlive the test."""

from __future__ import annotations

import subprocess
import time

from premiere.children import alive
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


def test_stopping_a_process_stops_what_it_started() -> None:
    """Each spawned process leads a group of its own: its children go with it, even one that
    ignores SIGTERM and one whose parent is already gone."""
    start = mark()
    script = "trap '' TERM; sleep 300 & sleep 300 & echo $!; wait"
    shell = spawn(["sh", "-c", script], stdout=subprocess.PIPE, text=True)
    assert shell.stdout is not None
    child = int(shell.stdout.readline())
    assert alive(child)
    stop_since(start, timeout_s=2)
    deadline = time.monotonic() + 10
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(child)
    assert shell.poll() is not None
