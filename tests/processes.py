"""Processes a test starts and must not outlive it: each is stopped when its test ends, whether
the test stopped it, failed before it could, or was interrupted (a fixture of a wider scope
keeps what it spawned until it ends).

A bot that outlives its test keeps reconnecting to an arbiter that is gone, and the suite's
later tests pay for its CPU; a leaked bot once ran for twenty minutes."""

from __future__ import annotations

import subprocess
from typing import Any

_started: list[subprocess.Popen[Any]] = []


def spawn(args: list[str], **popen: Any) -> subprocess.Popen[Any]:
    """`subprocess.Popen`, remembered until the end of the current test."""
    process: subprocess.Popen[Any] = subprocess.Popen(args, **popen)
    _started.append(process)
    return process


def mark() -> int:
    """Where the processes spawned from now on begin."""
    return len(_started)


def stop_since(start: int, timeout_s: float = 10) -> list[subprocess.Popen[Any]]:
    """Stop every process spawned since `start` that still runs, and forget those; return
    them. Processes spawned before (a module's fixtures) are left alone."""
    mine = _started[start:]
    del _started[start:]
    leftovers = [process for process in mine if process.poll() is None]
    for process in leftovers:
        process.terminate()
    for process in leftovers:
        try:
            process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return leftovers
