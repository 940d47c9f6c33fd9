"""The rooms of the house and their order (docs/architecture.md, "The layers"): every import of
every product module, read with ``ast`` (those inside functions and under ``TYPE_CHECKING``
too), goes to its own room or to a room on a lower layer, and no product modules import one
another in a circle."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PACKAGES = {
    "games": ROOT / "games",
    "premiere_wire": ROOT / "wire" / "premiere_wire",
    "premiere": ROOT / "premiere",
    "premiere_bot": ROOT / "clients" / "python" / "premiere_bot",
    "server": ROOT / "server",
    "ladder": ROOT / "ladder",
    "workers": ROOT / "workers",
    "hosting": ROOT / "hosting",
    "spectator": ROOT / "spectator",
}
"""Every product package, by module name: where its files are."""

ROOMS = {
    "games": ("games",),
    "wire": ("premiere_wire",),
    "kernel": ("premiere",),
    "sdk": ("premiere_bot",),
    "server": ("server",),
    "ladder": ("ladder",),
    "workers": ("workers",),
    "hosting": ("hosting",),
    "spectator": ("spectator",),
    "shell": (
        "premiere.__main__",
        "premiere.cli",
        "premiere.commands",
        "premiere.selfplay",
        "premiere.services",
        "premiere.stack",
        "premiere.watch",
        "premiere_bot.cli",
        "premiere_bot.local_cli",
    ),
}
"""Each room by the modules it holds (a module belongs to the room of its longest prefix)."""

LAYERS = (
    ("games",),
    ("wire",),
    ("kernel",),
    ("sdk",),
    ("server", "ladder", "workers"),
    ("hosting", "spectator"),
    ("shell",),
)
"""Lowest first. A room imports its own modules and those of rooms on lower layers only: never
a room beside it, never one above it."""

NEVER = {("server", "sdk"), ("ladder", "sdk"), ("workers", "sdk"), ("spectator", "sdk")}
"""Lower, but still out of bounds: the services speak the wire, never through the bot SDK."""


def modules(packages: Mapping[str, Path]) -> dict[str, Path]:
    """Every module of the packages by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for package, folder in packages.items():
        for path in sorted(folder.rglob("*.py")):
            parts = [package, *path.relative_to(folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _named(name: str, known: Iterable[str]) -> str | None:
    """The known module that importing ``name`` runs last: itself, or its nearest parent."""
    names = set(known)
    while name and name not in names:
        name = name.rpartition(".")[0]
    return name or None


def imports(found: Mapping[str, Path]) -> dict[str, set[str]]:
    """Each module's imports of the other modules in ``found``."""
    graph: dict[str, set[str]] = {}
    for module, path in found.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    parts = parts[: len(parts) - node.level + 1]
                    base = ".".join([*parts, *([node.module] if node.module else [])])
                # `from package import name` runs the module package.name when there is one
                names = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in found else base
                    for alias in node.names
                ]
            for name in names:
                target = _named(name, found)
                if target is not None and target != module:
                    targets.add(target)
        graph[module] = targets
    return graph


def room_of(module: str) -> str:
    best = max(
        (
            (room, prefix)
            for room, prefixes in ROOMS.items()
            for prefix in prefixes
            if module == prefix or module.startswith(prefix + ".")
        ),
        key=lambda pair: len(pair[1]),
        default=None,
    )
    assert best is not None, f"{module} is in no room: add it to ROOMS"
    return best[0]


def layer_of(room: str) -> int:
    return next(index for index, rooms in enumerate(LAYERS) if room in rooms)


def upward(graph: Mapping[str, set[str]]) -> list[str]:
    """Every import to a room beside or above the importer's, or one that is out of bounds."""
    wrong = []
    for module, targets in sorted(graph.items()):
        room = room_of(module)
        for target in sorted(targets):
            other = room_of(target)
            if other == room:
                continue
            if layer_of(other) >= layer_of(room) or (room, other) in NEVER:
                wrong.append(f"{module} ({room}) imports {target} ({other})")
    return wrong


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected sets of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            step = next(successors, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.get(step, ())))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                if len(members) > 1:
                    found.append(sorted(members))
    return sorted(found)


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return imports(modules(PACKAGES))


def test_every_room_is_on_a_layer() -> None:
    placed = [room for rooms in LAYERS for room in rooms]
    assert sorted(placed) == sorted(ROOMS)
    assert len(placed) == len(set(placed))


def test_no_room_imports_a_room_beside_or_above_it(graph: dict[str, set[str]]) -> None:
    assert upward(graph) == []


def test_no_import_circles(graph: dict[str, set[str]]) -> None:
    assert circles(graph) == []


def test_the_reading_finds_lazy_relative_and_circular_imports(tmp_path: Path) -> None:
    """The checks on a made-up house: a circle closed inside a function, through a relative
    import, and a kernel module reaching up into a service, are all found."""
    kernel = tmp_path / "premiere"
    service = tmp_path / "ladder"
    kernel.mkdir()
    service.mkdir()
    (kernel / "__init__.py").write_text("")
    (kernel / "config.py").write_text("def f():\n    from ladder import store\n")
    (service / "__init__.py").write_text("")
    (service / "store.py").write_text("from . import queries\n")
    (service / "queries.py").write_text(
        "import typing\nif typing.TYPE_CHECKING:\n    from ladder.store import x\n"
    )
    graph = imports(modules({"premiere": kernel, "ladder": service}))
    assert graph["premiere.config"] == {"ladder.store"}
    assert circles(graph) == [["ladder.queries", "ladder.store"]]
    assert upward(graph) == ["premiere.config (kernel) imports ladder.store (ladder)"]
