"""Processes a test starts and must not outlive it: each is stopped when its test ends, whether
the test stopped it, failed before it could, or was interrupted (a fixture of a wider scope
keeps what it spawned until it ends).

Each starts in a process group of its own, so stopping it stops what it started in turn (a
worker's pool, a server's helpers). Whatever a test run still holds when it ends (a wider
fixture's processes whose clean-up never ran, after an interrupt or a SIGTERM) is stopped
then too (`stop_all`, called from tests/conftest.py at the end of the session and at exit).

A bot that outlives its test keeps reconnecting to an arbiter that is gone, and the suite's
later tests pay for its CPU; a leaked bot once ran for twenty minutes."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path
from typing import Any

from premiere.children import descendants, end

_started: list[subprocess.Popen[Any]] = []
_everything: list[subprocess.Popen[Any]] = []
_grouped: set[int] = set()
"""The pids of the processes that lead a process group of their own."""


def spawn(args: list[str], **popen: Any) -> subprocess.Popen[Any]:
    """`subprocess.Popen` in a new session (unless told otherwise), remembered until the end of
    the current test."""
    popen.setdefault("start_new_session", True)
    process: subprocess.Popen[Any] = subprocess.Popen(args, **popen)
    if popen["start_new_session"]:
        _grouped.add(process.pid)
    _started.append(process)
    _everything.append(process)
    return process


def mark() -> int:
    """Where the processes spawned from now on begin."""
    return len(_started)


def _group(pgid: int) -> list[int]:
    """The live members of process group `pgid` that are ours (below this process: a group
    whose leader is gone may have lost its number to somebody else's new group)."""
    ours = set(descendants())
    members = []
    for pid in ours:
        try:
            text = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if int(text[text.rindex(")") + 2 :].split()[2]) == pgid:
            members.append(pid)
    return members


def _signal(process: subprocess.Popen[Any], signum: int) -> None:
    """`signum` to a running process, and to its group."""
    if process.poll() is not None:
        return
    try:
        if process.pid in _grouped:
            os.killpg(process.pid, signum)
        else:
            process.send_signal(signum)
    except (ProcessLookupError, PermissionError):
        pass


def stop(processes: list[subprocess.Popen[Any]], timeout_s: float = 10) -> None:
    """SIGTERM to each (and its group), SIGKILL after `timeout_s`; then ends whatever of
    their groups outlived them."""
    for process in processes:
        _signal(process, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            _signal(process, signal.SIGKILL)
            process.wait()
    live = {p.pid for p in _everything if p.poll() is None}
    for process in processes:
        if process.pid in _grouped and process.pid not in live:
            end(_group(process.pid), grace=2)
        _grouped.discard(process.pid)


def stop_since(start: int, timeout_s: float = 10) -> list[subprocess.Popen[Any]]:
    """Stop every process spawned since `start` that still runs, and forget those; return
    them. Processes spawned before (a module's fixtures) are left alone."""
    mine = _started[start:]
    del _started[start:]
    leftovers = [process for process in mine if process.poll() is None]
    stop(mine, timeout_s)
    return leftovers


def stop_all(timeout_s: float = 10) -> list[subprocess.Popen[Any]]:
    """Stop every process spawned in this test run that still runs (or whose group does)."""
    remaining = [p for p in _everything if p.poll() is None or p.pid in _grouped]
    running = [p for p in remaining if p.poll() is None]
    stop(remaining, timeout_s)
    _everything.clear()
    del _started[:]
    return running
