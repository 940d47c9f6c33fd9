"""Numbers and ids of observations and moves resolved to what they name in the game's data.

A field of an observation or a move that names a card, a tile or a film (its proto field has
the `data_entry` option) is read as an `Entry` (an int) or a `StrEntry` (a str): equal to,
hashed and sent back as the plain value, with the named entry's fields as attributes, e.g.
``observation.offer[0].genres`` for a Movie Fight card. The entries are the messages of the
game's `GameData` (``premiere_wire.game_data_pb2``), which the SDK fetches from the arbiter once
per data digest (`MatchStarted.game_data_digest`) and registers here.
"""

from __future__ import annotations

from typing import Any

from premiere_wire import game_data_pb2

_DATA: dict[str, game_data_pb2.GameData] = {}
_INDEX: dict[tuple[str, str], dict[Any, Any]] = {}


class Entry(int):
    """A number naming an entry of the game's data; its attributes are the entry's fields."""

    entry: Any

    def __new__(cls, value: int, entry: Any = None) -> Entry:
        made = super().__new__(cls, value)
        made.entry = entry
        return made

    def __getattr__(self, name: str) -> Any:
        entry = self.__dict__.get("entry")
        if entry is None:
            raise AttributeError(f"{int(self)} names nothing in the game data known here ({name})")
        return getattr(entry, name)

    def __repr__(self) -> str:
        return int.__repr__(self)


class StrEntry(str):
    """An id naming an entry of the game's data; its attributes are the entry's fields."""

    entry: Any

    def __new__(cls, value: str, entry: Any = None) -> StrEntry:
        made = super().__new__(cls, value)
        made.entry = entry
        return made

    def __getattr__(self, name: str) -> Any:
        entry = self.__dict__.get("entry")
        if entry is None:
            raise AttributeError(
                f"{str(self)!r} names nothing in the game data known here ({name})"
            )
        return getattr(entry, name)

    def __repr__(self) -> str:
        return str.__repr__(self)


def register(data: game_data_pb2.GameData) -> None:
    """Use `data` for its game from now on."""
    field = data.WhichOneof("game_data")
    _DATA[data.game] = data
    for key in [key for key in _INDEX if key[0] == data.game]:
        del _INDEX[key]
    if field is None:
        return
    own = getattr(data, field)
    for table in own.DESCRIPTOR.fields:
        if not table.is_repeated or table.message_type is None:
            continue
        names = table.message_type.fields_by_name
        by = "number" if "number" in names else "id" if "id" in names else None
        if by is not None:
            _INDEX[data.game, table.name] = {getattr(e, by): e for e in getattr(own, table.name)}


def known(game: str, digest: str) -> bool:
    """Whether the data registered for `game` has this digest."""
    data = _DATA.get(game)
    return data is not None and data.digest == digest


def data(game: str) -> game_data_pb2.GameData | None:
    """The data registered for `game`, if any."""
    return _DATA.get(game)


def lookup(game: str, table: str, key: Any) -> Any:
    """The entry of `table` keyed `key` (None when unknown)."""
    index = _INDEX.get((game, table))
    return None if index is None else index.get(key)
