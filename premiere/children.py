"""Child processes that die with their parent, even when the parent is killed with SIGKILL.

Linux's parent-death signal (prctl PR_SET_PDEATHSIG) is set in the child between fork and
exec, after any change of user: a credential change clears it. It reaches only our own
children: what they start in turn (PostgreSQL's backends, a worker's pool, a sandbox) is found
through the process table instead, as our descendants. A process that adopts orphans
(`adopt_orphans`, prctl PR_SET_CHILD_SUBREAPER) keeps as its descendants even the processes
whose parent died before them, so `end_descendants` ends everything it ever started.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import pwd
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
UNPRIVILEGED = "nobody"


def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL("libc.so.6", use_errno=True)
    except OSError:
        return None


def _prepare(
    parent: int, user: str | None, mask: set[int | signal.Signals] | None = None
) -> Callable[[], None]:
    def prepare() -> None:
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        if user is not None:
            entry = pwd.getpwnam(user)
            os.setgroups([])
            os.setgid(entry.pw_gid)
            os.setuid(entry.pw_uid)
        libc = _libc()
        if libc is not None:
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return prepare


_spawned: set[int] = set()
"""The children `spawn` started, whose exit their Popen collects (never `reap_orphans`)."""


def running_as_root() -> bool:
    return os.geteuid() == 0


def spawn(
    command: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    log: IO[bytes] | None = None,
    user: str | None = None,
) -> subprocess.Popen[bytes]:
    """Start `command` as our child; it is killed if we die. `user` drops privileges first.

    Ctrl-C and SIGTERM are held back while we fork: a signal whose handler ran inside
    Python's fork hooks would raise there and be dropped ("Exception ignored"), and a `premiere
    up` interrupted at that instant would go on starting the stack. Held, it is raised here
    once the child exists (a descendant, so `end_descendants` ends it); the child gets our
    old mask."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        process = subprocess.Popen(
            list(command),
            env=dict(env) if env is not None else None,
            cwd=cwd,
            stdout=log if log is not None else subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            preexec_fn=_prepare(os.getpid(), user, held),
        )
        _spawned.add(process.pid)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    return process


def stop(
    process: subprocess.Popen[bytes], grace: float = 10.0, signum: int = signal.SIGTERM
) -> None:
    """`signum` (SIGTERM), then SIGKILL after `grace` seconds."""
    if process.poll() is not None:
        return
    process.send_signal(signum)
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def chown_tree(path: Path, user: str) -> None:
    entry = pwd.getpwnam(user)
    for root, dirs, files in os.walk(path):
        os.chown(root, entry.pw_uid, entry.pw_gid)
        for name in (*dirs, *files):
            os.chown(os.path.join(root, name), entry.pw_uid, entry.pw_gid, follow_symlinks=False)


def adopt_orphans() -> bool:
    """Make this process the reaper of its descendants' orphans (Linux); whether it is. An
    adopted orphan that exits stays a zombie until we collect it: a process that adopts must
    call `reap_orphans` now and then, or wait with `wait_reaping`."""
    global _adopting
    libc = _libc()
    _adopting = libc is not None and libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    return _adopting


_adopting = False


def reap_orphans(keep: Sequence[int] = ()) -> None:
    """Collect every child of ours that has exited, except `spawn`'s and `keep` (whose Popen
    collects them): the adopted orphans. Nothing unless we adopt them (`adopt_orphans`): a
    process that does not has no other children than its own, which it collects itself."""
    if not _adopting:
        return
    me = os.getpid()
    for pid, parent in _zombies().items():
        if parent == me and pid not in _spawned and pid not in keep:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)


def _zombies() -> dict[int, int]:
    found = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None and stat[0] == "Z":
                found[int(entry.name)] = stat[1]
    return found


def wait_reaping(process: subprocess.Popen[Any], timeout: float | None = None) -> int:
    """`process.wait(timeout)`, collecting meanwhile every other child that exits (the orphans
    we adopted). subprocess.TimeoutExpired as `wait` raises it."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while process.poll() is None:
        reap_orphans(keep=[process.pid])
        if deadline is not None and time.monotonic() > deadline:
            raise subprocess.TimeoutExpired(process.args, timeout or 0)
        time.sleep(0.1)
    reap_orphans()
    return process.returncode


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent) of a live process; None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1])


def process_table() -> dict[int, int]:
    """Every live process (zombies excluded) and its parent."""
    table = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            found = _stat(int(entry.name))
            if found is not None and found[0] != "Z":
                table[int(entry.name)] = found[1]
    return table


def descendants(root: int | None = None) -> list[int]:
    """The live processes below `root` (this process), parents before their children."""
    table = process_table()
    children: dict[int, list[int]] = {}
    for pid, parent in table.items():
        children.setdefault(parent, []).append(pid)
    found: list[int] = []
    waiting = [os.getpid() if root is None else root]
    while waiting:
        for child in sorted(children.get(waiting.pop(), ())):
            found.append(child)
            waiting.append(child)
    return found


def alive(pid: int) -> bool:
    found = _stat(pid)
    return found is not None and found[0] != "Z"


def _reap(pids: Sequence[int]) -> None:
    """Collect the exit of those that are our children (adopted orphans included)."""
    for pid in pids:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def end(pids: Sequence[int], grace: float = 5.0) -> list[int]:
    """SIGTERM to each of `pids`, SIGKILL to those still alive after `grace` seconds; the ones
    that were alive."""
    living = [pid for pid in pids if alive(pid)]
    for signum, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5.0)):
        for pid in living:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signum)
        deadline = time.monotonic() + wait
        while True:
            _reap(living)
            if not any(alive(pid) for pid in living) or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        if not any(alive(pid) for pid in living):
            break
    _reap(living)
    return living


def end_descendants(grace: float = 5.0) -> list[int]:
    """End whatever still runs below this process (what a clean stop left: grandchildren,
    orphans we adopted); the ones that ran."""
    return end(descendants(), grace)
