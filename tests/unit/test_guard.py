"""tests/guard.py, the check every `make` verb that runs tests ends with: a run that leaves a
process, a listening port or a temporary folder behind fails, naming it, and what it left is
gone afterwards; a run that leaves nothing passes and changes nothing."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.guard import marked
from tests.integration.services import ROOT

TAG = "PREMIERE_GUARD_TEST_TAG"
"""Set on the guard itself; every process of the guarded run inherits it (unless its
environment is cleared), so the test can find them all afterwards."""

# A command that leaves things behind the way a broken test would: a daemon (double fork,
# its own session) listening on a TCP port and a Unix socket, a second one started with an
# empty environment (no marker: found only as the guard's adopted orphan), and a temporary
# folder; then it exits 0.
PLANT = textwrap.dedent(
    """
    import os, socket, subprocess, sys, tempfile, time
    port = int(sys.argv[1])
    unix = os.path.join(tempfile.mkdtemp(prefix="stray-"), "s")
    subprocess.Popen(["/bin/sleep", "300"], env={}, start_new_session=True)
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            tcp = socket.socket()
            tcp.bind(("127.0.0.1", port))
            tcp.listen()
            local = socket.socket(socket.AF_UNIX)
            local.bind(unix)
            local.listen()
            open(unix + ".ready", "w").close()
            time.sleep(300)
        os._exit(0)
    while not os.path.exists(unix + ".ready"):
        time.sleep(0.05)
    """
)


@pytest.fixture
def short() -> Iterator[Path]:
    """A temporary folder with a short name: a Unix socket's path has at most 107 bytes."""
    folder = Path(tempfile.mkdtemp(prefix="g-"))
    yield folder
    shutil.rmtree(folder)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def tagged(tag: str) -> list[int]:
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                environ = Path(entry.path, "environ").read_bytes().split(b"\0")
            except OSError:
                continue
            if f"{TAG}={tag}".encode() in environ:
                found.append(int(entry.name))
    return [pid for pid in found if "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]]


def listening_tcp() -> set[int]:
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            cells = line.split()
            if cells[3] == "0A":
                ports.add(int(cells[1].rsplit(":", 1)[1], 16))
    return ports


def guarded(command: list[str], temp: Path, tag: str, **popen: object) -> subprocess.Popen[str]:
    temp.mkdir(exist_ok=True)
    env = dict(os.environ, TMPDIR=str(temp), **{TAG: tag})
    return subprocess.Popen(
        [sys.executable, "-m", "tests.guard", "--label", "planted", "--", *command],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **popen,  # type: ignore[arg-type]
    )


def test_a_run_that_leaves_nothing_passes_and_changes_nothing(tmp_path: Path) -> None:
    tag = uuid.uuid4().hex
    script = "import subprocess, tempfile; subprocess.run(['true']); tempfile.TemporaryFile()"
    run = guarded([sys.executable, "-c", script], tmp_path / "temp", tag)
    _out, err = run.communicate(timeout=60)
    assert run.returncode == 0, err
    assert "guard:" not in err
    assert tagged(tag) == []
    assert list((tmp_path / "temp").iterdir()) == []


def test_a_run_that_leaves_processes_ports_and_folders_fails_naming_them(short: Path) -> None:
    tag = uuid.uuid4().hex
    port = free_port()
    run = guarded([sys.executable, "-c", PLANT, str(port)], short, tag)
    _out, err = run.communicate(timeout=120)
    assert run.returncode == 1, err
    assert "left process" in err and "/bin/sleep 300" in err, err
    assert f"listening on tcp 127.0.0.1:{port}, unix {short}/premiere-run-" in err, err
    assert "/stray-" in err and "removed it" in err, err
    assert "left 2 processes and 1 temporary" in err, err
    # The run's whole table is as before: nothing of it runs, listens or stays on disk.
    assert tagged(tag) == []
    assert port not in listening_tcp()
    assert list(short.iterdir()) == []


def test_a_failing_run_keeps_its_status(tmp_path: Path) -> None:
    run = guarded([sys.executable, "-c", "raise SystemExit(3)"], tmp_path / "temp", "x")
    _out, err = run.communicate(timeout=60)
    assert run.returncode == 3
    assert "guard:" not in err


def test_ctrl_c_still_ends_what_the_interrupted_run_left(tmp_path: Path) -> None:
    """Ctrl-C reaches the whole foreground group: the run exits at once, leaving a child that
    ignores SIGINT; the guard waits for the run, then ends the child and fails."""
    tag = uuid.uuid4().hex
    script = textwrap.dedent(
        """
        import subprocess, sys, time
        subprocess.Popen(["sh", "-c", "trap '' INT; echo ready; exec sleep 300"],
                         stdout=sys.stdout)
        time.sleep(300)
        """
    )
    run = guarded([sys.executable, "-c", script], tmp_path / "temp", tag, start_new_session=True)
    assert run.stdout is not None
    assert run.stdout.readline().strip() == "ready"
    time.sleep(0.2)
    os.killpg(run.pid, signal.SIGINT)
    _out, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert "left process" in err and "sleep 300" in err, err
    assert tagged(tag) == []


def test_the_marker_finds_only_the_runs_own(tmp_path: Path) -> None:
    """A process with another run's marker, or none, is not the run's."""
    ours = subprocess.Popen(["sleep", "60"], env=dict(os.environ, PREMIERE_RUN_ID="mine"))
    theirs = subprocess.Popen(["sleep", "60"], env=dict(os.environ, PREMIERE_RUN_ID="theirs"))
    try:
        assert ours.pid in marked("mine")
        assert theirs.pid not in marked("mine")
        assert os.getpid() not in marked("mine")
    finally:
        for process in (ours, theirs):
            process.kill()
            process.wait(10)


def test_every_make_verb_that_runs_tests_runs_under_the_guard() -> None:
    """`make test` (so `.ci/run`), mutants, partitions, integration tests and benchmarks."""
    recipes: dict[str, list[str]] = {}
    target = ""
    for line in (ROOT / "Makefile").read_text().splitlines():
        if line and not line[0].isspace() and ":" in line and not line.startswith("."):
            target = line.split(":")[0]
            recipes[target] = []
        elif line.startswith("\t") and target:
            recipes[target].append(line)
    verbs = ["test", "test-integration", "mutants", "partitions", "partitions-weakened", "bench"]
    for verb in verbs:
        runs = [
            line
            for line in recipes[verb]
            if ("$(BIN)/python" in line or "scripts/" in line) and "pip install" not in line
        ]
        assert runs, f"make {verb} runs nothing"
        assert all("$(GUARD)" in line for line in runs), f"make {verb}: {runs}"
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_an_orphan_that_exits_during_the_run_is_collected_at_once(tmp_path: Path) -> None:
    """The guard adopts orphans, so it must collect their exits as they come: a zombie left
    under it would look like a process still running (a sandbox user's, say) to the run."""
    script = textwrap.dedent(
        """
        import os, sys, time
        guard = os.getppid()
        if os.fork() == 0:
            if os.fork() == 0:
                time.sleep(0.3)
            os._exit(0)
        os.wait()
        time.sleep(2)
        zombies = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                stat = open(f"/proc/{pid}/stat").read()
            except OSError:
                continue
            state, parent = stat[stat.rindex(")") + 2 :].split()[:2]
            if state == "Z" and int(parent) == guard:
                zombies.append(pid)
        sys.exit(f"zombies under the guard: {zombies}" if zombies else 0)
        """
    )
    run = guarded([sys.executable, "-c", script], tmp_path / "temp", uuid.uuid4().hex)
    _out, err = run.communicate(timeout=60)
    assert run.returncode == 0, err
