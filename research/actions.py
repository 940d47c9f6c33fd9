"""A game's fixed action universe: every move it can ever offer, numbered once.

The universe is enumerated from the move types alone: for each type in `Game.move_types`
order, every combination of its fields' values (`games.values.Among` on the field, or both
truth values of a ``bool``), in field order, the last field varying fastest. It is the same
at every table and with every option, so a policy trained at one table reads the ids of
another; a move that is never legal at some table is simply never in its legal actions.
"""

from __future__ import annotations

import functools
import itertools
import json
import typing
from collections.abc import Sequence
from typing import Any

from games import registry
from games.interface import Game
from games.values import Among, field_domains, to_plain


class ActionSpace:
    """The numbered moves of one game: `move` and `id` are inverse over the universe."""

    def __init__(self, game: Game) -> None:
        self.game = game
        moves: list[Any] = []
        for cls in game.move_types:
            fields = field_domains(cls)
            names = list(fields)
            domains = [_values(game, cls, name, among) for name, among in fields.items()]
            for combo in itertools.product(*domains):
                moves.append(cls(**dict(zip(names, combo, strict=True))))
        self.moves: tuple[Any, ...] = tuple(moves)
        self._ids: dict[Any, int] = {move: index for index, move in enumerate(moves)}
        self._by_object: dict[int, int] = {}
        """Action ids by the `id` of move objects met; each object is kept alive in `_kept`
        while it is a key, so no other object can take its `id`."""
        self._kept: dict[int, Any] = {}
        self._tuples: dict[int, tuple[Sequence[Any], list[int]]] = {}
        self._seen: list[Any] = list(moves)
        self._texts: dict[int, str] = {}
        if len(self._ids) != len(moves):
            raise ValueError(f"{game.id}: the move types enumerate some move twice")

    def __deepcopy__(self, memo: dict[int, Any]) -> ActionSpace:
        """Immutable: shared by every copy of a state."""
        return self

    def __len__(self) -> int:
        return len(self.moves)

    def id(self, move: Any) -> int:
        """The action id of a move; KeyError for a move outside the universe."""
        try:
            return self._ids[move]
        except KeyError:
            raise KeyError(f"{self.game.id}: {move!r} is outside the action universe") from None

    def _id_of(self, move: Any) -> int:
        """`id`, remembering the move object by identity (engines hand out the same move
        objects again: a lookup by `id` is cheaper than hashing a dataclass)."""
        action = self._ids[move]
        if len(self._by_object) >= 1 << 16:
            self._by_object.clear()
            self._kept.clear()
        self._by_object[id(move)] = action
        self._kept[id(move)] = move
        self._seen[action] = move
        return action

    def move(self, action: int) -> Any:
        """The move of an action id: the engine's own object for it when one has been seen (an
        engine recognises its own move objects fastest), an equal one otherwise."""
        if not 0 <= action < len(self.moves):
            raise IndexError(f"{self.game.id}: no action {action} (there are {len(self.moves)})")
        return self._seen[action]

    def text(self, action: int) -> str:
        """An action's move as sorted JSON of its plain values (OpenSpiel's action string)."""
        found = self._texts.get(action)
        if found is None:
            found = self._texts[action] = json.dumps(to_plain(self.move(action)), sort_keys=True)
        return found

    def ids(self, moves: Sequence[Any]) -> list[int]:
        """The ids of some moves, ascending (OpenSpiel's order of legal actions). Engines hand
        out the same tuple of legal moves again (in every state where they are the same), so
        the ids of tuples met are remembered by identity; move objects met before are looked
        up by identity too, without a Python call per move. The list may be shared: read it,
        do not change it."""
        known = self._tuples.get(id(moves))
        if known is not None and known[0] is moves:
            return known[1]
        try:
            found = list(map(self._by_object.__getitem__, map(id, moves)))
        except KeyError:
            found = list(map(self._id_of, moves))
        found.sort()
        if len(self._tuples) >= 64:
            self._tuples.clear()
        self._tuples[id(moves)] = (moves, found)
        return found


@functools.cache
def action_space(game_id: str) -> ActionSpace:
    return ActionSpace(registry.get(game_id))


def _values(game: Game, cls: type[Any], name: str, among: Among | None) -> tuple[Any, ...]:
    kind = _base_type(typing.get_type_hints(cls)[name])
    if among is None:
        if kind is bool:
            return (False, True)
        raise TypeError(f"{game.id}: {cls.__name__}.{name} declares no values (games.values.Among)")
    if among.label is None:
        return tuple(among.values)
    ids = game.labels()[among.label]
    return tuple(sorted(kind(key) for key in ids))


def _base_type(hint: Any) -> type[Any]:
    if isinstance(hint, type):
        return hint
    raise TypeError(f"a move field of type {hint!r} cannot be enumerated")


def describe(game: Game) -> list[tuple[str, int, int]]:
    """Per move type: its kind, its first action id and how many ids it holds."""
    rows: list[tuple[str, int, int]] = []
    start = 0
    for cls in game.move_types:
        fields = field_domains(cls)
        count = 1
        for name, among in fields.items():
            count *= len(_values(game, cls, name, among))
        rows.append((str(cls.kind), start, count))
        start += count
    return rows
