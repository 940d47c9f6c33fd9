"""Each game's data (`GameData` of proto/premiere/v1/game_data.proto), built once from the
engine: its static description and what `Game.data` reads from the game's data file. The
arbiter serves it (GameDataService, and its digest in MatchStarted); the ladder serves the
same as JSON."""

from __future__ import annotations

import functools
import hashlib
from typing import Any

from google.protobuf import json_format

import games
from games.interface import Game, OptionSpec, OptionValue
from premiere_wire import game_data_pb2
from premiere_wire.convert import wire_field


def _text(value: OptionValue) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _option(spec: OptionSpec) -> game_data_pb2.GameOption:
    kind = {bool: "bool", int: "int", str: "string"}[type(spec.default)]
    ints = [int(v) for v in spec.choices] if kind == "int" else [0]
    return game_data_pb2.GameOption(
        name=spec.name,
        type=kind,
        default_value=_text(spec.default),
        values=[_text(v) for v in spec.choices],
        min=min(ints),
        max=max(ints),
        doc=spec.doc,
    )


def build(game: Game, data: Any = None) -> game_data_pb2.GameData:
    """The game's data with its digest; `data` (plain, as `Game.data` gives) replaces the
    engine's own, to show what another data file would give."""
    message = game_data_pb2.GameData(
        game=game.id,
        title=game.title,
        player_counts=list(game.player_counts),
        options=[_option(spec) for spec in game.options],
        reference_players=[
            game_data_pb2.ReferencePlayer(name=name, rating=rating)
            for name, rating in game.reference_players.items()
        ],
        version=game.data_version(),
    )
    plain = dict(game.data() if data is None else data)
    json_format.ParseDict(plain, getattr(message, wire_field(game.id)))
    message.digest = digest(message)
    return message


def digest(message: game_data_pb2.GameData) -> str:
    """SHA-256 of the message serialized deterministically with its digest left empty."""
    copy = game_data_pb2.GameData()
    copy.CopyFrom(message)
    copy.digest = ""
    return hashlib.sha256(copy.SerializeToString(deterministic=True)).hexdigest()


@functools.cache
def game_data(game_id: str) -> game_data_pb2.GameData:
    """The served data of a registered game (KeyError for an unknown id)."""
    return build(games.get(game_id))


def as_json(game_id: str) -> dict[str, Any]:
    """The same data as JSON, with proto field names and every field present."""
    return json_format.MessageToDict(
        game_data(game_id),
        preserving_proto_field_name=True,
        always_print_fields_with_no_presence=True,
    )
