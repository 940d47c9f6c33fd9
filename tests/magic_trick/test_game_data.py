"""Magic Trick's data on the wire (GameData) is the engine's constants (it has no data file;
tests/wire/test_game_data.py checks what every game shares)."""

from __future__ import annotations

from games.magic_trick import cards as magic_trick_cards
from premiere.game_data import game_data
from premiere_wire import magic_trick_pb2


def check_served(served: magic_trick_pb2.MagicTrickData) -> None:
    """Magic Trick has no data file: its figures are the engine's constants."""
    assert list(served.suits) == list(magic_trick_cards.SUITS) and served.trump == "red"
    assert list(served.ranks) == list(magic_trick_cards.RANKS)
    assert {d.players: d.hand_size for d in served.deals} == magic_trick_cards.HAND_SIZE


def test_the_served_data_is_the_engines_constants() -> None:
    check_served(game_data("magic-trick").magic_trick)
