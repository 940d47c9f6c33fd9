"""Hostile code in the hosted-bot sandbox: each test runs a probe that tries one attack, in the
sandbox exactly as the runner makes it, and fails if the attack works. The runner-level
attacks (a bot that floods its output, crashes in a loop or never ends, beside an honest bot
whose match must finish) are in test_runner.py."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from hosting.sandbox import Limits
from tests.hosting.sandboxed import Sandbox


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    """Under a folder others can search, as the runner's work folder must be (pytest's own
    temporary folder is its owner's only, which the sandbox user could not mount)."""
    work = Path(tempfile.mkdtemp(prefix="premiere-sandbox-"))
    try:
        yield Sandbox(work)
    finally:
        subprocess.run(["chmod", "-R", "u+w", str(work)], check=False)
        shutil.rmtree(work, ignore_errors=True)


PROBE = """
import json, os, socket, sys
found = {}
def attempt(name, action):
    try:
        found[name] = ["worked", repr(action())[:200]]
    except BaseException as error:
        found[name] = ["blocked", type(error).__name__ + ": " + str(error)[:200]]
"""


def host_address() -> str | None:
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=5)
    except OSError:
        return None
    for word in out.stdout.split():
        if ":" not in word and not word.startswith("127."):
            return word
    return None


def test_no_network_no_route_no_dns(sandbox: Sandbox, tmp_path: Path) -> None:
    """Connecting out fails for PostgreSQL, Redis, the metrics port, this machine's own
    address and a name; the only interface is the sandbox's own loopback."""
    # A listener on the host's loopback that the sandbox must not reach.
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    address = host_address() or "127.0.0.2"
    code = (
        PROBE
        + f"""
for name, port in (("postgres", 5432), ("redis", 6379), ("metrics", 9101), ("listener", {port})):
    attempt("connect-" + name, lambda port=port: socket.create_connection(("127.0.0.1", port), 2))
attempt("connect-host-address", lambda: socket.create_connection(({address!r}, {port}), 2))
attempt("dns", lambda: socket.getaddrinfo("pypi.org", 443))
attempt("route", lambda: open("/proc/net/route").read().splitlines()[1:] or 1/0)
attempt("interfaces", lambda: [i for i in os.listdir("/sys/class/net") if i != "lo"] or 1/0)
print(json.dumps(found))
"""
    )
    try:
        report = sandbox.run(code).report()
    finally:
        listener.close()
    for name, (verdict, detail) in report.items():
        assert verdict == "blocked", f"{name}: {detail}"


