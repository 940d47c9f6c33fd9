"""The games' data on the wire (GameData) is the engines' data files, entry for entry, and its
digest changes with any change to them."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest
from google.protobuf import json_format

import games
from games.magic_trick import cards as magic_trick_cards
from games.motion_pictures import cards as motion_pictures_cards
from games.motion_pictures import data as motion_pictures_data
from games.movie_fight import cards as movie_fight_cards
from games.movie_fight import data as movie_fight_data
from games.movie_trailer import catalog as movie_trailer_catalog
from games.movie_trailer import data as movie_trailer_data
from games.movie_tricks import cards as movie_tricks_cards
from games.movie_tricks import data as movie_tricks_data
from premiere.game_data import as_json, build, game_data
from premiere_wire import game_data_pb2


def _file(package: str, name: str) -> dict[str, Any]:
    return tomllib.loads(resources.files(package).joinpath(name).read_text("utf-8"))


def _check_movie_fight(served: game_data_pb2.MovieFightData) -> None:
    raw = _file("games.movie_fight", "cards.toml")
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


def _check_motion_pictures(served: game_data_pb2.MotionPicturesData) -> None:
    raw = _file("games.motion_pictures", "cards.toml")
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


def _check_movie_tricks(served: game_data_pb2.MovieTricksData) -> None:
    raw = _file("games.movie_tricks", "cards.toml")
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


def _check_movie_trailer(served: game_data_pb2.MovieTrailerData) -> None:
    raw = _file("games.movie_trailer", "catalog.toml")
    assert [(c.name, c.slots, c.border) for c in served.categories] == [
        (c["name"], c["slots"], c["border"]) for c in raw["categories"]
    ]
    assert len(served.slot_categories) == sum(c["slots"] for c in raw["categories"])
    assert [(s.numeral, s.director, s.spectator) for s in served.scoring] == [
        (s["tile"], s["director"], s["spectator"]) for s in raw["scoring"]
    ]
    assert [(n.players, n.standard, n.short) for n in served.lengths] == [
        (n["players"], n["standard"], n["short"]) for n in raw["lengths"]
    ]
    assert [(t.number, t.concept, t.label, t.border) for t in served.tiles] == [
        (t["number"], t["concept"], t["label"], t["border"]) for t in raw["tiles"]
    ]
    number = {t["concept"]: t["number"] for t in raw["tiles"]}
    assert len(served.films) == len(raw["films"])
    for film, entry in zip(served.films, raw["films"], strict=True):
        assert (film.id, film.title, film.year) == (entry["id"], entry["title"], entry["year"])
        assert {f.category: list(f.tiles) for f in film.fits} == {
            c["name"]: sorted(number[concept] for concept in entry[c["name"]])
            for c in raw["categories"]
        }


def _check_magic_trick(served: game_data_pb2.MagicTrickData) -> None:
    """Magic Trick has no data file: its figures are the engine's constants."""
    assert list(served.suits) == list(magic_trick_cards.SUITS) and served.trump == "red"
    assert list(served.ranks) == list(magic_trick_cards.RANKS)
    assert {d.players: d.hand_size for d in served.deals} == magic_trick_cards.HAND_SIZE


CHECKS: dict[str, Callable[[Any], None]] = {
    "magic-trick": _check_magic_trick,
    "motion-pictures": _check_motion_pictures,
    "movie-fight": _check_movie_fight,
    "movie-trailer": _check_movie_trailer,
    "movie-tricks": _check_movie_tricks,
}


def test_every_game_has_its_data_checked() -> None:
    assert sorted(CHECKS) == sorted(games.ids())


@pytest.mark.parametrize("game_id", sorted(CHECKS))
def test_the_served_data_is_the_engines_data_file(game_id: str) -> None:
    game = games.get(game_id)
    served = game_data(game_id)
    assert (served.game, served.title) == (game.id, game.title)
    assert list(served.player_counts) == list(game.player_counts)
    assert [o.name for o in served.options] == [spec.name for spec in game.options]
    assert {p.name: p.rating for p in served.reference_players} == dict(game.reference_players)
    assert served.WhichOneof("game_data") == game_id.replace("-", "_")
    CHECKS[game_id](getattr(served, game_id.replace("-", "_")))
    # The JSON form is the same message.
    again = json_format.ParseDict(as_json(game_id), game_data_pb2.GameData())
    assert again == served


def test_options_carry_their_ranges() -> None:
    (level,) = [o for o in game_data("movie-fight").options if o.name == "level"]
    assert (level.type, level.default_value, level.min, level.max) == ("int", "1", 1, 4)
    (speed,) = [o for o in game_data("movie-trailer").options if o.name == "speed"]
    assert (speed.type, list(speed.values)) == ("bool", ["false", "true"])


def _text(package: str, name: str) -> str:
    return resources.files(package).joinpath(name).read_text("utf-8")


def _edited(package: str, name: str, old: str, new: str) -> str:
    """The game's data file with one entry changed, as an owner of the game would edit it."""
    text = _text(package, name)
    assert text.count(old) >= 1, old
    return text.replace(old, new, 1)


EDITED: dict[str, Callable[[], Any]] = {
    "movie-fight": lambda: movie_fight_data.describe(
        movie_fight_cards.parse(
            tomllib.loads(
                _edited(
                    "games.movie_fight",
                    "cards.toml",
                    'viewer = "woman-red-dress"',
                    'viewer = "man-blue-suit"',
                )
            )
        )
    ),
    "motion-pictures": lambda: motion_pictures_data.describe(
        motion_pictures_cards.parse(
            tomllib.loads(
                _edited(
                    "games.motion_pictures",
                    "cards.toml",
                    'name = "The Pie Fight"',
                    'name = "The Cake Fight"',
                )
            )
        )
    ),
    "movie-tricks": lambda: movie_tricks_data.describe(
        movie_tricks_cards.parse(
            tomllib.loads(
                _edited(
                    "games.movie_tricks",
                    "cards.toml",
                    'symbols = ["hat", "pistol"]',
                    'symbols = ["hat", "ring"]',
                )
            )
        )
    ),
    "movie-trailer": lambda: movie_trailer_data.describe(
        movie_trailer_catalog.load(
            _edited(
                "games.movie_trailer",
                "catalog.toml",
                'title = "King Kong"',
                'title = "King Kong (restored)"',
            )
        )
    ),
}


@pytest.mark.parametrize("game_id", sorted(EDITED))
def test_a_change_to_a_data_file_changes_the_digest(game_id: str) -> None:
    game = games.get(game_id)
    assert build(game).digest == game_data(game_id).digest
    edited = build(game, EDITED[game_id]())
    assert edited.digest != game_data(game_id).digest
    assert edited.digest == build(game, EDITED[game_id]()).digest


def test_the_digest_covers_the_description_too() -> None:
    game = games.get("magic-trick")
    plain = dict(game.data(), prestige_points=3)
    assert build(game, plain).digest != game_data("magic-trick").digest
