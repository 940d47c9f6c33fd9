"""Child processes that die with their parent, even when the parent is killed with SIGKILL.

Linux's parent-death signal (prctl PR_SET_PDEATHSIG) is set in the child between fork and
exec, after any change of user: a credential change clears it.
"""

from __future__ import annotations

import ctypes
import os
import pwd
import signal
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO

_PR_SET_PDEATHSIG = 1
UNPRIVILEGED = "nobody"


def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL("libc.so.6", use_errno=True)
    except OSError:
        return None


def _prepare(parent: int, user: str | None) -> Callable[[], None]:
    def prepare() -> None:
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
    """Start `command` as our child; it is killed if we die. `user` drops privileges first."""
    return subprocess.Popen(
        list(command),
        env=dict(env) if env is not None else None,
        cwd=cwd,
        stdout=log if log is not None else subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        preexec_fn=_prepare(os.getpid(), user),
    )


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