def test_the_host_is_not_visible(sandbox: Sandbox, tmp_path: Path) -> None:
    """No state folder, other bundle, other bot's socket or token, no host process or its
    environment, nothing of the host's files but the runtime."""
    secret = sandbox.work / "state" / "stack.json"
    secret.parent.mkdir()
    secret.write_text("postgresql://postgres@127.0.0.1/premiere")
    secret.parent.chmod(0o755)
    secret.chmod(0o644)
    other = sandbox.work / "sockets-other"
    other.mkdir(exist_ok=True)
    (other / "token").write_text("pmb_other_bot_token")
    code = (
        PROBE
        + f"""
attempt("read-state", lambda: open({str(secret)!r}).read())
attempt("read-other-socket-dir", lambda: os.listdir({str(other)!r}))
attempt("read-other-bundle", lambda: os.listdir({str(sandbox.work)!r}))
attempt("read-host-etc", lambda: open("/etc/passwd").read())
attempt("read-root", lambda: os.listdir("/root"))
attempt("read-work", lambda: os.listdir("/work"))
attempt("host-processes",
        lambda: [p for p in os.listdir("/proc") if p.isdigit() and int(p) > 3] or 1/0)
found["pid1-environ"] = ["info", open("/proc/1/environ").read()]
attempt("environment", lambda: sorted(k for k in os.environ if k not in (
    "PREMIERE_ARBITER", "PREMIERE_BOT_TOKEN", "PREMIERE_BOT_GAMES", "PREMIERE_MAX_MATCHES",
    "PREMIERE_HOSTED", "HOME", "TMPDIR", "PATH", "LANG", "PYTHONDONTWRITEBYTECODE",
    "PYTHONUNBUFFERED", "NODE_PATH", "LC_CTYPE", "PWD", "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS")) or 1/0)
attempt("sys-fs", lambda: os.listdir("/sys/fs/cgroup"))
attempt("become-root", lambda: os.setuid(0))
found["uid"] = ["info", os.getuid()]
found["root-listing"] = ["info", sorted(os.listdir("/"))]
print(json.dumps(found))
"""
    )
    os.environ["PREMIERE_TEST_SECRET"] = "postgresql://leak"
    try:
        report = sandbox.run(code).report()
    finally:
        del os.environ["PREMIERE_TEST_SECRET"]
    info = {k: report.pop(k) for k in ("uid", "root-listing", "pid1-environ")}
    # PID 1 of the sandbox is bubblewrap, started with nothing of the runner's environment.
    assert info["pid1-environ"][1].strip("\x00").split("\x00") == ["PATH=/usr/bin:/bin"]
    for name, (verdict, detail) in report.items():
        assert verdict == "blocked", f"{name}: {detail}"
    assert info["uid"][1] == 65534
    assert set(info["root-listing"][1]) <= {
        "bin",
        "bot",
        "dev",
        "etc",
        "lib",
        "lib64",
        "opt",
        "proc",
        "run",
        "tmp",
        "usr",
        "root",
    }


def test_writes_only_its_scratch_space_and_only_up_to_its_size(sandbox: Sandbox) -> None:
    code = (
        PROBE
        + """
attempt("write-bundle", lambda: open("/bot/evil.py", "w").write("x"))
attempt("write-usr", lambda: open("/usr/evil", "w").write("x"))
attempt("write-root", lambda: open("/evil", "w").write("x"))
attempt("write-runtime", lambda: open("/opt/premiere/python/evil.py", "w").write("x"))
attempt("write-socket-dir", lambda: open("/run/premiere/evil", "w").write("x"))
attempt("write-dev", lambda: open("/dev/evil", "w").write("x"))
attempt("write-dev-shm", lambda: open("/dev/shm/evil", "w").write("x"))
def fill():
    written = 0
    with open("/tmp/fill", "wb") as out:
        chunk = b"x" * (1 << 20)
        while written < (1 << 30):
            out.write(chunk)
            out.flush()
            written += len(chunk)
    return written
attempt("fill-scratch", fill)
found["scratch-used"] = ["info", os.path.getsize("/tmp/fill")]
print(json.dumps(found))
"""
    )
    limits = Limits(1.0, 256, 32, 64, scratch_mb=8, max_matches=1, file_mb=8)
    report = sandbox.run(code, limits=limits).report()
    used = report.pop("scratch-used")[1]
    for name, (verdict, detail) in report.items():
        assert verdict == "blocked", f"{name}: {detail}"
    assert used <= 8 << 20


def test_a_fork_bomb_meets_its_process_limit(sandbox: Sandbox) -> None:
    code = (
        PROBE
        + """
import time
children = 0
try:
    while children < 500:
        if os.fork() == 0:
            time.sleep(30)
            os._exit(0)
        children += 1
except OSError as error:
    found["fork"] = ["blocked", f"after {children} children: {error}"]
else:
    found["fork"] = ["worked", f"{children} children"]
print(json.dumps(found), flush=True)
os._exit(0)
"""
    )
    limits = Limits(1.0, 256, processes=24, open_files=64, scratch_mb=8, max_matches=1, file_mb=8)
    ran = sandbox.run(code, limits=limits, timeout=30)
    verdict, detail = ran.report()["fork"]
    assert verdict == "blocked", detail
    assert int(detail.split()[1]) < 24


