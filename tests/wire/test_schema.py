"""One schema source per game: each game's observation, move and data messages live in its own
.proto file, proto/games.toml pins the field number of every game in the shared oneofs, and the
engines' Python views and moves are their messages field for field."""

from __future__ import annotations

import dataclasses
import tomllib
import types
import typing
from pathlib import Path
from typing import Any

import pytest
from google.protobuf.descriptor import Descriptor, FieldDescriptor

from games import all_games
from games.interface import Game
from premiere_wire import game_data_pb2, game_pb2, magic_trick_pb2
from server.codec import kind_field, wire_field
from tests.wire.test_proto_lint import PROTO_ROOT, load_generator

TABLE = PROTO_ROOT / "games.toml"


def pinned() -> list[dict[str, Any]]:
    return list(tomllib.loads(TABLE.read_text())["game"])


def oneof_numbers(message: Descriptor, oneof: str) -> dict[str, int]:
    return {field.name: field.number for field in message.oneofs_by_name[oneof].fields}


def test_the_shared_oneofs_carry_the_pinned_numbers() -> None:
    """The wire the clients and stored matches use: game.proto's two oneofs and GameData's
    have exactly the table's fields, at the table's numbers."""
    live = [game for game in pinned() if not game.get("retired")]
    numbers = {game["id"].replace("-", "_"): game["number"] for game in live}
    data_numbers = {game["id"].replace("-", "_"): game["data_number"] for game in live}
    assert oneof_numbers(game_pb2.Observation.DESCRIPTOR, "game") == numbers
    assert oneof_numbers(game_pb2.Move.DESCRIPTOR, "game") == numbers
    assert oneof_numbers(game_data_pb2.GameData.DESCRIPTOR, "game_data") == data_numbers


def test_the_numbers_of_todays_games_never_move() -> None:
    """The numbers the five first games shipped with: a table edit that moved one would break
    every client and every stored match."""
    shipped = {
        "movie-tricks": (1, 10),
        "magic-trick": (2, 11),
        "movie-trailer": (3, 12),
        "motion-pictures": (4, 13),
        "movie-fight": (5, 14),
    }
    table = {game["id"]: (game["number"], game["data_number"]) for game in pinned()}
    assert {game: table.get(game) for game in shipped} == shipped


def test_every_registered_game_is_pinned_and_every_pinned_game_registered() -> None:
    live = {game["id"] for game in pinned() if not game.get("retired")}
    assert live == {game.id for game in all_games()}


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_each_game_messages_live_in_its_own_file(game: Game) -> None:
    field = wire_field(game.id)
    own = f"premiere/v1/{field}.proto"
    observation = game_pb2.Observation.DESCRIPTOR.fields_by_name[field].message_type
    move = game_pb2.Move.DESCRIPTOR.fields_by_name[field].message_type
    data = game_data_pb2.GameData.DESCRIPTOR.fields_by_name[field].message_type
    assert observation is not None and move is not None and data is not None
    assert {observation.file.name, move.file.name, data.file.name} == {own}


def test_the_generator_refuses_a_table_that_reuses_a_number(tmp_path: Path) -> None:
    generator = load_generator()
    table = tmp_path / "games.toml"
    table.write_text(
        TABLE.read_text()
        + '\n[[game]]\nid = "copy-cat"\ntitle = "Copy Cat"\nnumber = 3\ndata_number = 15\n'
    )
    with pytest.raises(SystemExit, match="number used twice: 3"):
        generator.pinned(table)


def test_the_generator_refuses_a_game_without_its_data_message(tmp_path: Path) -> None:
    generator = load_generator()
    sources = tmp_path / "premiere" / "v1"
    sources.mkdir(parents=True)
    for proto in (PROTO_ROOT / "premiere" / "v1").glob("*.proto"):
        text = proto.read_text()
        if proto.name == "magic_trick.proto":
            text = text.replace("message MagicTrickData {", "message MagicTrickMaterial {")
        (sources / proto.name).write_text(text)
    with pytest.raises(SystemExit, match="declares no message MagicTrickData"):
        generator.generate(sources, TABLE)


# --- the Python views and moves against their messages --------------------------------------


