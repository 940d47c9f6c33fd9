"""A Movie Fight bot that values its own cinema by its score now plus the hope of the rest.

It looks one decision ahead: for each legal move it builds the cinema the move leads to and
values it as the exact score if the game ended now (wilds at their best) plus, while cards are
still to come, part of the points of each viewer not yet satisfied in proportion to how close
the floor is to satisfying it, part of the tile bonus for each floor meeting its condition,
and a little for tickets. It never refreshes the offer unless nothing in it helps.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from games.movie_fight.cards import CARDS, DATA, WILD, Requirement
from games.movie_fight.effects import upgradable
from games.movie_fight.moves import Downgrade, Play, Refresh, Skip, Upgrade
from games.movie_fight.scoring import FloorFacts, breakdown, floor_facts, measure
from games.movie_fight.state import place, set_upgraded
from games.movie_fight.views import Cinema, Floor, MovieFightObservation
from games.rng import Rng

HOPE = 0.6
"""The share of an unsatisfied viewer's points counted at full progress, early in the game."""
TICKET = 1.5
TILE_SHARE = 0.35


def progress(req: Requirement, facts: FloorFacts, own: str) -> float:
    """How close a floor is to a requirement's first tier, from 0 to 1 (wilds ignored)."""
    movies = [m for m in facts.movies if m[1] != WILD]
    need = req.tiers[0][0]
    if req.kind == "sequence":
        wanted = req.pattern[::2]
        genres = {genre for _, genre in movies}
        return sum(1 for g in wanted if g in genres) / (len(wanted) + 1)
    if req.kind == "all":
        shown = Counter(genre for _, genre in movies)
        items = len(req.genres) + len(req.equipment) + len(req.viewers)
        have = sum(min(shown[g], n) for g, n in Counter(req.genres).items())
        have += sum(1 for e in req.equipment if e in facts.equipment)
        have += sum(1 for v in req.viewers if v in facts.viewers and v != own)
        return have / (items + 1)
    amount = measure(req, facts, movies, own)
    return min(amount, need) / (need + 1)


def value(cinema: Cinema, side: str, remaining: int) -> float:
    """The bot's worth of a cinema with ``remaining`` of its own cards still to come."""
    part = breakdown(cinema, side)
    total = part.subtotal + TICKET * part.tickets
    if remaining <= 0:
        return float(total)
    share = HOPE * min(1.0, remaining / 6)
    tile = DATA.tiles[cinema.tile - 1]
    for floor, condition in zip(cinema.floors, tile.conditions(side), strict=True):
        if part.cinema == 0 and _meets(floor, cinema.upgraded, condition):
            total += TILE_SHARE * tile.points(side) * min(1.0, remaining / 4)
        for hope in _hopes(floor, cinema.upgraded):
            total += share * hope
    return total


@lru_cache(maxsize=16384)
def _meets(floor: Floor, upgraded: tuple[int, ...], condition: Requirement) -> bool:
    """Whether a floor meets a tile condition's first tier, wilds not counted."""
    facts = floor_facts(floor, upgraded)
    movies = [m for m in facts.movies if m[1] != WILD]
    return measure(condition, facts, movies, None) >= condition.tiers[0][0]


@lru_cache(maxsize=16384)
def _hopes(floor: Floor, upgraded: tuple[int, ...]) -> tuple[float, ...]:
    """Each viewer of the floor short of its top tier, in order: its best points times how
    close the floor is to its first tier (from a quarter up), before `value`'s share.

    Cached per floor: a move changes one floor of one cinema, and a search's playouts weigh
    the same floors again and again."""
    facts = floor_facts(floor, upgraded)
    movies = [m for m in facts.movies if m[1] != WILD]
    hopes = []
    for number in floor.audience:
        card = CARDS[number]
        req = card.requirement
        if measure(req, facts, movies, card.viewer) >= req.tiers[-1][0]:
            continue
        hopes.append(req.best * (0.25 + progress(req, facts, card.viewer)))
    return tuple(hopes)


class HeuristicBot:
    """Deterministic given its observation; ``rng`` only breaks exact ties."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, observation: MovieFightObservation, legal_moves: Sequence[Any]) -> Any:
        best: list[Any] = []
        best_value = float("-inf")
        for move, worth in zip(legal_moves, self.worths(observation, legal_moves), strict=True):
            if worth > best_value + 1e-9:
                best, best_value = [move], worth
            elif abs(worth - best_value) <= 1e-9:
                best.append(move)
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def ranked(self, observation: MovieFightObservation, legal_moves: Sequence[Any]) -> list[Any]:
        """The legal moves by worth, best first (ties in their given order)."""
        worths = self.worths(observation, legal_moves)
        order = sorted(range(len(legal_moves)), key=lambda index: -worths[index])
        return [legal_moves[index] for index in order]

    def worths(self, observation: MovieFightObservation, legal_moves: Sequence[Any]) -> list[float]:
        """What each legal move leaves the seat's cinema worth (`value`)."""
        seat = observation.seat if observation.seat is not None else observation.turn
        assert seat is not None
        cinema = observation.cinemas[seat]
        remaining = DATA.rounds - len(cinema.cards())
        side = observation.side
        return [self._worth(observation, cinema, move, side, remaining) for move in legal_moves]

    def _worth(
        self, obs: MovieFightObservation, cinema: Cinema, move: Any, side: str, remaining: int
    ) -> float:
        if isinstance(move, Play):
            after = place(cinema, move.card, move.floor, move.side)
            if move.side == "screen":
                return self._effect_gain(after, move.card, side, remaining - 1)
            return value(after, side, remaining - 1)
        if isinstance(move, Upgrade):
            return value(set_upgraded(cinema, move.card, True), side, remaining)
        if isinstance(move, Downgrade):
            lowered = set_upgraded(cinema, move.card, False)
            card = obs.pending.card if obs.pending else 0
            return self._effect_gain(lowered, card, side, remaining, excluded=move.card)
        if isinstance(move, Refresh):
            # Only worth it when no offer card improves the cinema at all.
            now = value(cinema, side, remaining)
            best_play = max(
                value(place(cinema, card, floor, s), side, remaining - 1)
                for card in obs.offer
                for floor in (1, 2)
                for s in ("audience", "screen")
            )
            lowered_worth = value(set_upgraded(cinema, move.card, False), side, remaining)
            return lowered_worth + 0.5 if best_play <= now else float("-inf")
        assert isinstance(move, Skip)
        return value(cinema, side, remaining)

    def _effect_gain(
        self, cinema: Cinema, card: int, side: str, remaining: int, excluded: int | None = None
    ) -> float:
        """The cinema's value after the best upgrade the card's effect allows (or none)."""
        if not card:
            return value(cinema, side, remaining)
        effect = CARDS[card].effect
        best = value(cinema, side, remaining)
        for target in upgradable(cinema, effect, excluded):
            best = max(best, value(set_upgraded(cinema, target, True), side, remaining))
        return best
