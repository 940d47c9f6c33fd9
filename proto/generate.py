"""Generate the shared protocol files and the code of every client from proto/.

A game's schema is one file, `proto/premiere/v1/<game>.proto` (its observation, move and data
messages); `proto/games.toml` pins each game's field numbers. `make proto` writes:

- the shared oneofs: `game.proto` (Observation and Move, one field per game) whole, and the
  lines between `BEGIN games` and `END games` of `game_data.proto` (its imports and the
  GameData.game_data oneof), from the table. It refuses a table whose numbers collide or a
  game whose file lacks one of its three messages.
- the wire code (messages, gRPC stubs, type stubs) into the wire package, `wire/premiere_wire`
  (distribution `premiere-wire`), which both the arbiter and the bot SDK depend on. protoc
  writes absolute imports (`from premiere.v1 import ...`) that follow the .proto layout; they
  are rewritten to relative ones so the code lives inside that package. Only `*_pb2*` files are
  generated there: the package's hand-written modules (`__init__.py`, `convert.py`) stay.
- the typed views of the bot SDK: one module per game in `clients/python/premiere_bot/`
  (`magic_trick.py`, ...) holding a frozen dataclass per message of that game's .proto that an
  observation or a move holds (named without the game's prefix, documented with the proto's
  comments; the game's data messages are left to `premiere_bot.entries`), and `views.py`, which maps
  game ids to their observation class and move classes. `premiere_bot.typed` decodes requests
  into them. A field with the `data_entry` option (data_entry.proto) is typed `Entry` or
  `StrEntry` and its class lists it in `DATA_ENTRIES`, so `typed` resolves it to the game's
  served data (`premiere_bot.entries`).
- a copy of the .proto files into `clients/node/proto`, so the Node bot works outside this
  repository (its package carries them).
- the Go client's typed data accessors (`clients/go/gamedata_tables.go`): per game, per table
  of its data keyed by `number` or `id`, a method returning that table's entry.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import tomllib
from dataclasses import dataclass
from pathlib import Path

from google.protobuf import descriptor_pb2

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
SOURCES = PROTO_ROOT / "premiere" / "v1"
TARGET = ROOT / "wire" / "premiere_wire"
SDK = ROOT / "clients" / "python" / "premiere_bot"
NODE_PROTO = ROOT / "clients" / "node" / "proto" / "premiere" / "v1"
GO_TABLES = ROOT / "clients" / "go" / "gamedata_tables.go"
TABLE = PROTO_ROOT / "games.toml"
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


# --- the shared oneofs ---------------------------------------------------------------------


@dataclass(frozen=True)
class PinnedGame:
    """One line of proto/games.toml."""

    id: str
    title: str
    number: int
    data_number: int
    retired: bool = False

    @property
    def snake(self) -> str:
        return self.id.replace("-", "_")

    @property
    def prefix(self) -> str:
        return _camel(self.snake)


def pinned(table: Path = TABLE) -> list[PinnedGame]:
    """The table's games, checked: ids, numbers and data numbers each used once."""
    games = [PinnedGame(**entry) for entry in tomllib.loads(table.read_text())["game"]]
    for name in ("id", "number", "data_number"):
        values = [getattr(game, name) for game in games]
        twice = sorted({str(v) for v in values if values.count(v) > 1})
        if twice:
            raise SystemExit(f"{table}: {name} used twice: {', '.join(twice)}")
    if any(game.number < 1 or game.data_number <= 7 for game in games):
        raise SystemExit(f"{table}: numbers start at 1, data numbers above GameData's own (7)")
    return sorted(games, key=lambda game: game.number)


_BEGIN = "// BEGIN games: written by `make proto` from proto/games.toml\n"
_END = "// END games\n"


def _oneof(message: str, what: str, games: list[PinnedGame], suffix: str) -> str:
    live = [game for game in games if not game.retired]
    out = [f"// {what} The field set names the game.\nmessage {message} {{\n"]
    for game in games:
        if game.retired:
            out.append(f'  reserved {game.number};\n  reserved "{game.snake}";\n')
    out.append(f"  // Exactly one game's {suffix.lower()}.\n  oneof game {{\n")
    for game in sorted(live, key=lambda g: g.number):
        out.append(f'    // {game.title} (game id "{game.id}").\n')
        out.append(f"    {game.prefix}{suffix} {game.snake} = {game.number};\n")
    out.append("  }\n}\n")
    return "".join(out)


