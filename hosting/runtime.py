"""The runtime a sandbox offers: a Python interpreter with its standard library and a copy
of the packages bots may import from it (the SDK and what it needs), OpenSpiel with the
engines where the runner has them, and Node.js with the Node packages of Premiere's Node
client. Nothing else of the host is mounted.
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
from importlib import util
from pathlib import Path

from hosting.sandbox import Runtime

__all__ = ["OPENSPIEL_PACKAGES", "PYTHON_PACKAGES", "build", "openspiel", "readable_by_others"]

PYTHON_PACKAGES = ("premiere_bot", "premiere_wire", "grpc", "google", "typing_extensions")
"""What a Python bundle may import besides the standard library and its own folder."""

OPENSPIEL_PACKAGES = (
    "numpy",
    "pyspiel",
    "open_spiel",
    "absl",
    "ml_collections",
    "yaml",
    "_yaml",
    "games",
    "research",
)
"""What `premiere_bot.openspiel` imports (OpenSpiel and its Python side, numpy, the engines and
their adapters): offered as well where the runner has them (``premiere-bot[openspiel]``), so
that a policy trained in OpenSpiel runs hosted as it ran in the lab. They are mounted
read-only where they are installed rather than copied (126 MB): a runner start, and every
``premiere-bot bundle check``, would otherwise copy them."""


def readable_by_others(path: Path) -> bool:
    """Whether a user with no rights of ours can reach ``path`` (every folder on the way
    searchable, the path itself readable): what an unprivileged sandbox user needs."""
    path = path.resolve()
    for part in [*reversed(path.parents), path]:
        mode = part.stat().st_mode
        if stat.S_ISDIR(mode) and not mode & stat.S_IXOTH:
            return False
    return bool(path.stat().st_mode & stat.S_IROTH)


def _interpreter(shared: bool) -> tuple[Path, Path]:
    """(interpreter, prefix): ours, or the system's of the same version where ours sits in
    a folder the sandbox user may not read."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    ours = Path(sys.base_prefix) / "bin" / version
    if not shared or (readable_by_others(ours) and readable_by_others(Path(sys.base_prefix))):
        return ours, Path(sys.base_prefix)
    system = Path("/usr/bin") / version
    if system.exists() and readable_by_others(system):
        return system, Path("/usr")
    raise FileNotFoundError(
        f"no {version} the sandbox user can read: install it for everyone (apt-get install"
        f" {version}) or run the runner's Python from a folder others can read"
    )


def _origin(package: str) -> Path:
    spec = util.find_spec(package)
    if spec is None:
        raise FileNotFoundError(f"the runtime package {package} is not installed")
    if spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    assert spec.origin is not None
    return Path(spec.origin)


def openspiel(shared: bool) -> tuple[Path, ...]:
    """The installed files and folders of ``OPENSPIEL_PACKAGES`` (with a wheel's folder of
    bundled libraries, ``numpy.libs``), or nothing where one is missing or, for a sandbox
    user other than ours, unreadable."""
    found: list[Path] = []
    for package in OPENSPIEL_PACKAGES:
        if util.find_spec(package) is None:
            return ()
        source = _origin(package)
        found.append(source)
        libraries = source.with_name(f"{source.name}.libs")
        if source.is_dir() and libraries.is_dir():
            found.append(libraries)
    if shared and not all(readable_by_others(path) for path in found):
        return ()
    return tuple(found)


def _copy_packages(target: Path) -> None:
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for package in PYTHON_PACKAGES:
        source = _origin(package)
        destination = target / source.name
        if source.is_dir():
            shutil.copytree(
                source,
                destination,
                ignore=shutil.ignore_patterns("__pycache__", "*.pyi", "py.typed"),
                dirs_exist_ok=True,
            )
        else:
            shutil.copy2(source, destination)
    for root, dirs, files in os.walk(target):
        for name in dirs:
            os.chmod(Path(root) / name, 0o555)
        for name in files:
            path = Path(root) / name
            os.chmod(path, 0o555 if path.stat().st_mode & 0o111 else 0o444)
    os.chmod(target, 0o555)


def build(work: Path, shared: bool, node_packages: Path | None = None) -> Runtime:
    """The runtime under ``work`` (made afresh). ``shared``: the sandbox runs as another user
    than ours, so everything mounted must be readable by others."""
    python, prefix = _interpreter(shared)
    packages = work / "python"
    if packages.exists():
        for root, dirs, _files in os.walk(packages):
            for name in dirs:
                os.chmod(Path(root) / name, 0o755)
        os.chmod(packages, 0o755)
    _copy_packages(packages)
    node = shutil.which("node")
    node_path = Path(node).resolve() if node else None
    if node_path is not None and not str(node_path).startswith("/usr/"):
        node_path = None
    modules = node_packages if node_packages is not None and node_packages.is_dir() else None
    if modules is not None and shared and not readable_by_others(modules):
        modules = None
    return Runtime(python, prefix, packages, node_path, modules, openspiel=openspiel(shared))
