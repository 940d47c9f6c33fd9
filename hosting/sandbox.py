"""The kernel sandbox a hosted bot runs in, on one machine: bubblewrap.

What a sandboxed bot gets (``bwrap_argv``, a pure function, so the tests can read every flag):

- new user, PID, mount, network, IPC, UTS and cgroup namespaces: no network at all but its
  own loopback (no route, no DNS), its own process tree (PID 1 is bubblewrap), no capability,
  no new privileges, no further user namespaces, its own session (no terminal to inject into);
- a read-only root made of the runtime alone (``/usr`` and the loader's cache, the Python
  interpreter and the runtime's packages, or Node) and the bundle at ``/bot``, read-only;
- a private ``/tmp`` of ``scratch_mb`` (a size-capped tmpfs), the only writable place;
- one socket, ``/run/premiere/arbiter.sock``, the runner's relay to the arbiter, in a
  read-only folder (a socket connects on a read-only mount; nothing can be written there);
- a ``/dev`` of the usual few devices, read-only;
- an environment of our making: the arbiter's address, its token, its games, nothing else.

Outside bubblewrap, the kernel limits the process tree (``Limits``): a cgroup of its own per
bot for memory, processes and CPU where the machine offers cgroups (root, v1 or v2), rlimits
for open files, file size and core dumps always, and memory and processes by rlimit where no
cgroup can be made. Run as root, each bot also gets an unprivileged user id of its own on the
host, so no two bots (and no bot and the stack) share one.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from premiere_wire.bundle import Limits as Asked

__all__ = [
    "SANDBOX_SOCKET",
    "Cgroups",
    "Launch",
    "Pool",
    "Unavailable",
    "bwrap_argv",
    "detect",
    "limits_for",
]

SANDBOX_SOCKET = "/run/premiere/arbiter.sock"
BOT_DIR = "/bot"
RUNTIME_DIR = "/opt/premiere"
OPENSPIEL_DIR = f"{RUNTIME_DIR}/openspiel"
INSTALL_HINT = (
    "hosted bots need a sandbox: install bubblewrap (apt-get install bubblewrap, or your"
    " system's package) and run the runner where user namespaces are allowed"
)


SYSTEM = (
    *("--ro-bind", "/usr", "/usr"),
    *("--symlink", "usr/lib", "/lib"),
    *("--symlink", "usr/lib64", "/lib64"),
    *("--symlink", "usr/bin", "/bin"),
)
"""The system's programs and libraries, read-only, and the links a merged /usr expects."""


class Unavailable(RuntimeError):
    """No sandbox can run here; the message says what to install."""


@dataclass(frozen=True)
class Pool:
    """Equal hardware: every hosted bot of a pool gets these limits (a bundle may ask for
    less, never more), and the same CPU share."""

    name: str = "standard"
    cpus: float = 1.0
    memory_mb: int = 512
    processes: int = 64
    open_files: int = 256
    scratch_mb: int = 64
    max_matches: int = 8
    file_mb: int = 64


@dataclass(frozen=True)
class Limits:
    cpus: float
    memory_mb: int
    processes: int
    open_files: int
    scratch_mb: int
    max_matches: int
    file_mb: int


def limits_for(pool: Pool, asked: Asked) -> Limits:
    """The pool's limits, lowered where the bundle asked for less."""

    def pick(mine: int, wanted: int) -> int:
        return min(mine, wanted) if wanted > 0 else mine

    return Limits(
        cpus=pool.cpus,
        memory_mb=pick(pool.memory_mb, asked.memory_mb),
        processes=pick(pool.processes, asked.processes),
        open_files=pick(pool.open_files, asked.open_files),
        scratch_mb=pick(pool.scratch_mb, asked.scratch_mb),
        max_matches=pick(pool.max_matches, asked.max_matches),
        file_mb=min(pool.file_mb, pick(pool.scratch_mb, asked.scratch_mb)),
    )


@dataclass(frozen=True)
class Launch:
    """One hosted version to start: everything a backend needs, nothing of the stack."""

    bot_id: int
    name: str
    language: str
    entry: str
    games: tuple[str, ...]
    bundle: Path
    """The unpacked, read-only bundle on this machine."""
    socket_dir: Path
    """Holds ``arbiter.sock`` (the relay), mounted at /run/premiere and nowhere else."""
    token: str
    limits: Limits
    runtime: Runtime
    uid: int | None = None
    """The host user the sandbox runs as (root only); None: the runner's own."""
    arbiter_socket: Path | None = None
    """The arbiter's own Unix socket on this machine, mounted at SANDBOX_SOCKET instead of
    ``socket_dir`` (no relay in between)."""


