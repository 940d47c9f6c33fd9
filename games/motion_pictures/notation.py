"""Motion Pictures moves in words. Hands are secret, but a card leaving a hand lands face up
(on a project, a discard pile, the fired pile) except on the trilogy, which stays face down;
a hired row card was face up before."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.interface import Labels, Viewer, knows
from games.motion_pictures.cards import DATA, FILMMAKERS, GOALS, PROJECTS_BY_ID
from games.motion_pictures.moves import (
    Audition,
    CommitTrilogy,
    Discard,
    Fire,
    HireAny,
    HireMatch,
    Recruit,
    Refresh,
    Shoot,
    Skip,
)
from games.motion_pictures.rules import project_bonus
from games.motion_pictures.views import FIRING, REFRESH, MotionPicturesObservation

if TYPE_CHECKING:
    from games.motion_pictures.state import MotionPicturesState


def _the(card: int) -> str:
    return f"the {FILMMAKERS[card].name}"


def _discards(count: int) -> str:
    return f"{count} discard" + ("" if count == 1 else "s")


def describe(before: MotionPicturesState, seat: int, move: Any, viewer: Viewer) -> str:
    if isinstance(move, Shoot):
        pid = before.slots[move.slot]
        project = f" on *{PROJECTS_BY_ID[pid].name}*" if pid is not None else ""
        return f"shoots with {_the(move.card)}{project}"
    if isinstance(move, CommitTrilogy):
        card = _the(move.card) if knows(viewer, seat) else "a filmmaker"
        return f"commits {card} to the trilogy, face down"
    if isinstance(move, HireMatch):
        return f"hires {_the(move.hire)}, discarding {_the(move.discard)}"
    if isinstance(move, HireAny):
        cost = before._hire_cost(seat, DATA.rules.hire_any_cost)
        return f"hires {_the(move.hire)} for {_discards(cost)}"
    if isinstance(move, Audition):
        cost = before._hire_cost(seat, DATA.rules.audition_cost)
        return f"auditions the top card of the Filmmakers Deck for {_discards(cost)}"
    if isinstance(move, Recruit):
        return f"recruits: discards {_the(move.discard)} and draws"
    if isinstance(move, Discard):
        return f"discards {_the(move.card)}"
    if isinstance(move, Fire):
        return f"fires {_the(move.card)}"
    if isinstance(move, Refresh):
        return f"refreshes the row, replacing {_the(move.card)}"
    if isinstance(move, Skip):
        if before.phase == FIRING:
            return "fires nobody"
        if before.phase == REFRESH:
            return "leaves the row as it is"
        return "passes"
    raise TypeError(f"not a Motion Pictures move: {move!r}")


def group(before: MotionPicturesState) -> str:
    return f"era {before.era}, round {before.round}"


def public_fame(before: MotionPicturesState, seat: int) -> int:
    """Fame a seat holds in the open: abilities, completed projects and their bonuses, small
    goals (the trilogy and the big goals are scored at the end)."""
    done = [PROJECTS_BY_ID[p] for p in before.completed[seat]]
    return (
        before.fame[seat]
        + sum(p.fame + project_bonus(p, done) for p in done)
        + sum(GOALS[g].fame for g in before.claimed[seat])
    )


def labels() -> Labels:
    return {
        "filmmaker": {str(f.id): f.name for f in FILMMAKERS},
        "project": {str(p.id): p.name for p in PROJECTS_BY_ID},
        "goal": {str(g.id): g.name for g in GOALS},
        "trilogy": {str(t.id): t.name for t in DATA.trilogies},
    }


def names_in(view: MotionPicturesObservation) -> frozenset[str]:
    cards = [*view.hand, *view.trilogy_cards, *view.row]
    if view.hiring is not None:
        cards.append(view.hiring)
    for slot in view.slots:
        cards.extend(card for placed in slot.placed for card in placed)
    for studio in view.studios:
        cards.extend((*studio.discard, *studio.fired))
    projects = [slot.project for slot in view.slots if slot.project is not None]
    projects.extend(p for studio in view.studios for p in studio.completed)
    return frozenset(c.name for c in cards) | {p.name for p in projects}