def game_proto(games: list[PinnedGame]) -> str:
    """game.proto: the envelopes of observations and moves, one field per game."""
    return (
        f"// {GENERATED_FROM_TABLE}\n"
        'syntax = "proto3";\n\npackage premiere.v1;\n\n'
        f"{_imports(games)}\n"
        + _oneof("Observation", "What one seat may know, typed per game.", games, "Observation")
        + "\n"
        + _oneof("Move", "One decision, typed per game.", games, "Move")
    )


GENERATED_FROM_TABLE = (
    "Generated from proto/games.toml by `make proto` (proto/generate.py). Do not edit."
)


def _imports(games: list[PinnedGame]) -> str:
    snakes = sorted(game.snake for game in games if not game.retired)
    return "".join(f'import "premiere/v1/{snake}.proto";\n' for snake in snakes)


def _region(text: str, indent: str, body: str, name: str) -> str:
    begin, end = indent + _BEGIN, indent + _END
    start = text.find(begin)
    stop = text.find(end, start + len(begin))
    if start < 0 or stop < 0:
        where = f"at indent {indent!r}"
        raise SystemExit(f"{name}: no `{_BEGIN.strip()}` ... `{_END.strip()}` lines {where}")
    return text[: start + len(begin)] + body + text[stop:]


def game_data_proto(text: str, games: list[PinnedGame]) -> str:
    """game_data.proto with its generated lines (the games' imports, the game_data oneof)
    rewritten from the table; every other line is hand-written."""
    live = [game for game in games if not game.retired]
    fields = "".join(
        f'    // {g.title} (game id "{g.id}").\n    {g.prefix}Data {g.snake} = {g.data_number};\n'
        for g in sorted(live, key=lambda g: g.data_number)
    )
    text = _region(text, "", _imports(games), "game_data.proto")
    return _region(text, "    ", fields, "game_data.proto")


def shared_protos(sources: Path, games: list[PinnedGame]) -> dict[str, str]:
    """The generated .proto files by name, after checking each game's file has its three
    messages."""
    for game in games:
        if game.retired:
            continue
        path = sources / f"{game.snake}.proto"
        if not path.is_file():
            raise SystemExit(f"{game.id} is in the table but {path} is missing")
        declared = set(re.findall(r"^message (\w+)", path.read_text(), re.MULTILINE))
        for suffix in ("Observation", "Move", "Data"):
            if f"{game.prefix}{suffix}" not in declared:
                raise SystemExit(f"{path.name} declares no message {game.prefix}{suffix}")
    return {
        "game.proto": game_proto(games),
        "game_data.proto": game_data_proto((sources / "game_data.proto").read_text(), games),
    }


# --- protoc --------------------------------------------------------------------------------


def generate(sources: Path = SOURCES, table: Path = TABLE) -> dict[Path, str]:
    """Every generated file (its path under the repository root) and its text. `sources` and
    `table` may name another protocol folder and table (a test adds a game that way)."""
    games = pinned(table)
    shared = shared_protos(sources, games)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "proto"
        folder = root / "premiere" / "v1"
        folder.mkdir(parents=True)
        texts = {p.name: p.read_text() for p in sorted(sources.glob("*.proto"))} | shared
        for name, text in texts.items():
            (folder / name).write_text(text)
        protos = sorted(f"premiere/v1/{name}" for name in texts)
        descriptors = Path(tmp) / "descriptors.pb"
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "grpc_tools.protoc",
                f"-I{root}",
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
            cwd=root,
            capture_output=True,
            text=True,
        )
        if done.returncode:
            raise SystemExit(f"protoc failed:\n{done.stderr}")
        out = Path(tmp) / "premiere" / "v1"
        files: dict[Path, str] = {}
        with_services = {Path(n).stem for n, text in texts.items() if "\nservice " in text}
        for path in sorted(out.iterdir()):
            text = path.read_text()
            stem = path.name.split("_pb2")[0]
            if "_grpc." in path.name and stem not in with_services:
                continue
            files[(TARGET / path.name).relative_to(ROOT)] = _ABSOLUTE.sub("from . import ", text)
        found = descriptor_pb2.FileDescriptorSet.FromString(descriptors.read_bytes())
    for name, text in shared.items():
        files[(SOURCES / name).relative_to(ROOT)] = text
    for name, text in typed_views(found).items():
        files[(SDK / name).relative_to(ROOT)] = text
    for name, text in texts.items():
        files[(NODE_PROTO / name).relative_to(ROOT)] = text
    files[GO_TABLES.relative_to(ROOT)] = go_tables(found, games)
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


