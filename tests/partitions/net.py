"""Network namespaces joined through one router namespace, with links that can be cut.

Every node is a namespace of its own with one veth to the hub (a namespace that only routes):
node N has 10.77.N.2/30, the hub's end 10.77.N.1. A node is cut off entirely by setting its
hub end down; one pair of nodes is cut by a `blackhole` policy rule in the hub, which drops
their packets silently in both directions (no ICMP, no reset: what a real partition looks
like to TCP). The kernel here has no netem or iptables, and needs neither.

Names start with `pt<pid>-` so a later run finds the namespaces of a killed run (their pid is
gone) and removes them before it starts; the network also removes itself at exit and on
SIGTERM/SIGINT.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pwd
import re
import signal
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import FrameType

PREFIX = "pt"
_NAME = re.compile(rf"^{PREFIX}(\d+)-")


class NoNamespaces(RuntimeError):
    """This machine (or user) cannot make network namespaces; the message says why."""


EPHEMERAL = "55000 60999"
"""Each node's source ports for outgoing connections, above the services' own (gRPC 50051 and
50052, metrics, HTTP): in the default range a process's first connection (to the database)
could take the port its server binds next, which failed a ladder's start once."""


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(["ip", *args], capture_output=True, text=True, check=False)
    if check and result.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {result.stderr.strip()}")
    return result


def namespaces() -> list[str]:
    return [line.split()[0] for line in ip("netns", "list").stdout.splitlines() if line.strip()]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_namespace(name: str) -> None:
    """Kill what still runs inside, then delete it (its veth ends go with it)."""
    pids = ip("netns", "pids", name, check=False).stdout.split()
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(pid), signal.SIGKILL)
    ip("netns", "del", name, check=False)


def remove_stale() -> list[str]:
    """The namespaces of earlier runs whose process is gone (killed before it cleaned up)."""
    stale = []
    for name in namespaces():
        found = _NAME.match(name)
        if found and int(found.group(1)) != os.getpid() and not _alive(int(found.group(1))):
            remove_namespace(name)
            stale.append(name)
    return stale


def why_not() -> str | None:
    """None when namespaces can be made here, else the reason they cannot."""
    if os.geteuid() != 0:
        return "the partition harness needs root (network namespaces and veth links)"
    probe = f"{PREFIX}{os.getpid()}-probe"
    made = ip("netns", "add", probe, check=False)
    if made.returncode != 0:
        return f"`ip netns add` failed: {made.stderr.strip()}"
    ip("netns", "del", probe, check=False)
    return None


@dataclass
class Node:
    name: str
    index: int

    @property
    def address(self) -> str:
        return f"10.77.{self.index}.2"


@dataclass
class Network:
    """The hub and its nodes; `close()` (or exit, or SIGTERM) removes every one of them."""

    tag: str = field(default_factory=lambda: f"{PREFIX}{os.getpid()}-{os.urandom(2).hex()}")
    nodes: dict[str, Node] = field(default_factory=dict)
    cut_pairs: set[frozenset[str]] = field(default_factory=set)
    isolated: set[str] = field(default_factory=set)
    _closed: bool = False
    _links: str = field(default_factory=lambda: os.urandom(3).hex())

    @property
    def hub(self) -> str:
        return f"{self.tag}-hub"

    def namespace(self, node: str) -> str:
        return f"{self.tag}-{node}"

    def start(self) -> None:
        reason = why_not()
        if reason is not None:
            raise NoNamespaces(reason)
        remove_stale()
        atexit.register(self.close)
        for signum in (signal.SIGTERM, signal.SIGINT):
            previous = signal.getsignal(signum)
            signal.signal(signum, self._on_signal(previous))
        ip("netns", "add", self.hub)
        ip("netns", "exec", self.hub, "sh", "-c", "echo 1 > /proc/sys/net/ipv4/ip_forward")
        ip("-n", self.hub, "link", "set", "lo", "up")

    def _on_signal(self, previous: object) -> Callable[[int, FrameType | None], None]:
        def handler(signum: int, frame: FrameType | None) -> None:
            self.close()
            if callable(previous):
                previous(signum, frame)
            else:
                raise SystemExit(128 + signum)

        return handler

    def add(self, name: str) -> Node:
        node = Node(name, len(self.nodes) + 1)
        ns, here, there = self.namespace(name), f"v{node.index}{self._links}", self._hub_end(node)
        ip("netns", "add", ns)
        ip("link", "add", here, "type", "veth", "peer", "name", there)
        ip("link", "set", here, "netns", ns)
        ip("link", "set", there, "netns", self.hub)
        ip("-n", ns, "link", "set", "lo", "up")
        ports = f"echo {EPHEMERAL} > /proc/sys/net/ipv4/ip_local_port_range"
        ip("netns", "exec", ns, "sh", "-c", ports)
        ip("-n", ns, "link", "set", here, "name", "eth0")
        ip("-n", ns, "addr", "add", f"{node.address}/30", "dev", "eth0")
        ip("-n", ns, "link", "set", "eth0", "up")
        ip("-n", ns, "route", "add", "default", "via", f"10.77.{node.index}.1")
        ip("-n", self.hub, "addr", "add", f"10.77.{node.index}.1/30", "dev", there)
        ip("-n", self.hub, "link", "set", there, "up")
        self.nodes[name] = node
        return node

    def _hub_end(self, node: Node) -> str:
        return f"h{node.index}{self._links}"

    def exec_prefix(self, node: str) -> list[str]:
        """The command prefix that runs a process inside the node's namespace."""
        return ["ip", "netns", "exec", self.namespace(node)]

    # --- faults --------------------------------------------------------------------------

    def cut(self, a: str, b: str) -> None:
        """Drop every packet between a and b, both ways, silently."""
        pair = frozenset((a, b))
        if pair in self.cut_pairs:
            return
        for x, y in ((a, b), (b, a)):
            src, dst = self.nodes[x].address, self.nodes[y].address
            ip("-n", self.hub, "rule", "add", "from", src, "to", dst, "blackhole")
        self.cut_pairs.add(pair)

    def heal(self, a: str, b: str) -> None:
        pair = frozenset((a, b))
        if pair not in self.cut_pairs:
            return
        for x, y in ((a, b), (b, a)):
            src, dst = self.nodes[x].address, self.nodes[y].address
            ip("-n", self.hub, "rule", "del", "from", src, "to", dst, "blackhole", check=False)
        self.cut_pairs.discard(pair)

    def isolate(self, name: str) -> None:
        """Cut the node from every other (its link to the hub goes down)."""
        ip("-n", self.hub, "link", "set", self._hub_end(self.nodes[name]), "down")
        self.isolated.add(name)

    def rejoin(self, name: str) -> None:
        ip("-n", self.hub, "link", "set", self._hub_end(self.nodes[name]), "up")
        self.isolated.discard(name)

    def heal_all(self) -> None:
        for pair in list(self.cut_pairs):
            self.heal(*sorted(pair))
        for name in list(self.isolated):
            self.rejoin(name)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for name in self.nodes:
            remove_namespace(self.namespace(name))
        remove_namespace(self.hub)


def in_namespace(
    network: Network, node: str, command: Sequence[str], user: str | None = None
) -> list[str]:
    """`command` run inside the node's namespace, as `user` when given (privileges are dropped
    after entering the namespace, which only root may do)."""
    prefix = network.exec_prefix(node)
    if user is None:
        return [*prefix, *command]
    entry = pwd.getpwnam(user)
    return [
        *prefix, "setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}",
        "--clear-groups", *command,
    ]  # fmt: skip
