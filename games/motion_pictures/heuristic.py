"""A heuristic Motion Pictures bot: finish projects it can complete from its own hand, hire
advanced filmmakers for starting ones, and bury unneeded starting filmmakers on the trilogy.

It reads only its observation and the legal moves and keeps no memory between decisions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.motion_pictures.cards import (
    AUDITION,
    DRAW,
    FAME,
    FIRE,
    ON_HIRE,
    ON_PLAY,
    ONGOING,
    WILD,
    Filmmaker,
    Project,
)
from games.motion_pictures.moves import (
    Audition,
    CommitTrilogy,
    Fire,
    HireAny,
    HireMatch,
    Recruit,
    Shoot,
    Skip,
)
from games.motion_pictures.rules import may_place, missing, project_bonus
from games.motion_pictures.views import DISCARD, FIRING, MotionPicturesObservation
from games.rng import Rng

_EFFECT_VALUE = {DRAW: 0.8, AUDITION: 0.9, FAME: 0.7, FIRE: 0.5}


def card_value(card: Filmmaker) -> float:
    """How much a filmmaker is worth keeping: its skills, a wildcard, its ability."""
    value = len(card.skills) + (0.5 if WILD in card.skills else 0.0)
    ability = card.ability
    if ability is not None:
        if ability.timing == ONGOING:
            value += 0.7
        elif ability.timing == ON_PLAY:
            value += _EFFECT_VALUE[ability.effect] * ability.amount
    return value + (0.0 if card.start else 1.0)


def completion_plan(
    project: Project, mine: Sequence[Filmmaker], hand: Sequence[Filmmaker]
) -> list[Filmmaker] | None:
    """Greedily pick hand cards that complete the project, or None if the hand cannot."""
    placed = list(mine)
    left = list(hand)
    plan: list[Filmmaker] = []
    short = missing(project, placed)
    while short > 0:
        best: tuple[int, float, Filmmaker] | None = None
        for card in left:
            if not may_place(project, placed, card):
                continue
            gain = short - missing(project, [*placed, card])
            if gain > 0 and (best is None or (gain, -card_value(card)) > best[:2]):
                best = (gain, -card_value(card), card)
        if best is None:
            return None
        card = best[2]
        placed.append(card)
        left.remove(card)
        plan.append(card)
        short = missing(project, placed)
    return plan


class HeuristicBot:
    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, observation: Any, legal_moves: Sequence[Any]) -> Any:
        assert isinstance(observation, MotionPicturesObservation)
        obs = observation
        if obs.phase == DISCARD:
            return min(legal_moves, key=lambda m: card_value(_card(obs, m.card)))
        if obs.phase == FIRING:
            fires = [m for m in legal_moves if isinstance(m, Fire)]
            starters = [m for m in fires if _card(obs, m.card).start]
            if starters:
                return min(starters, key=lambda m: card_value(_card(obs, m.card)))
            return legal_moves[0]
        if not any(isinstance(m, Shoot | Recruit) for m in legal_moves):
            return next((m for m in legal_moves if isinstance(m, Skip)), legal_moves[0])
        scored = [(self._score(obs, move), -index) for index, move in enumerate(legal_moves)]
        best = max(range(len(legal_moves)), key=lambda i: scored[i])
        return legal_moves[best]

    def ranked(self, observation: Any, legal_moves: Sequence[Any]) -> list[Any]:
        """The legal moves in the order this bot prefers them, its choice first where every
        move is scored (a turn's actions); in the other steps, the moves it would pick by the
        same rule (the least valuable card to discard or fire; skipping), then the rest."""
        assert isinstance(observation, MotionPicturesObservation)
        obs = observation
        if obs.phase == DISCARD:
            return sorted(legal_moves, key=lambda m: card_value(_card(obs, m.card)))
        if obs.phase == FIRING:
            starters = [m for m in legal_moves if isinstance(m, Fire) and _card(obs, m.card).start]
            starters.sort(key=lambda m: card_value(_card(obs, m.card)))
            return [*starters, *(m for m in legal_moves if m not in starters)]
        if not any(isinstance(m, Shoot | Recruit) for m in legal_moves):
            skips = [m for m in legal_moves if isinstance(m, Skip)]
            return [*skips, *(m for m in legal_moves if not isinstance(m, Skip))]
        scores = [self._score(obs, move) for move in legal_moves]
        order = sorted(range(len(legal_moves)), key=lambda index: (-scores[index], index))
        return [legal_moves[index] for index in order]

    def _score(self, obs: MotionPicturesObservation, move: Any) -> float:
        seat = obs.seat
        assert seat is not None
        hand = obs.hand
        if isinstance(move, Shoot):
            return self._shoot_score(obs, move)
        if isinstance(move, CommitTrilogy):
            card = _card(obs, move.card)
            useful = self._usefulness(obs, card)
            if card.start:
                return 1.5 - useful + 0.2 * len(card.skills)
            return 0.3 * len(card.skills) - useful - 1.0
        if isinstance(move, HireMatch):
            gain = card_value(_row(obs, move.hire)) - card_value(_card(obs, move.discard))
            return gain + _hire_bonus(_row(obs, move.hire)) - 0.5
        if isinstance(move, HireAny | Audition):
            costs = sorted(card_value(c) for c in hand)[:2]
            if isinstance(move, HireAny):
                target = card_value(_row(obs, move.hire)) + _hire_bonus(_row(obs, move.hire))
            else:
                target = 3.0
            return target - sum(costs) - 0.8
        if isinstance(move, Recruit):
            return -2.0 - card_value(_card(obs, move.discard)) * 0.1
        return -5.0

    def _shoot_score(self, obs: MotionPicturesObservation, move: Shoot) -> float:
        seat = obs.seat
        assert seat is not None
        slot = obs.slots[move.slot]
        project = slot.project
        assert project is not None
        card = _card(obs, move.card)
        mine = slot.placed[seat]
        before = missing(project, mine)
        after = missing(project, [*mine, card])
        if before == after:
            return -3.0
        worth = project.fame + self._bonus_estimate(obs, project)
        ability = card.ability
        extra = 0.0
        if ability is not None and ability.timing == ON_PLAY:
            extra = _EFFECT_VALUE[ability.effect] * ability.amount
        rest = [c for c in obs.hand if c.id != card.id]
        if after == 0:
            return 10.0 + worth + extra
        plan = completion_plan(project, [*mine, card], rest)
        rivals = max(
            (len(placed) for other, placed in enumerate(slot.placed) if other != seat and placed),
            default=0,
        )
        if plan is not None:
            return 4.0 + worth / (1 + len(plan)) + extra - rivals - 0.3 * card_value(card)
        return (before - after) * worth / (3.0 * (before + 1)) + extra - rivals - 1.0

    def _usefulness(self, obs: MotionPicturesObservation, card: Filmmaker) -> float:
        """How much a card helps towards the projects within reach right now."""
        seat = obs.seat
        assert seat is not None
        best = 0.0
        for slot in obs.slots:
            project = slot.project
            if project is None:
                continue
            mine = slot.placed[seat]
            if not may_place(project, mine, card):
                continue
            if missing(project, [*mine, card]) < missing(project, mine):
                best = max(best, 1.0 + project.fame / 10)
        return best

    def _bonus_estimate(self, obs: MotionPicturesObservation, project: Project) -> float:
        seat = obs.seat
        assert seat is not None
        done = obs.studios[seat].completed
        value = float(project_bonus(project, (*done, project)))
        value += sum(
            p.bonus.fame for p in done if p.bonus is not None and project.is_kind(p.bonus.kind)
        )
        return value


def _card(obs: MotionPicturesObservation, card: int) -> Filmmaker:
    return next(c for c in obs.hand if c.id == card)


def _row(obs: MotionPicturesObservation, card: int) -> Filmmaker:
    return next(c for c in obs.row if c.id == card)


def _hire_bonus(card: Filmmaker) -> float:
    ability = card.ability
    if ability is not None and ability.timing == ON_HIRE:
        return _EFFECT_VALUE[ability.effect] * ability.amount
    return 0.0