def _reachable(proto: descriptor_pb2.FileDescriptorProto, *roots: str) -> set[str]:
    """The names of the file's messages an observation or a move holds, at any depth (not
    the game's data messages)."""
    by_name = {message.name: message for message in proto.message_type}
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen or name not in by_name:
            continue
        seen.add(name)
        todo.extend(
            f.type_name.rsplit(".", 1)[-1]
            for f in by_name[name].field
            if f.type == _Field.TYPE_MESSAGE
        )
    return seen


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
    seen = _reachable(proto, f"{prefix}Observation", move.name)
    for index, message in enumerate(proto.message_type):
        if message.name == move.name or message.name not in seen:
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
        '"""Every game\'s typed views by game id, for `premiere_bot.typed`: a game\'s module is\n'
        "imported when its first request is read, so a bot does not start by building the\n"
        "dataclasses of games it never plays (tens of milliseconds of a hosted bot's start).\n"
        f'{GENERATED}\n"""\n\n'
        "from __future__ import annotations\n\n"
        "import importlib\n"
        "from types import ModuleType\n\n"
        "MODULES: dict[str, str] = {\n"
    ]
    out.extend(f'    "{s.replace("_", "-")}": "premiere_bot.{s}",\n' for s in snakes)
    out.append(
        "}\n\n_LOADED: dict[str, ModuleType] = {}\n\n\n"
        "def module(game: str) -> ModuleType | None:\n"
        '    """The typed views of `game` (its `Observation`, its `MOVES`); None for a game this\n'
        '    SDK does not know."""\n'
        "    loaded = _LOADED.get(game)\n"
        "    if loaded is None and game in MODULES:\n"
        "        loaded = _LOADED[game] = importlib.import_module(MODULES[game])\n"
        "    return loaded\n"
    )
    return "".join(out)


# --- Go data accessors ---------------------------------------------------------------------

_GO_KEYS = {_Field.TYPE_INT32: "int32", _Field.TYPE_STRING: "string"}


def go_tables(found: descriptor_pb2.FileDescriptorSet, games: list[PinnedGame]) -> str:
    """clients/go/gamedata_tables.go: for every table of a game's data whose entries are keyed
    by `number` or `id`, a typed method over `GameData.Entry`."""
    messages = {
        f".{proto.package}.{message.name}": message
        for proto in found.file
        for message in proto.message_type
    }
    out = [
        "// Code generated by proto/generate.py from proto/premiere/v1 (`make proto`). "
        "DO NOT EDIT.\n\n"
        "package main\n\n"
        'import pb "premiere/v1"\n'
    ]
    for game in games:
        if game.retired:
            continue
        data = messages[f".premiere.v1.{game.prefix}Data"]
        for field in data.field:
            if field.label != _Field.LABEL_REPEATED or field.type != _Field.TYPE_MESSAGE:
                continue
            entry = messages[field.type_name]
            keys = [f for f in entry.field if f.name in ("number", "id") and f.type in _GO_KEYS]
            if not keys:
                continue
            key = keys[0]
            kind = entry.name
            method = f"{game.prefix}{_camel(field.name)}"
            out.append(
                f"\n// {method} is the entry of {data.name}.{field.name} whose {key.name} is given "
                f"(nil if none).\n"
                f"func (d *GameData) {method}({key.name} {_GO_KEYS[key.type]}) *pb.{kind} {{\n"
                f'\tentry, _ := d.Entry("{field.name}", {key.name}).(*pb.{kind})\n'
                "\treturn entry\n"
                "}\n"
            )
    return "".join(out)


# --- writing -------------------------------------------------------------------------------


def is_generated(path: Path) -> bool:
    if path.is_file() and path.suffix == ".proto" and path.parent == NODE_PROTO:
        return True
    if path.is_file() and path.parent == SOURCES:
        return path.name in ("game.proto", "game_data.proto")
    if path == GO_TABLES:
        return path.is_file()
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
        for folder in (TARGET, SDK, NODE_PROTO, SOURCES)
        if folder.is_dir()
        for path in sorted(folder.iterdir())
        if is_generated(path)
    } | ({GO_TABLES.relative_to(ROOT): GO_TABLES.read_text()} if is_generated(GO_TABLES) else {})


def write(files: dict[Path, str]) -> None:
    for stale in committed():
        if stale not in files:
            (ROOT / stale).unlink()
    for name, text in files.items():
        (ROOT / name).parent.mkdir(parents=True, exist_ok=True)
        (ROOT / name).write_text(text)


if __name__ == "__main__":
    write(generate())
    print(
        f"wrote the shared oneofs in {SOURCES.relative_to(ROOT)}, {TARGET.relative_to(ROOT)}, "
        f"the typed views in {SDK.relative_to(ROOT)} and {GO_TABLES.relative_to(ROOT)}"
    )
