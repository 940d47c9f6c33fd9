"""The wire package is what both sides stand on: the server never imports the bot SDK, the SDK
ships no generated code of its own, and the wire package imports nothing of the repository."""

from __future__ import annotations

import ast
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "clients" / "python" / "premiere_bot"
WIRE = ROOT / "wire" / "premiere_wire"
REPOSITORY = {
    "games",
    "premiere",
    "server",
    "ladder",
    "spectator",
    "workers",
    "bench",
    "research",
    "premiere_bot",
}
# The SDK's local runner (`premiere-bot try` / `check`) plays the engines in-process (the
# `local` extra), and its OpenSpiel bridge rebuilds the engine's own view of a request for an
# OpenSpiel policy (the `openspiel` extra): only these modules of it may import the engines
# and the research adapters.
SDK_LOCAL = {"local.py", "openspiel.py"}


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_server_module_imports_the_bot_sdk() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for folder in ("games", "premiere", "server", "ladder", "spectator", "workers", "bench")
        for path in (ROOT / folder).rglob("*.py")
        if "premiere_bot" in imported_roots(path)
    ]
    assert not offenders, f"import premiere_wire instead of premiere_bot in {offenders}"


def test_the_sdk_ships_no_generated_code_and_imports_no_server() -> None:
    generated = [p.name for p in SDK.rglob("*_pb2*")]
    assert not generated, f"the SDK ships generated code {generated}: it belongs in premiere_wire"
    for path in SDK.rglob("*.py"):
        if path.name in SDK_LOCAL:
            continue
        reached = imported_roots(path) & (REPOSITORY - {"premiere_bot"})
        assert not reached, f"{path.relative_to(ROOT)} imports {sorted(reached)}"


def test_the_wire_package_imports_nothing_of_the_repository() -> None:
    for path in WIRE.glob("*.py"):
        reached = imported_roots(path) & REPOSITORY
        assert not reached, f"{path.relative_to(ROOT)} imports {sorted(reached)}"


def test_the_sdk_and_its_examples_run_with_only_the_wire_package(tmp_path: Path) -> None:
    """With the repository's own packages off the path (no `games`, no `server`), the SDK, its
    CLI and every example still import: what `pip install premiere-bot` gives an author."""
    site = sysconfig.get_paths()["purelib"]
    examples = sorted(p.stem for p in (SDK / "examples").glob("*.py") if p.stem != "__init__")
    script = (
        "import importlib, sys\n"
        f"sys.path[:0] = [{str(ROOT / 'clients' / 'python')!r}, {str(ROOT / 'wire')!r}, {site!r}]\n"
        "import premiere_bot, premiere_bot.cli\n"
        f"for name in {examples!r}:\n"
        "    importlib.import_module('premiere_bot.examples.' + name)\n"
        "for name in ('games', 'server'):\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ImportError:\n"
        "        continue\n"
        "    raise SystemExit(name + ' should not be importable here')\n"
        "print('ok')\n"
    )
    result = subprocess.run(
        [sys.executable, "-S", "-c", script], cwd=tmp_path, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
