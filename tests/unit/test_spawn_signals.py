"""`premiere.children.spawn` and a Ctrl-C that lands while it forks: the launcher of `premiere
up` must still see it (it used to be raised inside Python's fork hooks and dropped, and the
interrupted launcher went on to start the whole demo)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

PROGRAM = textwrap.dedent(
    """
    import os, signal, sys, time
    from premiere.children import spawn

    # The signal arrives at the worst instant: in the parent, while the fork's hooks run.
    os.register_at_fork(after_in_parent=lambda: os.kill(os.getpid(), signal.SIGINT))
    try:
        child = spawn([sys.executable, "-c", "pass"])
        time.sleep(1)
        print("lost", flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    """
)


def test_a_ctrl_c_during_the_fork_reaches_the_launcher() -> None:
    ran = subprocess.run(
        [sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=60
    )
    assert ran.stdout.strip() == "interrupted", ran.stdout + ran.stderr
    assert "Exception ignored" not in ran.stderr


def test_the_child_does_not_inherit_the_held_signals() -> None:
    probe = "import signal; print(sorted(signal.pthread_sigmask(signal.SIG_BLOCK, [])))"
    parent = (
        "import sys; from premiere.children import spawn;"
        f" spawn([sys.executable, '-c', {probe!r}], log=sys.stdout.buffer).wait(30)"
    )
    ran = subprocess.run([sys.executable, "-c", parent], capture_output=True, timeout=60)
    assert ran.stdout.decode().strip() == "[]", ran
