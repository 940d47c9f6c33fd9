"""Movie Fight's data on the wire (GameData) is its data file, entry for entry, and its digest
changes with any change to that file (tests/wire/test_game_data.py checks what every game
shares)."""

from __future__ import annotations

import tomllib

from games.movie_fight import cards as movie_fight_cards
from games.movie_fight import data as movie_fight_data
from premiere.game_data import game_data
from premiere_wire import movie_fight_pb2
from tests.wire.game_data_checks import assert_edit_changes_digest, data_file, edited_file


def check_served(served: movie_fight_pb2.MovieFightData) -> None:
    raw = data_file("games.movie_fight", "cards.toml")
    assert list(served.genres) == raw["genres"] and list(served.equipment) == raw["equipment"]
    assert (served.rounds, served.offer) == (raw["rounds"], raw["offer"])
    assert [c.number for c in served.cards] == [c["number"] for c in raw["card"]]
    for card, entry in zip(served.cards, raw["card"], strict=True):
        assert card.viewer == entry["viewer"]
        assert list(card.genres) == entry["genres"]
        assert list(card.equipment) == entry["equipment"]
        assert (card.tickets, card.points) == (entry["tickets"], entry["points"])
        requirement = entry["requirement"]
        assert card.requirement.kind == requirement["kind"]
        assert [[t.threshold, t.points] for t in card.requirement.tiers] == requirement["tiers"]
        assert card.requirement.genre == requirement.get("genre", "")
        assert list(card.requirement.genres) == requirement.get("genres", [])
        for bar, raw_bar in (
            (card.audience_bar, entry["audience_bar"]),
            (card.screen_bar, entry["screen_bar"]),
        ):
            assert list(bar.genres) == raw_bar.get("genres", [])
            assert list(bar.equipment) == raw_bar.get("equipment", [])
            assert (bar.tickets, bar.points) == (
                raw_bar.get("tickets", 0),
                raw_bar.get("points", 0),
            )
        assert card.effect.kind == entry["effect"]["kind"]
        assert card.effect.side == entry["effect"].get("side", "any")
        assert card.effect.group == entry["effect"].get("group", False)
    for tile, entry in zip(served.tiles, raw["tile"], strict=True):
        assert tile.number == entry["number"]
        assert (tile.a_points, tile.b_points) == (entry["a_points"], entry["b_points"])
        for side in ("a", "b"):
            conditions = getattr(tile, side)
            assert [c.kind for c in conditions] == [c["kind"] for c in entry[side]]
            assert [c.tiers[0].threshold for c in conditions] == [
                c.get("n", 1) for c in entry[side]
            ]
    goals = raw["goals"]
    assert list(served.goals.equipment) == goals["equipment"]
    assert list(served.goals.viewers) == goals["viewers"]
    assert list(served.goals.tickets_large) == goals["tickets_large"]
    levels = raw["automa"]["levels"]
    assert [(v.level, v.points, v.tickets) for v in served.automa_levels] == [
        (e["level"], e["points"], e["tickets"]) for e in levels
    ]
    assert [c.name for c in served.automa_cards] == [c["name"] for c in raw["automa"]["cards"]]


def test_the_served_data_is_the_data_file() -> None:
    check_served(game_data("movie-fight").movie_fight)


def test_a_change_to_the_data_file_changes_the_digest() -> None:
    assert_edit_changes_digest(
        "movie-fight",
        lambda: movie_fight_data.describe(
            movie_fight_cards.parse(
                tomllib.loads(
                    edited_file(
                        "games.movie_fight",
                        "cards.toml",
                        'viewer = "woman-red-dress"',
                        'viewer = "man-blue-suit"',
                    )
                )
            )
        ),
    )
