"""What each game's own test of its data on the wire (tests/<game>/test_game_data.py) reads
its data file with, and how it shows that an edit to that file changes the digest."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any

import games
from premiere.game_data import build, game_data


def data_file(package: str, name: str) -> dict[str, Any]:
    """A game's data file as parsed TOML."""
    return tomllib.loads(resources.files(package).joinpath(name).read_text("utf-8"))


def edited_file(package: str, name: str, old: str, new: str) -> str:
    """The game's data file with one entry changed, as an owner of the game would edit it."""
    text = resources.files(package).joinpath(name).read_text("utf-8")
    assert text.count(old) >= 1, old
    return text.replace(old, new, 1)


def assert_edit_changes_digest(game_id: str, edited: Callable[[], Mapping[str, Any]]) -> None:
    """``edited()`` (the game's description read from an edited data file) gives another
    digest than the served one, the same each time it is built."""
    game = games.get(game_id)
    assert build(game).digest == game_data(game_id).digest
    changed = build(game, edited())
    assert changed.digest != game_data(game_id).digest
    assert changed.digest == build(game, edited()).digest