@dataclass(frozen=True)
class Runtime:
    """What the read-only root holds beside /usr: an interpreter prefix for Python bots (its
    standard library), the runtime's Python packages (the SDK, gRPC, protobuf), and the
    folder of Node packages the runtime offers (gRPC for Node)."""

    python: Path
    python_prefix: Path
    python_packages: Path
    node: Path | None = None
    node_packages: Path | None = None
    extra_ro: tuple[Path, ...] = field(default_factory=tuple)
    openspiel: tuple[Path, ...] = ()
    """OpenSpiel's packages as installed (``runtime.OPENSPIEL_PACKAGES``), each mounted
    read-only under ``OPENSPIEL_DIR``; empty where the runner has none."""


def _command(launch: Launch) -> list[str]:
    if launch.language == "python":
        version = f"python{sys.version_info.major}.{sys.version_info.minor}"
        return [
            str(launch.runtime.python),
            "-I",
            "-S",
            "-c",
            "import sys; sys.path[:0] = sys.argv[1:4]; sys.argv[1:4] = [];"
            " from premiere_bot.hosted import main; main()",
            BOT_DIR,
            f"{RUNTIME_DIR}/python",
            OPENSPIEL_DIR,
            launch.entry,
            version,
        ]
    if launch.language == "node":
        if launch.runtime.node is None:
            raise Unavailable("this runner has no Node.js: install nodejs to host Node bots")
        return [str(launch.runtime.node), f"{BOT_DIR}/{launch.entry}"]
    return [f"{BOT_DIR}/{launch.entry}"]


def bwrap_argv(
    launch: Launch, bwrap: str = "bwrap", command: Sequence[str] | None = None
) -> list[str]:
    """The bubblewrap command line for ``launch`` (see the module's docstring); ``command``
    replaces what the language starts (a probe, in the tests)."""
    runtime = launch.runtime
    env = {
        "PREMIERE_ARBITER": f"unix:{SANDBOX_SOCKET}",
        "PREMIERE_BOT_TOKEN": launch.token,
        "PREMIERE_BOT_GAMES": ",".join(launch.games),
        "PREMIERE_MAX_MATCHES": str(launch.limits.max_matches),
        "PREMIERE_HOSTED": "1",
        "HOME": "/tmp",
        "TMPDIR": "/tmp",
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",
        # numpy's BLAS would start a thread per core, each counted against the process cap.
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
    }
    if runtime.node_packages is not None:
        env["NODE_PATH"] = f"{RUNTIME_DIR}/node_modules"
    argv = [
        bwrap,
        "--unshare-user",
        "--unshare-all",
        "--disable-userns",
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--uid",
        "65534",
        "--gid",
        "65534",
        "--hostname",
        "sandbox",
        "--clearenv",
    ]
    for key, value in env.items():
        argv += ["--setenv", key, value]
    argv += [
        *SYSTEM,
        "--ro-bind-try",
        "/etc/ld.so.cache",
        "/etc/ld.so.cache",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--remount-ro",
        "/dev",
        "--size",
        str(launch.limits.scratch_mb << 20),
        "--tmpfs",
        "/tmp",
    ]
    if launch.language == "python":
        prefix = str(runtime.python_prefix)
        if not prefix.startswith("/usr/") and prefix != "/usr":
            argv += ["--ro-bind", prefix, prefix]
        argv += ["--ro-bind", str(runtime.python_packages), f"{RUNTIME_DIR}/python"]
        for package in runtime.openspiel:
            argv += ["--ro-bind", str(package), f"{OPENSPIEL_DIR}/{package.name}"]
    if launch.language == "node" and runtime.node_packages is not None:
        argv += ["--ro-bind", str(runtime.node_packages), f"{RUNTIME_DIR}/node_modules"]
    for extra in runtime.extra_ro:
        argv += ["--ro-bind", str(extra), str(extra)]
    argv += [
        "--ro-bind",
        str(launch.bundle),
        BOT_DIR,
        *(
            ["--ro-bind", str(launch.arbiter_socket), SANDBOX_SOCKET]
            if launch.arbiter_socket is not None
            else ["--ro-bind", str(launch.socket_dir), str(Path(SANDBOX_SOCKET).parent)]
        ),
        "--remount-ro",
        "/",
        "--chdir",
        BOT_DIR,
        "--",
        *(command if command is not None else _command(launch)),
    ]
    return argv


def rlimit_argv(limits: Limits, cgroups: bool) -> list[str]:
    """prlimit's flags: always open files, file size and no core; memory and processes too
    when no cgroup holds them."""
    flags = [
        f"--nofile={limits.open_files}",
        f"--fsize={limits.file_mb << 20}",
        "--core=0",
    ]
    if not cgroups:
        flags += [f"--data={limits.memory_mb << 20}", f"--nproc={limits.processes}"]
    return flags


