"""The protocol passes `buf lint`, and the committed Python wire code is what `make proto` makes."""

from __future__ import annotations

import difflib
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROTO_ROOT = ROOT / "proto"
BUF = ROOT / "clients" / "node" / "node_modules" / ".bin" / "buf"


def load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("proto_generate", PROTO_ROOT / "generate.py")
    if spec is None or spec.loader is None:
        pytest.fail(f"cannot load {PROTO_ROOT / 'generate.py'}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_buf_lint_passes() -> None:
    if not BUF.exists():
        pytest.fail(
            f"{BUF.relative_to(ROOT)} is missing: run `cd clients/node && npm ci` "
            "(make test does it for you); @bufbuild/buf ships the binary"
        )
    assert (PROTO_ROOT / "buf.yaml").is_file(), "proto/buf.yaml is missing"
    result = subprocess.run(
        [str(BUF), "lint"], cwd=PROTO_ROOT, capture_output=True, text=True, timeout=120
    )
    output = (result.stdout + result.stderr).strip()
    assert result.returncode == 0, f"buf lint failed (exit {result.returncode}):\n{output}"
    assert output == "", f"buf lint printed something:\n{output}"


def test_committed_wire_code_is_fresh() -> None:
    """The shared oneofs (game.proto, game_data.proto), the wire package's `*_pb2*` files, the
    SDK's typed views, the Node client's .proto copies and the Go client's data accessors are
    what `make proto` makes from the games' .proto files and proto/games.toml."""
    generator = load_generator()
    generated: dict[Path, str] = generator.generate()
    assert generated, "proto/generate.py generated nothing"
    committed: dict[Path, str] = generator.committed()
    hint = (
        "run `make proto` and commit proto/premiere/v1, wire/premiere_wire, "
        "clients/python/premiere_bot, clients/node/proto and clients/go"
    )
    assert sorted(committed) == sorted(generated), f"the generated file set differs: {hint}"
    stale = {}
    for name, text in generated.items():
        if committed[name] != text:
            diff = difflib.unified_diff(
                committed[name].splitlines(),
                text.splitlines(),
                f"committed/{name}",
                f"generated/{name}",
                lineterm="",
                n=1,
            )
            stale[str(name)] = "\n".join(list(diff)[:40])
    assert not stale, f"stale generated code in {sorted(stale)}: {hint}\n" + "\n".join(
        stale.values()
    )
