"""`premiere up` interrupted at any moment of its start-up leaves nothing running: no process
it started (PostgreSQL's and Celery's children included), no port it listened on.

Each case starts `premiere up` (private PostgreSQL and Redis, the demo) with a marker of its
own in its environment, watches the process table until the start-up reaches its moment, then
interrupts it: Ctrl-C (SIGINT to the whole process group, as a terminal sends it) or SIGINT
to the launcher alone (its children are not told: it must stop them itself). By the time the
launcher has exited, nothing carrying the marker may run and nothing it listened on may still
listen."""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.guard import listening, marked
from tests.integration.test_stack import Up, alive

Moment = Callable[[Up, list[str]], bool]


def running(program: str) -> Moment:
    return lambda up, commands: any(program in command for command in commands)


def written(name: str) -> Moment:
    return lambda up, commands: (up.folder / name).exists()


MOMENTS: dict[str, Moment] = {
    # initdb makes the private database's files: the first run's install of PostgreSQL.
    "installing-the-database": running("bin/initdb"),
    "postgres-starting": running("bin/postgres -D"),
    "services-starting": running("premiere arbiter"),
    # The example bot is registered just before the demo leagues are created.
    "creating-the-demo-leagues": written("example-bot.json"),
}


def commands(pids: list[int]) -> list[str]:
    found = []
    for pid in pids:
        with contextlib.suppress(OSError):
            found.append(Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode())
    return found


def listening_now() -> set[str]:
    """Every TCP address in LISTEN in this network namespace, as tests.guard names them."""
    return set(listening(os.getpid(), every=True))


@pytest.mark.parametrize("whom", ["group", "launcher"])
@pytest.mark.parametrize("moment", list(MOMENTS))
def test_an_interrupted_start_leaves_nothing_running(moment: str, whom: str) -> None:
    run_id = uuid.uuid4().hex
    up = Up(private=True, PREMIERE_RUN_ID=run_id)
    try:
        reached = MOMENTS[moment]
        deadline = time.monotonic() + 240
        seen: set[int] = set()
        ports: set[str] = set()
        while True:
            pids = marked(run_id)
            seen.update(pids)
            if reached(up, commands(pids)):
                break
            assert up.process.poll() is None, up.output.read_text() + up.logs()
            assert time.monotonic() < deadline, f"never reached {moment}: {up.output.read_text()}"
            time.sleep(0.02)
        for pid in marked(run_id):
            ports.update(listening(pid))
        if whom == "group":
            os.killpg(up.process.pid, signal.SIGINT)
        else:
            up.process.send_signal(signal.SIGINT)
        up.process.wait(120)
        left = commands(marked(run_id))
        assert left == [], f"{moment}: still running after `premiere up` exited: {left}"
        assert [pid for pid in seen if alive(pid)] == []
        assert ports & listening_now() == set(), f"{moment}: still listening"
    finally:
        up.close()
