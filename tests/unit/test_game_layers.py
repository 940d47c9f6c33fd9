"""A game is one folder that declares itself: in every registered game's package, `game.py` is
the only module that gathers the rules with the moves in words, the heuristic and the estimate;
the rules modules import nothing above the rules (nor the development tools in `dev/`), not
even inside a function."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from games import all_games
from games.interface import Game

ABOVE_THE_RULES = ("game", "notation", "heuristic", "evaluation")
"""The modules of a game's package that may import the rules, never the other way round."""


def package_of(game: Game) -> str:
    """The package a registered game lives in ("games.<name>")."""
    return type(game).__module__.rpartition(".")[0]


def modules_of(package: str) -> dict[str, Path]:
    """Every Python module in the package's folder and below, by dotted name."""
    root = Path(importlib.import_module(package).__file__ or "").parent
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join((package, *parts))] = path
    return found


def imported(module: str, path: Path) -> set[str]:
    """Every module ``module`` imports anywhere in its source (under `if TYPE_CHECKING`, in a
    function...), by absolute dotted name; ``from x import y`` counts as x and x.y."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


GAMES = all_games()


def test_every_registered_game_has_a_game_module() -> None:
    for game in GAMES:
        assert type(game).__module__ == f"{package_of(game)}.game", game.id


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_rules_modules_import_nothing_above_the_rules(game: Game) -> None:
    package = package_of(game)
    above = {f"{package}.{name}" for name in ABOVE_THE_RULES}
    modules = modules_of(package)
    rules = {
        name: path
        for name, path in modules.items()
        if name != package and name not in above and name.count(".") == package.count(".") + 1
    }
    assert rules, f"{package} has no rules modules"
    dev = f"{package}.dev"
    for name, path in rules.items():
        reached = {
            module
            for module in imported(name, path)
            if module in above or module == dev or module.startswith(f"{dev}.")
        }
        assert not reached, f"{name} imports {sorted(reached)}, above the rules"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_only_game_py_gathers_the_game(game: Game) -> None:
    """Nothing below game.py imports it back, and the package itself only re-exports."""
    package = package_of(game)
    top = f"{package}.game"
    for name, path in modules_of(package).items():
        if name in (package, top):
            continue
        assert top not in imported(name, path), f"{name} imports {top}"


def test_the_checker_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    """The walk finds an import hidden in a function body and a relative one."""
    source = tmp_path / "state.py"
    source.write_text(
        "def later():\n"
        "    from games.example.heuristic import Bot\n"
        "    from . import notation\n"
        "    return Bot, notation\n"
    )
    names = imported("games.example.state", source)
    assert {"games.example.heuristic", "games.example.notation"} <= names
