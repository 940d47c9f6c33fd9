"""A league format is its module in ``workers/formats/`` alone: no page script and no command
names one. They draw a format's progress from what it says of itself (``Shown``), so a new
format needs no change to either."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from workers.formats import registry

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "spectator" / "static"
COMMANDS = [ROOT / "premiere" / "cli.py", *sorted((ROOT / "premiere" / "commands").glob("*.py"))]


def test_there_are_formats_to_look_for() -> None:
    assert registry.names()


def test_no_page_script_names_a_format() -> None:
    named = []
    for path in sorted(STATIC.rglob("*")):
        if "vendor" in path.parts or path.suffix not in (".js", ".html"):
            continue
        text = path.read_text()
        for name in registry.names():
            if re.search(f"[\"'`]{re.escape(name)}[\"'`]", text):
                named.append(f"{path.relative_to(ROOT)} names {name!r}")
    assert named == []


def _command_names(tree: ast.AST) -> set[int]:
    """The ids of the string constants that name a click command or group: the first argument
    of ``.command``/``.group``, and the keys of premiere.cli's ``COMMANDS`` (each subcommand
    by name, loaded when it runs)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and [getattr(target, "id", None) for target in node.targets] == ["COMMANDS"]
            and isinstance(node.value, ast.Dict)
        ):
            found.update(id(key) for key in node.value.keys if key is not None)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("command", "group")
            and node.args
        ):
            found.add(id(node.args[0]))
    return found


def test_no_command_names_a_format() -> None:
    named = []
    for path in COMMANDS:
        tree = ast.parse(path.read_text())
        commands = _command_names(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and node.value in registry.names()
                and id(node) not in commands
            ):
                named.append(f"{path.relative_to(ROOT)}:{node.lineno} names {node.value!r}")
    assert named == []