class Cgroups:
    """A cgroup per bot in each v1 hierarchy we need (memory, pids, cpu, cpuacct), or one in
    the v2 tree, under ``premiere-runner/``. Usable only as root with cgroupfs writable."""

    ROOT = Path("/sys/fs/cgroup")
    NAME = "premiere-runner"

    def __init__(self) -> None:
        self.v1 = (self.ROOT / "memory").is_dir() and (self.ROOT / "pids").is_dir()
        self.available = os.geteuid() == 0 and self._writable()

    def _writable(self) -> bool:
        probe = self._dirs("probe")
        try:
            for folder in probe:
                folder.mkdir(parents=True, exist_ok=True)
            for folder in probe:
                folder.rmdir()
            return True
        except OSError:
            return False

    def _dirs(self, slot: str) -> list[Path]:
        if self.v1:
            return [
                self.ROOT / kind / self.NAME / slot for kind in ("memory", "pids", "cpu", "cpuacct")
            ]
        return [self.ROOT / self.NAME / slot]

    def make(self, slot: str, limits: Limits) -> list[Path]:
        """The bot's cgroups, limits set; their ``cgroup.procs`` files are what to join."""
        folders = self._dirs(slot)
        for folder in folders:
            folder.mkdir(parents=True, exist_ok=True)
        memory = limits.memory_mb << 20
        period = 100_000
        quota = int(limits.cpus * period)
        if self.v1:
            mem, pids, cpu, _acct = folders
            _write(mem / "memory.limit_in_bytes", str(memory))
            _write_try(mem / "memory.memsw.limit_in_bytes", str(memory))
            _write(mem / "memory.swappiness", "0") if (mem / "memory.swappiness").exists() else None
            _write(pids / "pids.max", str(limits.processes))
            _write(cpu / "cpu.cfs_period_us", str(period))
            _write(cpu / "cpu.cfs_quota_us", str(quota))
        else:
            (folder,) = folders
            _write_try(self.ROOT / self.NAME / "cgroup.subtree_control", "+memory +pids +cpu")
            _write(folder / "memory.max", str(memory))
            _write_try(folder / "memory.swap.max", "0")
            _write(folder / "pids.max", str(limits.processes))
            _write(folder / "cpu.max", f"{quota} {period}")
        return [folder / "cgroup.procs" for folder in folders]

    def cpu_ns(self, slot: str) -> int:
        """CPU time the bot's processes used, by the kernel's count."""
        try:
            if self.v1:
                return int((self.ROOT / "cpuacct" / self.NAME / slot / "cpuacct.usage").read_text())
            for line in (self.ROOT / self.NAME / slot / "cpu.stat").read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "usage_usec":
                    return int(value) * 1000
        except (OSError, ValueError):
            pass
        return 0

    def kill(self, slot: str, rounds: int = 200) -> bool:
        """End every process left in the bot's cgroups (a double fork cannot escape them),
        again and again while a fork bomb's survivors keep forking; whether none is left."""
        procs = self._dirs(slot)[0] / "cgroup.procs"
        for _ in range(rounds):
            try:
                pids = [int(p) for p in procs.read_text().split()]
            except OSError:
                return True
            if not pids:
                return True
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, 9)
            time.sleep(0.005)
        return False

    def remove(self, slot: str) -> None:
        for folder in self._dirs(slot):
            with contextlib.suppress(OSError):
                folder.rmdir()


def _write(path: Path, value: str) -> None:
    path.write_text(value)


def _write_try(path: Path, value: str) -> None:
    with contextlib.suppress(OSError):
        path.write_text(value)


def wrapper_argv(
    procs: Sequence[Path], limits: Limits, uid: int | None, cgroups: bool
) -> list[str]:
    """What runs before bubblewrap: join the bot's cgroups (as root, by a shell that writes
    its own pid, so nothing the bot starts runs outside them even for a moment), set the
    rlimits, drop to the bot's host user, then exec bubblewrap."""
    argv: list[str] = []
    if procs:
        joins = " ".join(f'echo $$ > "{p}";' for p in procs)
        argv += ["/bin/sh", "-c", f'{joins} exec "$@"', "sandbox"]
    argv += ["prlimit", *rlimit_argv(limits, cgroups), "--"]
    if uid is not None:
        argv += ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--"]
    # Bubblewrap is PID 1 in the sandbox, whose environment the bot can read: an empty one.
    argv += ["env", "-i", "PATH=/usr/bin:/bin"]
    return argv


def detect(bwrap: str | None = None) -> str:
    """The bubblewrap binary if it can make a sandbox here, else Unavailable saying why."""
    found = bwrap or shutil.which("bwrap")
    if found is None:
        raise Unavailable(INSTALL_HINT)
    probe = [
        found,
        "--unshare-user",
        "--unshare-all",
        "--die-with-parent",
        *SYSTEM,
        "--",
        "/usr/bin/true",
    ]
    try:
        done = subprocess.run(probe, capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise Unavailable(f"{INSTALL_HINT} ({error})") from None
    if done.returncode != 0:
        reason = done.stderr.decode(errors="replace").strip()[:200]
        raise Unavailable(f"{INSTALL_HINT} (bubblewrap failed here: {reason})")
    return found
