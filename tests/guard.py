"""`python -m tests.guard COMMAND ...`: run COMMAND, then fail if anything it started outlives it.

Every `make` verb that runs tests, mutations, partitions or benchmarks runs under it. What
counts as the run's own, on a machine where other PostgreSQL and Redis servers, other users
and other runs live too:

- a process that carries this run's marker, ``PREMIERE_RUN_ID=<id>`` in its environment
  (every process COMMAND starts inherits it, unless it was given an environment of its own);
- or one below the guard in the process table: the guard adopts orphans (prctl
  PR_SET_CHILD_SUBREAPER), so a process whose parent died, daemonised or not, is still its
  descendant (a sandbox that cleared its environment included);
- a folder or file in the run's own temporary folder: the guard points ``TMPDIR`` at a fresh
  folder, so ``tempfile`` in the run and in all it starts writes there and nowhere else.
  What a run keeps on purpose (a cache between runs, the partition scenarios' records for
  reading afterwards) goes to ``PREMIERE_KEPT_TMPDIR``, the temporary folder outside.

When COMMAND has ended, the guard names every such process still running (its command, its
working folder, the ports and sockets it listens on), ends it (SIGTERM, then SIGKILL), names
what was left in the temporary folder, removes it, and exits 1 even if COMMAND passed.
pytest's own temporary folders (``pytest-of-USER``, its record of each test's files) are not
leftovers: they go with the folder when the run passes and stay, for reading, when it fails.

Ctrl-C reaches COMMAND (the terminal signals the whole group); the guard waits for it to
finish, then checks as usual. SIGTERM or SIGHUP to the guard is passed on to COMMAND.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from premiere.children import (
    adopt_orphans,
    alive,
    descendants,
    end,
    process_table,
    wait_reaping,
)

MARKER = "PREMIERE_RUN_ID"
KEPT_TMPDIR = "PREMIERE_KEPT_TMPDIR"
PYTEST_TEMP = "pytest-of-"


@dataclass(frozen=True)
class Leftover:
    pid: int
    command: str
    cwd: str
    listening: tuple[str, ...] = field(default=())

    def __str__(self) -> str:
        ports = f", listening on {', '.join(self.listening)}" if self.listening else ""
        return f"process {self.pid} ({self.command}), in {self.cwd}{ports}"


def marked(run_id: str) -> list[int]:
    """The live processes carrying ``PREMIERE_RUN_ID=run_id`` (ours to read: our user's, or
    anybody's when we are root)."""
    wanted = f"{MARKER}={run_id}".encode()
    found = []
    for pid in process_table():
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            continue
        if wanted in environ.split(b"\0"):
            found.append(pid)
    return found


def belonging(run_id: str, root: int | None = None) -> list[int]:
    """The run's live processes: marked, or below ``root`` when one is given (the guard
    itself), never ``root`` itself nor our own ancestors (a guard inside another run carries
    that run's marker)."""
    table = process_table()
    exempt = {os.getpid()} if root is None else {os.getpid(), root}
    pid = os.getpid()
    while pid in table and table[pid] not in exempt:
        pid = table[pid]
        exempt.add(pid)
    below = set(descendants(root)) if root is not None else set()
    return sorted((set(marked(run_id)) | below) - exempt)


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    try:
        for fd in os.scandir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(fd.path)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    except OSError:
        pass
    return inodes


def _tcp_address(hex_address: str) -> str:
    host, port = hex_address.split(":")
    if len(host) == 8:
        octets = bytes.fromhex(host)[::-1]
        return f"{'.'.join(str(b) for b in octets)}:{int(port, 16)}"
    return f"[{host}]:{int(port, 16)}"


def listening(pid: int, every: bool = False) -> tuple[str, ...]:
    """The TCP ports and Unix sockets ``pid`` listens on (seen in its own network namespace);
    with ``every``, those that anybody in that namespace listens on."""
    inodes = _socket_inodes(pid)
    if not inodes and not every:
        return ()
    found = []
    for table in ("tcp", "tcp6"):
        try:
            lines = Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            cells = line.split()
            if cells[3] == "0A" and (every or cells[9] in inodes):  # state LISTEN
                found.append(f"tcp {_tcp_address(cells[1])}")
    try:
        lines = Path(f"/proc/{pid}/net/unix").read_text().splitlines()[1:]
    except OSError:
        lines = []
    for line in lines:
        cells = line.split()
        listens = int(cells[3], 16) & 0x10000  # __SO_ACCEPTCON
        if listens and (every or cells[6] in inodes):
            found.append(f"unix {cells[7] if len(cells) > 7 else '(unnamed)'}")
    return tuple(sorted(set(found)))


def describe(pid: int) -> Leftover:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        command = "?"
    try:
        cwd = os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        cwd = "?"
    return Leftover(pid, command.strip()[:200], cwd, listening(pid))


def sweep(run_id: str, root: int | None = None, grace: float = 5.0) -> list[Leftover]:
    """Name and end every process of the run still alive (marked, or below ``root``); what
    they were."""
    pids = belonging(run_id, root)
    leftovers = [describe(pid) for pid in pids]
    end(pids, grace)
    still = [pid for pid in pids if alive(pid)]
    if still:
        raise RuntimeError(f"processes {still} survived SIGKILL")
    return leftovers


def stray_files(folder: Path) -> list[Path]:
    """What the run left in its temporary folder, pytest's own folders aside."""
    try:
        entries = sorted(folder.iterdir())
    except FileNotFoundError:
        return []
    return [entry for entry in entries if not entry.name.startswith(PYTEST_TEMP)]


def remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def run(command: Sequence[str], label: str = "") -> int:
    """COMMAND's exit status, or 1 if it passed and left anything behind."""
    label = label or " ".join(command)
    run_id = uuid.uuid4().hex
    temp = Path(tempfile.mkdtemp(prefix="premiere-run-"))
    temp.chmod(0o1777)  # like /tmp: the servers a root run starts as 'nobody' write there too
    adopt_orphans()
    kept = os.environ.get(KEPT_TMPDIR) or tempfile.gettempdir()
    env = dict(os.environ, **{MARKER: run_id, "TMPDIR": str(temp), KEPT_TMPDIR: kept})
    child = subprocess.Popen(list(command), env=env)

    def pass_on(signum: int, frame: FrameType | None) -> None:
        if child.poll() is None:
            child.send_signal(signum)

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reached COMMAND too: wait for it
    signal.signal(signal.SIGTERM, pass_on)
    signal.signal(signal.SIGHUP, pass_on)
    status = wait_reaping(child)
    if status < 0:
        status = 128 - status  # killed by a signal: the shell's convention
    leftovers = sweep(run_id, os.getpid())
    strays = stray_files(temp)
    for leftover in leftovers:
        print(f"guard: {label}: left {leftover}; ended it", file=sys.stderr)
    for stray in strays:
        print(f"guard: {label}: left {stray}; removed it", file=sys.stderr)
        remove(stray)
    if status == 0 or not any(temp.iterdir()):
        shutil.rmtree(temp, ignore_errors=True)
    else:
        print(f"guard: {label}: pytest's temporary folders of this run: {temp}", file=sys.stderr)
    if leftovers or strays:
        print(
            f"guard: {label} left {len(leftovers)} processes and {len(strays)} temporary"
            " files or folders behind: each must be ended by what started it",
            file=sys.stderr,
        )
        return status or 1
    return status


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    label = ""
    if args[:1] == ["--label"]:
        label, args = args[1], args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        print("usage: python -m tests.guard [--label NAME] [--] COMMAND ...", file=sys.stderr)
        return 2
    return run(args, label)


if __name__ == "__main__":
    sys.exit(main())
