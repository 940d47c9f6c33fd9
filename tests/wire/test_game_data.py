"""The games' data on the wire (GameData) describes each registered game; each game's own tests
(tests/<game>/test_game_data.py) hold it to that game's data file, entry for entry, and show
that its digest changes with any change to it."""

from __future__ import annotations

from pathlib import Path

import pytest
from google.protobuf import json_format

import games
from premiere.game_data import as_json, build, game_data
from premiere_wire import game_data_pb2

TESTS = Path(__file__).resolve().parents[1]


def test_every_game_has_its_data_checked() -> None:
    """Each registered game checks its served data against its data file (or its engine's
    constants) in its own tests: tests/<game>/test_game_data.py."""
    for game in games.all_games():
        package = type(game).__module__.split(".")[1]
        assert (TESTS / package / "test_game_data.py").is_file(), game.id


@pytest.mark.parametrize("game_id", games.ids())
def test_the_served_data_describes_the_game(game_id: str) -> None:
    game = games.get(game_id)
    served = game_data(game_id)
    assert (served.game, served.title) == (game.id, game.title)
    assert list(served.player_counts) == list(game.player_counts)
    assert [o.name for o in served.options] == [spec.name for spec in game.options]
    assert {p.name: p.rating for p in served.reference_players} == dict(game.reference_players)
    assert served.WhichOneof("game_data") == game_id.replace("-", "_")
    # The JSON form is the same message.
    again = json_format.ParseDict(as_json(game_id), game_data_pb2.GameData())
    assert again == served


def test_options_carry_their_ranges() -> None:
    (level,) = [o for o in game_data("movie-fight").options if o.name == "level"]
    assert (level.type, level.default_value, level.min, level.max) == ("int", "1", 1, 4)
    (speed,) = [o for o in game_data("movie-trailer").options if o.name == "speed"]
    assert (speed.type, list(speed.values)) == ("bool", ["false", "true"])


def test_the_digest_covers_the_description_too() -> None:
    game = games.get("magic-trick")
    plain = dict(game.data(), prestige_points=3)
    assert build(game, plain).digest != game_data("magic-trick").digest