def _is_record(hint: Any) -> bool:
    """A dataclass or a named tuple: what a message becomes in Python."""
    return isinstance(hint, type) and (dataclasses.is_dataclass(hint) or hasattr(hint, "_fields"))


def _record_fields(cls: type) -> list[str]:
    if dataclasses.is_dataclass(cls):
        return [f.name for f in dataclasses.fields(cls)]
    fields: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
    return list(fields)


def _present(hint: Any) -> Any:
    """`X | None` -> X."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        (inner,) = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        return inner
    return hint


def _field(hint: Any, field: FieldDescriptor, path: str) -> list[str]:
    hint = _present(hint)
    sequence = typing.get_origin(hint) is tuple
    if field.is_repeated != sequence:
        return [f"{path}: repeated={field.is_repeated} but Python {hint}"]
    element = typing.get_args(hint)[0] if sequence else hint
    if field.type != FieldDescriptor.TYPE_MESSAGE:
        if _is_record(element) or typing.get_origin(element) is tuple:
            return [f"{path}: Python {hint} but a scalar on the wire"]
        return []
    assert field.message_type is not None
    return _element(element, field.message_type, path)


def _element(hint: Any, message: Descriptor, path: str) -> list[str]:
    """A message against a record, or a tuple against a message wrapping one repeated field
    (how a tuple of tuples crosses the wire)."""
    if _is_record(hint):
        return mismatches(hint, message, path)
    if typing.get_origin(hint) is tuple and len(message.fields) == 1:
        (inner,) = message.fields
        return _field(hint, inner, f"{path}.{inner.name}")
    return [f"{path}: {message.full_name} but Python {hint}"]


def mismatches(cls: type, message: Descriptor, path: str) -> list[str]:
    """Where the record `cls` and `message` differ, at any depth: a field on one side only, a
    message against a scalar, a repeated field against a single value."""
    hints = typing.get_type_hints(cls)
    names = _record_fields(cls)
    found = [
        f"{path}.{name}: only in {'Python' if name in names else message.full_name}"
        for name in sorted(set(names) ^ set(message.fields_by_name))
    ]
    for name in names:
        if name in message.fields_by_name:
            found.extend(_field(hints[name], message.fields_by_name[name], f"{path}.{name}"))
    return found


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_the_game_views_match_its_observation_message(game: Game) -> None:
    state = game.new(game.player_counts[0], "schema")
    message = game_pb2.Observation.DESCRIPTOR.fields_by_name[wire_field(game.id)].message_type
    assert message is not None
    for view in (state.observe(0), state.spectate()):
        assert mismatches(type(view), message, type(view).__name__) == []


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_the_game_moves_match_its_move_message(game: Game) -> None:
    message = game_pb2.Move.DESCRIPTOR.fields_by_name[wire_field(game.id)].message_type
    assert message is not None
    kinds = message.oneofs_by_name["kind"].fields
    assert {kind_field(cls.kind) for cls in game.move_types} == {f.name for f in kinds}
    for cls in game.move_types:
        kind = message.fields_by_name[kind_field(cls.kind)].message_type
        assert kind is not None
        assert mismatches(cls, kind, cls.__name__) == []


@dataclasses.dataclass(frozen=True)
class Slot:
    suit: str
    rank: int | None
    colour: str


@dataclasses.dataclass(frozen=True)
class Fan:
    slots: tuple[Slot, ...]


@dataclasses.dataclass(frozen=True)
class Play:
    seat: tuple[int, ...]
    slot: int
    card: str


def test_a_mismatch_is_found() -> None:
    """The comparison sees a field on one side only, down a nested message, a repeated field
    against a single value and a message against a scalar."""
    found = mismatches(Fan, magic_trick_pb2.MagicTrickFan.DESCRIPTOR, "Fan")
    assert found == [
        "Fan.slots.colour: only in Python",
        "Fan.slots.place: only in premiere.v1.MagicTrickSlot",
    ]
    assert mismatches(Play, magic_trick_pb2.MagicTrickPlay.DESCRIPTOR, "Play") == [
        "Play.seat: repeated=False but Python tuple[int, ...]",
        "Play.card: premiere.v1.MagicTrickCard but Python <class 'str'>",
    ]
