"""Movie Tricks's data on the wire (GameData) is its data file, entry for entry, and its digest
changes with any change to that file (tests/wire/test_game_data.py checks what every game
shares)."""

from __future__ import annotations

import tomllib

from games.movie_tricks import cards as movie_tricks_cards
from games.movie_tricks import data as movie_tricks_data
from premiere.game_data import game_data
from premiere_wire import movie_tricks_pb2
from tests.wire.game_data_checks import assert_edit_changes_digest, data_file, edited_file


def check_served(served: movie_tricks_pb2.MovieTricksData) -> None:
    raw = data_file("games.movie_tricks", "cards.toml")
    assert list(served.suits) == [s["name"] for s in raw["suits"]]
    assert list(served.categories) == [c["name"] for c in raw["categories"]]
    entries = [*raw["playing"], *raw["start"], *raw["bonus"]]
    assert [c.code for c in served.cards] == [e["code"] for e in entries]
    assert [c.id for c in served.cards] == list(range(len(entries)))
    for card, entry in zip(served.cards, entries, strict=True):
        assert card.value == entry.get("value", 0)
        assert list(card.symbols) == entry.get("symbols", [])
        assert card.category == entry.get("category", "")
        assert card.suit == (
            entry.get("suit", "") if entry in raw["playing"] or "suit" in entry else ""
        )
        assert (card.blue, card.duplicate) == (
            entry.get("blue", False),
            entry.get("duplicate", False),
        )
    assert [(g.need, g.stars) for g in served.goals] == [
        (g["need"], g["stars"]) for g in raw["goals"]
    ]
    assert list(served.roles_points) == raw["roles"]["points"]
    assert [(s.players, s.deal, s.market) for s in served.setup] == [
        (s["players"], s["deal"], s["market"]) for s in raw["setup"]
    ]
    assert list(served.rules.die) == raw["rules"]["die"]
    assert served.rules.bang_points == raw["rules"]["bang_points"]


def test_the_served_data_is_the_data_file() -> None:
    check_served(game_data("movie-tricks").movie_tricks)


def test_a_change_to_the_data_file_changes_the_digest() -> None:
    assert_edit_changes_digest(
        "movie-tricks",
        lambda: movie_tricks_data.describe(
            movie_tricks_cards.parse(
                tomllib.loads(
                    edited_file(
                        "games.movie_tricks",
                        "cards.toml",
                        'symbols = ["hat", "pistol"]',
                        'symbols = ["hat", "ring"]',
                    )
                )
            )
        ),
    )
