"""Which cards a screen effect lets a player upgrade or downgrade.

During the game a wild symbol is not a movie, so it never meets a genre need.
"""

from __future__ import annotations

from games.movie_fight.cards import AUDIENCE, CARDS, SCREEN, Effect
from games.movie_fight.views import Cinema


def _meets(effect: Effect, number: int, side: str) -> bool:
    card = CARDS[number]
    need = effect.need
    if not need:
        return True
    if side == AUDIENCE:
        bar = card.audience_bar
        if need == "ticket":
            return bar.tickets > 0
        if need == "points":
            return bar.points > 0
        if need == "viewer":
            return bool({card.viewer, *bar.viewers} & set(effect.viewers))
        return False
    bar = card.screen_bar
    if need == "ticket":
        return card.tickets + bar.tickets > 0
    if need == "points":
        return card.points + bar.points > 0
    if need == "equipment":
        return bool(card.equipment or bar.equipment)
    if need == "genre":
        return effect.genre in card.genres or effect.genre in bar.genres
    return False


def upgradable(cinema: Cinema, effect: Effect, excluded: int | None = None) -> tuple[int, ...]:
    """The cards of ``cinema`` this effect may upgrade, in increasing number."""
    found = []
    sides = []
    if effect.kind == "downgrade-upgrade" or effect.side in (AUDIENCE, "any"):
        sides.append((AUDIENCE, cinema.audience()))
    if effect.kind == "downgrade-upgrade" or effect.side in (SCREEN, "any"):
        sides.append((SCREEN, cinema.screens()))
    for side, cards in sides:
        for number in cards:
            if number in cinema.upgraded or number == excluded:
                continue
            if effect.kind == "downgrade-upgrade" or _meets(effect, number, side):
                found.append(number)
    return tuple(sorted(found))


def downgradable(cinema: Cinema) -> tuple[int, ...]:
    return cinema.upgraded
