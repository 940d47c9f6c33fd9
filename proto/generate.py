"""Generate the Python wire code (messages, gRPC stubs, type stubs) from proto/premiere/v1.

`make proto` writes it into the wire package, `wire/premiere_wire` (distribution
`premiere-wire`), which both the arbiter and the bot SDK depend on. protoc writes absolute
imports (`from premiere.v1 import ...`) that follow the .proto layout; they are rewritten to
relative ones so the code lives inside that package. The package's hand-written modules
(`__init__.py`, `convert.py`) are left alone: only `*_pb2*` files are generated.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
SOURCES = PROTO_ROOT / "premiere" / "v1"
TARGET = ROOT / "wire" / "premiere_wire"

_ABSOLUTE = re.compile(r"^from premiere\.v1 import ", re.MULTILINE)


def _plugin(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        raise SystemExit(f"{name} not found next to {sys.executable}: install mypy-protobuf")
    return found


def generate() -> dict[str, str]:
    """Every generated file's name and text, ready to be written into the wire package."""
    protos = sorted(str(p.relative_to(PROTO_ROOT)) for p in SOURCES.glob("*.proto"))
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "grpc_tools.protoc",
                f"-I{PROTO_ROOT}",
                f"--python_out={tmp}",
                f"--grpc_python_out={tmp}",
                f"--mypy_out={tmp}",
                f"--mypy_grpc_out={tmp}",
                f"--plugin=protoc-gen-mypy={_plugin('protoc-gen-mypy')}",
                f"--plugin=protoc-gen-mypy_grpc={_plugin('protoc-gen-mypy_grpc')}",
                *protos,
            ],
            check=True,
            cwd=PROTO_ROOT,
            capture_output=True,
        )
        out = Path(tmp) / "premiere" / "v1"
        files: dict[str, str] = {}
        with_services = {p.stem for p in SOURCES.glob("*.proto") if "\nservice " in p.read_text()}
        for path in sorted(out.iterdir()):
            text = path.read_text()
            stem = path.name.split("_pb2")[0]
            if "_grpc." in path.name and stem not in with_services:
                continue
            files[path.name] = _ABSOLUTE.sub("from . import ", text)
    return files


def is_generated(path: Path) -> bool:
    return path.is_file() and "_pb2" in path.name


def write(files: dict[str, str], target: Path = TARGET) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for stale in target.iterdir():
        if is_generated(stale) and stale.name not in files:
            stale.unlink()
    for name, text in files.items():
        (target / name).write_text(text)


if __name__ == "__main__":
    write(generate())
    print(f"wrote {TARGET.relative_to(ROOT)}")
