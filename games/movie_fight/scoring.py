"""Movie Fight scoring: requirements on one floor, the exact wild assignment, the goals card.

Everything a requirement looks at is on the viewer's own floor. Wild symbols are not movies
during the game; at the end each wild symbol becomes one genre for every viewer at once. Floors
score independently except for the cinema tile (both floors' conditions), so the best
assignment is found per floor twice: the best overall, and the best that meets the floor's tile
condition; the better combination of the two floors is the exact optimum.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from games.movie_fight.cards import (
    AUDIENCE,
    CARDS,
    DATA,
    GENRES,
    SCREEN,
    WILD,
    Requirement,
)
from games.movie_fight.views import Cinema, Floor

Movie = tuple[int, str]
"""(index of the screen card on its floor, genre); a wild symbol has genre "wild"."""


@dataclass(frozen=True)
class FloorFacts:
    """What a floor shows, upgrades included; movies keep wild symbols unassigned."""

    movies: tuple[Movie, ...]
    equipment: tuple[str, ...]
    tickets: int
    points: int
    viewers: tuple[str, ...]
    """Every viewer present: audience cards, then viewers on upgraded audience bars."""
    upgraded_audience: int
    upgraded_screens: int


@lru_cache(maxsize=16384)
def floor_facts(floor: Floor, upgraded: tuple[int, ...]) -> FloorFacts:
    movies: list[Movie] = []
    equipment: list[str] = []
    tickets = points = 0
    viewers = [CARDS[c].viewer for c in floor.audience]
    up_audience = up_screens = 0
    for index, number in enumerate(floor.screens):
        card = CARDS[number]
        genres = list(card.genres)
        kit = list(card.equipment)
        tickets += card.tickets
        points += card.points
        if number in upgraded:
            up_screens += 1
            bar = card.screen_bar
            genres += bar.genres
            kit += bar.equipment
            tickets += bar.tickets
            points += bar.points
        movies += [(index, genre) for genre in genres]
        equipment += kit
    for number in floor.audience:
        if number in upgraded:
            up_audience += 1
            bar = CARDS[number].audience_bar
            tickets += bar.tickets
            points += bar.points
            viewers += bar.viewers
    return FloorFacts(
        movies=tuple(movies),
        equipment=tuple(equipment),
        tickets=tickets,
        points=points,
        viewers=tuple(viewers),
        upgraded_audience=up_audience,
        upgraded_screens=up_screens,
    )


def sequence_found(movies: Sequence[Movie], pattern: Sequence[str]) -> bool:
    """Whether the genres of ``pattern`` appear in order; "|" puts the next one on a later
    screen card, "?" puts at least one other movie between. Earliest matches are optimal."""
    position = -1
    for step in range(0, len(pattern), 2):
        genre = pattern[step]
        separator = pattern[step - 1] if step else ""
        for index in range(position + 1, len(movies)):
            card, shown = movies[index]
            if shown != genre:
                continue
            if separator == "|" and card <= movies[position][0]:
                continue
            if separator == "?" and index <= position + 1:
                continue
            position = index
            break
        else:
            return False
    return True


def measure(req: Requirement, facts: FloorFacts, movies: Sequence[Movie], own: str | None) -> int:
    """The quantity a requirement's tiers are compared with; ``movies`` has wilds resolved
    (or dropped, during the game); ``own`` is the scoring viewer, who does not count as
    another viewer for an "all" requirement."""
    kind = req.kind
    if kind == "genre-count":
        return sum(1 for _, genre in movies if genre == req.genre)
    if kind == "sequence":
        return int(sequence_found(movies, req.pattern))
    if kind == "all":
        for wanted, count in _counted(req.genres):
            if sum(1 for _, genre in movies if genre == wanted) < count:
                return 0
        equipment = facts.equipment
        if not all(kit in equipment for kit in req.equipment):
            return 0
        viewers = facts.viewers
        return int(all(viewers.count(v) - (v == own) > 0 for v in req.viewers))
    if kind == "distinct-viewers":
        return len(set(facts.viewers))
    if kind == "upgraded":
        if req.side == AUDIENCE:
            return facts.upgraded_audience
        if req.side == SCREEN:
            return facts.upgraded_screens
        return facts.upgraded_audience + facts.upgraded_screens
    if kind == "distinct-genres":
        return len({genre for _, genre in movies if genre != WILD})
    if kind == "tickets":
        return facts.tickets
    if kind == "distinct-equipment":
        return len(set(facts.equipment))
    if kind == "equipment-count":
        return len(facts.equipment)
    if kind == "wild":
        return sum(1 for _, genre in facts.movies if genre == WILD)
    if kind == "bonus-points":
        return facts.points
    raise ValueError(f"unknown requirement kind {kind!r}")


@lru_cache(maxsize=1024)
def _counted(items: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """Each distinct item with how often it occurs (a requirement's genres, counted once)."""
    return tuple(Counter(items).items())


def tier_points(req: Requirement, amount: int) -> int:
    best = 0
    for need, points in req.tiers:
        if amount >= need:
            best = points
    return best


def viewer_points(floor: Floor, facts: FloorFacts, movies: Sequence[Movie]) -> int:
    total = 0
    for number in floor.audience:
        card = CARDS[number]
        total += tier_points(
            card.requirement, measure(card.requirement, facts, movies, card.viewer)
        )
    return total


def assignments(movies: Sequence[Movie], final: bool) -> list[tuple[Movie, ...]]:
    """Every way to read the wild symbols: one genre each at the end, not movies before."""
    if not final:
        return [tuple(m for m in movies if m[1] != WILD)]
    wilds = [i for i, (_, genre) in enumerate(movies) if genre == WILD]
    if not wilds:
        return [tuple(movies)]
    result = []
    for choice in itertools.product(GENRES, repeat=len(wilds)):
        resolved = list(movies)
        for slot, genre in zip(wilds, choice, strict=True):
            resolved[slot] = (movies[slot][0], genre)
        result.append(tuple(resolved))
    return result


@dataclass(frozen=True)
class FloorScore:
    best: int
    """The floor's viewer points under its best wild assignment."""
    with_condition: int | None
    """The best viewer points among assignments meeting the tile condition (None: none do)."""


@lru_cache(maxsize=16384)
def floor_score(
    floor: Floor, upgraded: tuple[int, ...], condition: Requirement, final: bool
) -> FloorScore:
    """Cached per floor: a cinema one card away from another shares a floor with it."""
    facts = floor_facts(floor, upgraded)
    best = -1
    met: int | None = None
    for movies in assignments(facts.movies, final):
        points = viewer_points(floor, facts, movies)
        best = max(best, points)
        if measure(condition, facts, movies, None) >= condition.tiers[0][0]:
            met = points if met is None else max(met, points)
    return FloorScore(best, met)


@dataclass(frozen=True)
class Breakdown:
    """One player's score by heading, before the ticket ranking."""

    cinema: int
    viewers: int
    bonus: int
    equipment_goal: int
    viewers_goal: int
    tickets: int

    @property
    def subtotal(self) -> int:
        return self.cinema + self.viewers + self.bonus + self.equipment_goal + self.viewers_goal


@lru_cache(maxsize=8192)
def breakdown(cinema: Cinema, side: str, final: bool = True) -> Breakdown:
    """Everything of a cinema's score except the ticket place (which needs the others)."""
    tile = DATA.tiles[cinema.tile - 1]
    conditions = tile.conditions(side)
    floors = [
        floor_score(floor, cinema.upgraded, condition, final)
        for floor, condition in zip(cinema.floors, conditions, strict=True)
    ]
    plain = sum(f.best for f in floors)
    cinema_points = 0
    viewers = plain
    if all(f.with_condition is not None for f in floors):
        with_tile = sum(f.with_condition or 0 for f in floors) + tile.points(side)
        if with_tile > plain:
            cinema_points = tile.points(side)
            viewers = with_tile - cinema_points
    facts = [floor_facts(floor, cinema.upgraded) for floor in cinema.floors]
    kinds = len({kit for f in facts for kit in f.equipment})
    goals = DATA.goals
    equipment_goal = goals.equipment[min(kinds, len(goals.equipment)) - 1] if kinds else 0
    viewers_goal = 0
    for f in facts:
        distinct = len(set(f.viewers))
        if distinct >= goals.viewers_from:
            step = min(distinct - goals.viewers_from, len(goals.viewers) - 1)
            viewers_goal += goals.viewers[step]
    return Breakdown(
        cinema=cinema_points,
        viewers=viewers,
        bonus=sum(f.points for f in facts),
        equipment_goal=equipment_goal,
        viewers_goal=viewers_goal,
        tickets=sum(f.tickets for f in facts),
    )


def ticket_points(tickets: Sequence[int]) -> tuple[int, ...]:
    """The goals card's ticket places: tied players share the better place, the next place
    is skipped; a player who sold no ticket earns nothing."""
    table = DATA.goals.tickets_small if len(tickets) <= 3 else DATA.goals.tickets_large
    result = []
    for sold in tickets:
        place = sum(1 for other in tickets if other > sold)
        result.append(table[place] if sold > 0 and place < len(table) else 0)
    return tuple(result)


def automa_tickets(audience: Sequence[int], screens: Sequence[int], level: int) -> int:
    """The automa's end tickets: every card with a ticket on its bar is upgraded first."""
    total = DATA.automa_levels[level].tickets
    for number in audience:
        total += CARDS[number].audience_bar.tickets
    for number in screens:
        total += CARDS[number].tickets + CARDS[number].screen_bar.tickets
    return total


def automa_base(audience: Sequence[int], screens: Sequence[int], level: int) -> int:
    """The automa's points before the ticket comparison: every viewer at its best, the
    level's points, and the visible bonus points on its screens."""
    viewers = sum(CARDS[n].requirement.best for n in audience)
    bonus = sum(CARDS[n].points for n in screens)
    return viewers + DATA.automa_levels[level].points + bonus


def solo_ticket_points(player: int, automa: int) -> tuple[int, int]:
    """(player, automa) points of the ticket comparison; a tie gives both the winner's."""
    win, lose = DATA.ticket_winner, DATA.ticket_loser
    if player == automa:
        return win, win
    return (win, lose) if player > automa else (lose, win)
