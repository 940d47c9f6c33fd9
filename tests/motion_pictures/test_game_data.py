"""Motion Pictures' data on the wire (GameData) is its data file, entry for entry, and its
digest changes with any change to that file (tests/wire/test_game_data.py checks what every
game shares)."""

from __future__ import annotations

import tomllib

from games.motion_pictures import cards as motion_pictures_cards
from games.motion_pictures import data as motion_pictures_data
from premiere.game_data import game_data
from premiere_wire import motion_pictures_pb2
from tests.wire.game_data_checks import assert_edit_changes_digest, data_file, edited_file


def check_served(served: motion_pictures_pb2.MotionPicturesData) -> None:
    raw = data_file("games.motion_pictures", "cards.toml")
    assert list(served.skills) == [s["name"] for s in raw["skills"]]
    assert list(served.specialties) == [s["name"] for s in raw["specialties"]]
    for card, entry in zip(served.filmmakers, raw["filmmakers"], strict=True):
        assert (card.code, card.name, card.specialty, card.start) == (
            entry["code"],
            entry["name"],
            entry["specialty"],
            entry["start"],
        )
        assert list(card.skills) == entry["skills"]
        if "ability" in entry:
            assert (card.ability.effect, card.ability.amount) == (
                entry["ability"]["effect"],
                entry["ability"]["amount"],
            )
    assert len(served.filmmakers) == len(raw["filmmakers"])
    for project, entry in zip(served.projects, raw["projects"], strict=True):
        assert (project.code, project.name, project.era, project.type, project.fame) == (
            entry["code"],
            entry["name"],
            entry["era"],
            entry["type"],
            entry["fame"],
        )
        assert list(project.needs) == entry.get("needs", [])
        assert project.genre == entry.get("genre", "")
    assert len(served.projects) == len(raw["projects"])
    assert [(t.code, t.genre, t.fame) for t in served.trilogies] == [
        (e["code"], e["genre"], e["fame"]) for e in raw["trilogies"]
    ]
    goals = [*raw["big_goals"], *raw["small_goals"]]
    assert [(g.code, g.fame, g.condition.count) for g in served.goals] == [
        (e["code"], e["fame"], e["condition"]["count"]) for e in goals
    ]
    assert served.rules.hand == raw["rules"]["hand"]
    assert served.rules.era_rounds == raw["limits"]["era_rounds"]
    assert [(p.players, p.projects) for p in served.rules.era_pile] == [
        (e["players"], e["projects"]) for e in raw["rules"]["era_pile"]
    ]


def test_the_served_data_is_the_data_file() -> None:
    check_served(game_data("motion-pictures").motion_pictures)


def test_a_change_to_the_data_file_changes_the_digest() -> None:
    assert_edit_changes_digest(
        "motion-pictures",
        lambda: motion_pictures_data.describe(
            motion_pictures_cards.parse(
                tomllib.loads(
                    edited_file(
                        "games.motion_pictures",
                        "cards.toml",
                        'name = "The Pie Fight"',
                        'name = "The Cake Fight"',
                    )
                )
            )
        ),
    )
