"""Generate Python code from proto/premiere/v1: the wire code and the SDK's typed views.

`make proto` writes two things:

- the wire code (messages, gRPC stubs, type stubs) into the wire package, `wire/premiere_wire`
  (distribution `premiere-wire`), which both the arbiter and the bot SDK depend on. protoc
  writes absolute imports (`from premiere.v1 import ...`) that follow the .proto layout; they
  are rewritten to relative ones so the code lives inside that package. Only `*_pb2*` files are
  generated there: the package's hand-written modules (`__init__.py`, `convert.py`) stay.
- the typed views of the bot SDK: one module per game in `clients/python/premiere_bot/`
  (`magic_trick.py`, ...) holding a frozen dataclass per message of that game's .proto (named
  without the game's prefix, documented with the proto's comments), and `views.py`, which maps
  game ids to their observation class and move classes. `premiere_bot.typed` decodes requests
  into them. A field with the `data_entry` option (data_entry.proto) is typed `Entry` or
  `StrEntry` and its class lists it in `DATA_ENTRIES`, so `typed` resolves it to the game's
  served data (`premiere_bot.entries`).
- a copy of the .proto files into `clients/node/proto`, so the Node bot works outside this
  repository (its package carries them).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from google.protobuf import descriptor_pb2

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
SOURCES = PROTO_ROOT / "premiere" / "v1"
TARGET = ROOT / "wire" / "premiere_wire"
SDK = ROOT / "clients" / "python" / "premiere_bot"
NODE_PROTO = ROOT / "clients" / "node" / "proto" / "premiere" / "v1"
GENERATED = "Generated from proto/premiere/v1 by `make proto`. Do not edit."

_ABSOLUTE = re.compile(r"^from premiere\.v1 import ", re.MULTILINE)
_Field = descriptor_pb2.FieldDescriptorProto
_SCALARS = {
    _Field.TYPE_BOOL: "bool",
    _Field.TYPE_STRING: "str",
    _Field.TYPE_BYTES: "bytes",
    _Field.TYPE_FLOAT: "float",
    _Field.TYPE_DOUBLE: "float",
}


def _plugin(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        raise SystemExit(f"{name} not found next to {sys.executable}: install mypy-protobuf")
    return found


def generate() -> dict[Path, str]:
    """Every generated file (its path under the repository root) and its text."""
    protos = sorted(str(p.relative_to(PROTO_ROOT)) for p in SOURCES.glob("*.proto"))
    with tempfile.TemporaryDirectory() as tmp:
        descriptors = Path(tmp) / "descriptors.pb"
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
                f"--descriptor_set_out={descriptors}",
                "--include_source_info",
                *protos,
            ],
            check=True,
            cwd=PROTO_ROOT,
            capture_output=True,
        )
        out = Path(tmp) / "premiere" / "v1"
        files: dict[Path, str] = {}
        with_services = {p.stem for p in SOURCES.glob("*.proto") if "\nservice " in p.read_text()}
        for path in sorted(out.iterdir()):
            text = path.read_text()
            stem = path.name.split("_pb2")[0]
            if "_grpc." in path.name and stem not in with_services:
                continue
            files[(TARGET / path.name).relative_to(ROOT)] = _ABSOLUTE.sub("from . import ", text)
        found = descriptor_pb2.FileDescriptorSet.FromString(descriptors.read_bytes())
    for name, text in typed_views(found).items():
        files[(SDK / name).relative_to(ROOT)] = text
    for proto in SOURCES.glob("*.proto"):
        files[(NODE_PROTO / proto.name).relative_to(ROOT)] = proto.read_text()
    return files


# --- typed views ---------------------------------------------------------------------------


def _comments(proto: descriptor_pb2.FileDescriptorProto) -> dict[tuple[int, ...], str]:
    return {
        tuple(location.path): location.leading_comments.strip()
        for location in proto.source_code_info.location
        if location.leading_comments.strip()
    }


def _camel(snake: str) -> str:
    return "".join(part.title() for part in snake.split("_"))


def typed_views(found: descriptor_pb2.FileDescriptorSet) -> dict[str, str]:
    """The SDK's per-game modules and their registry, from the protoc descriptor set."""
    by_file = {proto.name: proto for proto in found.file}
    game = by_file["premiere/v1/game.proto"]
    (observation,) = (m for m in game.message_type if m.name == "Observation")
    modules: dict[str, str] = {}
    registry = []
    for field in observation.field:
        snake = field.name
        prefix = _camel(snake)
        proto = by_file[f"premiere/v1/{snake}.proto"]
        modules[f"{snake}.py"] = _game_module(snake, prefix, proto)
        registry.append(snake)
    modules["views.py"] = _registry(registry)
    return modules


DATA_ENTRY = 50301
"""Field number of the `premiere.v1.data_entry` field option (data_entry.proto)."""


def data_entry(field: descriptor_pb2.FieldDescriptorProto) -> str:
    """The field's `data_entry` option ("" when unset), read from the options' bytes: the
    option is an extension this script does not import."""
    raw = field.options.SerializeToString()
    at = 0

    def varint() -> int:
        nonlocal at
        value = shift = 0
        while True:
            byte = raw[at]
            at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value

    while at < len(raw):
        tag = varint()
        wire = tag & 7
        if wire == 0:
            varint()
        elif wire == 1:
            at += 8
        elif wire == 5:
            at += 4
        elif wire == 2:
            length = varint()
            if tag >> 3 == DATA_ENTRY:
                return raw[at : at + length].decode()
            at += length
        else:
            raise ValueError(f"unexpected wire type {wire} in the options of {field.name}")
    return ""


