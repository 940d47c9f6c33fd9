"""Running code in the hosted-bot sandbox exactly as the runner does (the same wrapper and
bubblewrap command line, the same runtime, cgroups when root), for the hostile suite."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hosting.runtime import build
from hosting.sandbox import (
    Cgroups,
    Launch,
    Limits,
    Pool,
    Runtime,
    bwrap_argv,
    detect,
    limits_for,
    wrapper_argv,
)
from premiere_wire.bundle import Limits as Asked

UID = 300_900


@dataclass
class Ran:
    code: int | None
    out: str
    err: str
    seconds: float
    cpu_s: float
    timed_out: bool

    def report(self) -> dict[str, Any]:
        """The probe's last line of output, a JSON object of what it found."""
        lines = [line for line in self.out.splitlines() if line.startswith("{")]
        assert lines, (
            f"the probe printed no report: out={self.out[-2000:]!r} err={self.err[-2000:]!r}"
        )
        found: dict[str, Any] = json.loads(lines[-1])
        return found


class Sandbox:
    def __init__(self, work: Path, pool: Pool | None = None) -> None:
        self.bwrap = detect()
        self.work = work
        self.root = os.geteuid() == 0
        self.runtime: Runtime = build(work / "runtime", self.root)
        self.cgroups = Cgroups()
        self.pool = pool or Pool()
        work.chmod(0o755)

    def run(
        self,
        code: str,
        timeout: float = 20,
        limits: Limits | None = None,
        slot: str = "probe",
        env: dict[str, str] | None = None,
    ) -> Ran:
        bundle = self.work / f"bundle-{slot}"
        bundle.mkdir(exist_ok=True)
        (bundle / "probe.py").write_text(code)
        bundle.chmod(0o755)
        (bundle / "probe.py").chmod(0o644)
        sockets = self.work / f"sockets-{slot}"
        sockets.mkdir(exist_ok=True)
        uid = UID if self.root else None
        sockets.chmod(0o711)
        chosen = limits or limits_for(self.pool, Asked())
        launch = Launch(
            bot_id=0,
            name="probe",
            language="python",
            entry="probe:Probe",
            games=(),
            bundle=bundle,
            socket_dir=sockets,
            token="probe-token",
            limits=chosen,
            runtime=self.runtime,
            uid=uid,
        )
        group = f"test-{slot}-{os.getpid()}"
        procs = self.cgroups.make(group, chosen) if self.cgroups.available else []
        argv = [
            *wrapper_argv(procs, chosen, uid, self.cgroups.available),
            *bwrap_argv(
                launch, self.bwrap, [str(self.runtime.python), "-I", "-S", "/bot/probe.py"]
            ),
        ]
        started = time.monotonic()
        process = subprocess.Popen(
            argv,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            env={"PATH": "/usr/bin:/bin", **(env or {})},
        )
        timed_out = False
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            if self.cgroups.available:
                self.cgroups.kill(group)
            out, err = process.communicate(timeout=10)
        seconds = time.monotonic() - started
        cpu = self.cgroups.cpu_ns(group) / 1e9 if self.cgroups.available else 0.0
        if self.cgroups.available:
            self.cgroups.kill(group)
            time.sleep(0.05)
            self.cgroups.remove(group)
        return Ran(
            process.returncode,
            out.decode(errors="replace"),
            err.decode(errors="replace"),
            seconds,
            cpu,
            timed_out,
        )
