"""Movie Fight's printed material as plain values, named as `MovieFightData` in
proto/premiere/v1/movie_fight.proto, from the parsed ``cards.toml``."""

from __future__ import annotations

from typing import Any

from games.movie_fight.cards import DATA, WILD, Bar, CardData, Effect, Requirement


def _requirement(requirement: Requirement) -> dict[str, Any]:
    return {
        "kind": requirement.kind,
        "tiers": [{"threshold": t, "points": p} for t, p in requirement.tiers],
        "genre": requirement.genre,
        "pattern": list(requirement.pattern),
        "genres": list(requirement.genres),
        "equipment": list(requirement.equipment),
        "viewers": list(requirement.viewers),
        "side": requirement.side,
    }


def _bar(bar: Bar) -> dict[str, Any]:
    return {
        "genres": list(bar.genres),
        "equipment": list(bar.equipment),
        "tickets": bar.tickets,
        "points": bar.points,
        "viewers": list(bar.viewers),
    }


def _effect(effect: Effect) -> dict[str, Any]:
    return {
        "kind": effect.kind,
        "side": effect.side,
        "group": effect.group,
        "need": effect.need,
        "genre": effect.genre,
        "viewers": list(effect.viewers),
    }


def describe(data: CardData = DATA) -> dict[str, Any]:
    goals = data.goals
    return {
        "genres": list(data.genres),
        "wild": WILD,
        "equipment": list(data.equipment),
        "rounds": data.rounds,
        "offer": data.offer,
        "cards": [
            {
                "number": card.number,
                "viewer": card.viewer,
                "requirement": _requirement(card.requirement),
                "audience_bar": _bar(card.audience_bar),
                "genres": list(card.genres),
                "equipment": list(card.equipment),
                "tickets": card.tickets,
                "points": card.points,
                "effect": _effect(card.effect),
                "screen_bar": _bar(card.screen_bar),
            }
            for _, card in sorted(data.cards.items())
        ],
        "tiles": [
            {
                "number": tile.number,
                "a": [_requirement(r) for r in tile.a],
                "b": [_requirement(r) for r in tile.b],
                "a_points": tile.a_points,
                "b_points": tile.b_points,
            }
            for tile in data.tiles
        ],
        "goals": {
            "equipment": list(goals.equipment),
            "viewers_from": goals.viewers_from,
            "viewers": list(goals.viewers),
            "tickets_small": list(goals.tickets_small),
            "tickets_large": list(goals.tickets_large),
        },
        "automa_levels": [
            {"level": level.level, "points": level.points, "tickets": level.tickets}
            for _, level in sorted(data.automa_levels.items())
        ],
        "automa_cards": [
            {
                "name": card.name,
                "take": card.take,
                "play": card.play,
                "activate": card.activate,
                "refresh": card.refresh,
            }
            for card in data.automa_cards
        ],
        "ticket_winner": data.ticket_winner,
        "ticket_loser": data.ticket_loser,
        "sources": [{"entry": k, "source": v} for k, v in data.sources.items()],
    }
