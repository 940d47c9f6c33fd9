"""The runner's settings (PREMIERE_*), beside the shared ones: its pool (equal hardware for
every hosted bot), where it works, how long an idle bot stays warm."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field

from premiere.config import Settings


class RunnerSettings(Settings):
    runner_metrics_port: int = Field(default=9103, description="Port of the runner's /metrics.")
    runner_work: str = Field(
        default=".state/runner",
        description="Folder of the runner's unpacked bundles, sockets and runtime copy.",
    )
    runner_bwrap: str | None = Field(
        default=None, description="bubblewrap binary (default: bwrap on PATH)."
    )
    runner_pool: str = Field(default="standard", description="The pool's name, shown per bot.")
    runner_cpus: float = Field(
        default=1.0, gt=0, le=64, description="CPUs each hosted bot may use (a cgroup quota)."
    )
    runner_memory_mb: int = Field(
        default=512, ge=32, description="Memory each hosted bot may use, every process together."
    )
    runner_processes: int = Field(
        default=64, ge=4, description="Processes and threads each hosted bot may have."
    )
    runner_open_files: int = Field(default=256, ge=16, description="Open files per process.")
    runner_scratch_mb: int = Field(
        default=64, ge=1, description="Size of each hosted bot's private writable /tmp."
    )
    runner_max_matches: int = Field(
        default=8, ge=1, description="Matches one hosted bot plays at once."
    )
    runner_idle_s: float = Field(
        default=30.0, gt=0, description="A hosted bot without matches is stopped after this."
    )
    runner_poll_s: float = Field(default=1.0, gt=0, description="How often work is looked for.")
    runner_max_running: int = Field(
        default=64, ge=1, description="Hosted bots this runner runs at once."
    )
    runner_arbiter_socket: str | None = Field(
        default=None,
        description="The arbiter's Unix socket on this machine (its PREMIERE_ARBITER_SOCKET),"
        " mounted into every sandbox; unset, each hosted bot gets a relay of its own to"
        " arbiter_target (an arbiter on any machine).",
    )
    runner_uid_base: int = Field(
        default=300_000,
        ge=1000,
        description="Run as root, each hosted bot gets a host user of its own from the"
        " runner_max_running users above this one; runners sharing a machine need ranges"
        " that do not overlap.",
    )
    runner_backoff_s: float = Field(
        default=2.0,
        gt=0,
        description="Delay before a crashed hosted bot is started again; doubles each time.",
    )
    hosted_log_kb: int = Field(
        default=256, ge=1, description="Output kept per hosted version (newest lines)."
    )
    runner_node_modules: str | None = Field(
        default=None,
        description="node_modules folder offered to Node bots (default: the Node client's).",
    )

    runner_backend: Literal["bwrap", "kubernetes"] = Field(
        default="bwrap",
        description="Where hosted bots run: bwrap (a sandbox on this machine) or kubernetes"
        " (a Pod each, hosting/pods.py).",
    )
    runner_namespace: str = Field(
        default="premiere-bots", description="Kubernetes: the namespace of hosted bots' Pods."
    )
    runner_image: str = Field(
        default="premiere:0.1.0",
        description="Kubernetes: the image hosted Pods run (its premiere_bot and"
        " `premiere fetch-bundle`).",
    )
    runner_gvisor: Literal["auto", "on", "off"] = Field(
        default="auto",
        description="Kubernetes: run hosted Pods with the gvisor RuntimeClass: auto (when the"
        " cluster has it), on (always: without it the cluster refuses them) or off.",
    )
    runner_pod_uid: int = Field(
        default=65534, ge=1, description="Kubernetes: the user id hosted Pods run as."
    )
    runner_name: str = Field(
        default="runner",
        description="Kubernetes: labels this runner's Pods; it deletes its own leftovers at start.",
    )
    runner_fetch_address: str = Field(
        default="0.0.0.0:8090",
        description="Kubernetes: where the runner serves bundles to its Pods' init containers.",
    )
    runner_fetch_host: str | None = Field(
        default=None,
        description="Kubernetes: the address Pods fetch bundles from (default: this host's IP).",
    )

    def work_path(self) -> Path:
        return Path(self.runner_work).resolve()