def _python_type(field: descriptor_pb2.FieldDescriptorProto, prefix: str) -> str:
    if field.type == _Field.TYPE_MESSAGE:
        base = field.type_name.rsplit(".", 1)[-1].removeprefix(prefix)
    elif data_entry(field):
        base = "StrEntry" if field.type == _Field.TYPE_STRING else "Entry"
    else:
        base = _SCALARS.get(field.type, "int")
    if field.label == _Field.LABEL_REPEATED:
        return f"tuple[{base}, ...]"
    if field.proto3_optional or field.type == _Field.TYPE_MESSAGE:
        return f"{base} | None"
    return base


def _docstring(text: str, indent: str) -> str:
    text = " ".join(text.split()).replace('"', "'")
    lines = textwrap.wrap(text, 96 - len(indent) - 6) or [""]
    if len(lines) == 1:
        return f'{indent}"""{lines[0]}"""\n'
    body = "\n".join(f"{indent}{line}" if line else "" for line in lines[1:])
    return f'{indent}"""{lines[0]}\n{body}\n{indent}"""\n'


def _game_module(snake: str, prefix: str, proto: descriptor_pb2.FileDescriptorProto) -> str:
    game_id = snake.replace("_", "-")
    comments = _comments(proto)
    (move,) = (m for m in proto.message_type if m.name == f"{prefix}Move")
    kinds = {f.type_name.rsplit(".", 1)[-1]: f.name for f in move.field}
    out = [
        f'"""Typed views of {game_id} (proto/premiere/v1/{snake}.proto): its observation and\n'
        f"moves as frozen dataclasses. {GENERATED}\n"
        '"""\n\n'
        "from __future__ import annotations\n\n"
        "from dataclasses import dataclass\n"
        "from typing import ClassVar, TypeAlias\n\n"
    ]
    used = sorted(
        {
            "StrEntry" if f.type == _Field.TYPE_STRING else "Entry"
            for m in proto.message_type
            for f in m.field
            if data_entry(f)
        }
    )
    if used:
        out.append(f"from premiere_bot.entries import {', '.join(used)}\n\n")
    out.append(f'GAME = "{game_id}"\n')
    for index, message in enumerate(proto.message_type):
        if message.name == move.name:
            continue
        name = message.name.removeprefix(prefix)
        out.append("\n\n@dataclass(frozen=True, slots=True)\n")
        out.append(f"class {name}:\n")
        out.append(_docstring(comments.get((4, index), name), "    "))
        if message.name in kinds:
            kind = kinds[message.name].replace("_", "-")
            out.append(f'\n    kind: ClassVar[str] = "{kind}"\n')
        entries = {f.name: data_entry(f) for f in message.field if data_entry(f)}
        if entries:
            out.append(f"\n    DATA_ENTRIES: ClassVar[dict[str, str]] = {json.dumps(entries)}\n")
            out.append(
                '    """Fields naming entries of the game\'s data: field -> GameData table."""\n'
            )
        for number, field in enumerate(message.field):
            out.append(f"\n    {field.name}: {_python_type(field, prefix)}\n")
            text = comments.get((4, index, 2, number))
            if text:
                out.append(_docstring(text, "    "))
    moves = [m.removeprefix(prefix) for m in kinds]
    union = "Move: TypeAlias = " + " | ".join(moves)
    if len(union) > 100:
        union = "Move: TypeAlias = (\n    " + "\n    | ".join(moves) + "\n)"
    out.append(f"\n\n{union}\n")
    out.append('"""Any move of this game."""\n')
    out.append("\nMOVES: dict[str, type[Move]] = {\n")
    out.extend(f"    {name}.kind: {name},\n" for name in moves)
    out.append("}\n")
    return "".join(out)


def _registry(snakes: list[str]) -> str:
    out = [
        '"""Every game\'s typed views by game id, for `premiere_bot.typed`.\n'
        f'{GENERATED}\n"""\n\n'
        "from __future__ import annotations\n\n"
        "from typing import Any\n\n"
        "from premiere_bot import " + ", ".join(sorted(snakes)) + "\n\n"
        "OBSERVATIONS: dict[str, type[Any]] = {\n"
    ]
    out.extend(f"    {s}.GAME: {s}.Observation,\n" for s in snakes)
    out.append("}\n\nMOVES: dict[str, dict[str, type[Any]]] = {\n")
    out.extend(f"    {s}.GAME: {s}.MOVES,\n" for s in snakes)
    out.append("}\n")
    return "".join(out)


# --- writing -------------------------------------------------------------------------------


def is_generated(path: Path) -> bool:
    if path.is_file() and path.suffix == ".proto" and path.parent == NODE_PROTO:
        return True
    if not path.is_file() or path.suffix not in (".py", ".pyi"):
        return False
    if "_pb2" in path.name:
        return True
    with path.open() as file:
        return GENERATED in file.read(400)


def committed() -> dict[Path, str]:
    """Every generated file in the repository now."""
    return {
        path.relative_to(ROOT): path.read_text()
        for folder in (TARGET, SDK, NODE_PROTO)
        if folder.is_dir()
        for path in sorted(folder.iterdir())
        if is_generated(path)
    }


def write(files: dict[Path, str]) -> None:
    for stale in committed():
        if stale not in files:
            (ROOT / stale).unlink()
    for name, text in files.items():
        (ROOT / name).parent.mkdir(parents=True, exist_ok=True)
        (ROOT / name).write_text(text)


if __name__ == "__main__":
    write(generate())
    print(f"wrote {TARGET.relative_to(ROOT)} and the typed views in {SDK.relative_to(ROOT)}")