def test_a_memory_bomb_is_stopped_at_its_limit(sandbox: Sandbox) -> None:
    code = """
import json
blocks = []
try:
    while len(blocks) < 4096:
        blocks.append(bytearray(1 << 20))
        if len(blocks) % 32 == 0:
            print(json.dumps({"allocated_mb": len(blocks)}), flush=True)
except MemoryError:
    print(json.dumps({"allocated_mb": len(blocks), "memory_error": True}), flush=True)
"""
    limits = Limits(
        1.0, memory_mb=128, processes=32, open_files=64, scratch_mb=8, max_matches=1, file_mb=8
    )
    ran = sandbox.run(code, limits=limits, timeout=60)
    reached = ran.report()["allocated_mb"] if ran.out.strip() else 0
    assert reached <= 128, f"allocated {reached} MiB past a 128 MiB limit"
    assert ran.code != 0 or "memory_error" in ran.out


def test_spinning_every_core_gets_its_share_and_no_more(sandbox: Sandbox) -> None:
    if not sandbox.cgroups.available:
        pytest.skip("CPU shares need cgroups (the runner runs as root where they exist)")
    code = """
import json, os, time, threading
def spin():
    end = time.monotonic() + 3
    while time.monotonic() < end:
        pass
threads = [threading.Thread(target=spin) for _ in range(4)]
[t.start() for t in threads]
[t.join() for t in threads]
for _ in range(4):
    if os.fork() == 0:
        spin(); os._exit(0)
for _ in range(4):
    os.wait()
print(json.dumps({"done": True}))
"""
    limits = Limits(0.5, 256, 32, 64, scratch_mb=8, max_matches=1, file_mb=8)
    ran = sandbox.run(code, limits=limits, timeout=60)
    assert ran.report()["done"]
    # Half a CPU: never more than half the wall time in CPU, whatever it starts.
    assert ran.cpu_s <= 0.5 * ran.seconds * 1.15 + 0.2, (ran.cpu_s, ran.seconds)


def test_it_cannot_signal_or_trace_anything_outside(sandbox: Sandbox) -> None:
    victim = subprocess.Popen(["sleep", "60"])
    try:
        code = (
            PROBE
            + f"""
import ctypes, signal
attempt("kill-host-process", lambda: os.kill({victim.pid}, signal.SIGKILL))
attempt("kill-runner", lambda: os.kill({os.getpid()}, signal.SIGTERM))
attempt("kill-all", lambda: os.kill(-1, signal.SIGKILL) or (1/0 if False else "sent"))
libc = ctypes.CDLL(None, use_errno=True)
def trace():
    if libc.ptrace(16, {victim.pid}, 0, 0) != 0:  # PTRACE_ATTACH
        raise OSError(ctypes.get_errno(), "ptrace refused")
    return "attached"
attempt("ptrace-host-process", trace)
print(json.dumps(found), flush=True)
"""
        )
        report = sandbox.run(code).report()
        kill_all = report.pop("kill-all")
        for name, (verdict, detail) in report.items():
            assert verdict == "blocked", f"{name}: {detail}"
        assert victim.poll() is None, "a process outside the sandbox was killed"
        assert kill_all[0] in ("blocked", "worked")  # kill(-1) reaches only its own namespace
    finally:
        victim.kill()
        victim.wait()


def test_sleeping_forever_is_ended_with_everything_it_started(sandbox: Sandbox) -> None:
    code = """
import os, time
for _ in range(3):
    if os.fork() == 0:
        os.setsid()
        time.sleep(3600)
print("sleeping", flush=True)
time.sleep(3600)
"""
    ran = sandbox.run(code, timeout=3, slot="sleeper")
    assert ran.timed_out and ran.seconds < 15
    leftover = subprocess.run(
        ["pgrep", "-f", "time.sleep(3600)|/bot/probe.py"], capture_output=True, text=True
    )
    mine = [pid for pid in leftover.stdout.split() if int(pid) != os.getpid()]
    assert not mine, f"processes of the sandbox outlived it: {mine}"
