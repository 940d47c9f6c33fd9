"""Motion Pictures moves in words. Hands are secret, but a card leaving a hand lands face up
(on a project, a discard pile, the fired pile) except on the trilogy, which stays face down;
a hired row card was face up before."""

from __future__ import annotations

from typing import Any

from games.interface import Labels, ScoreBreakdown, ScorePart, Viewer, knows
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
from games.motion_pictures.scoring import final_parts
from games.motion_pictures.scoring import public_fame as open_fame
from games.motion_pictures.state import MotionPicturesState
from games.motion_pictures.views import FIRING, REFRESH, MotionPicturesObservation


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
    """Fame a seat holds in the open (`scoring.public_fame`)."""
    return open_fame(before.fame[seat], before.completed[seat], before.claimed[seat])


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


def score_rules() -> str:
    return (
        "Fame: from filmmakers' abilities during play, every completed project's fame and"
        " bonus, and the small goals claimed; at the end, fame for the skills committed to the"
        " trilogy, the trilogy movie itself for whoever committed the most skills, and the big"
        " goals, split between the players who meet one. The score shown during play is the"
        " fame held in the open, so the last move's score jumps by the trilogy and big goals."
    )


def _names(items: list[str]) -> str:
    return ", ".join(items) if items else "none"


def explain_score(final: MotionPicturesState) -> ScoreBreakdown:
    finals = final.finals()
    trilogy = DATA.trilogies[final.trilogy]
    parts = final_parts(finals, trilogy, [GOALS[g] for g in final.big_goals])
    before = [public_fame(final, seat) for seat in range(final.players)]
    out = []
    for seat, position in enumerate(finals):
        done = [p.name for p in parts.completed[seat]]
        won = parts.trilogy_winner == seat
        skills = sum(len(c.skills) for c in position.committed)
        lines = [
            ScorePart(parts.abilities[seat], "fame from filmmakers' abilities during play"),
            ScorePart(
                parts.projects[seat],
                f"{len(done)} completed project{'s' if len(done) != 1 else ''}"
                f"{' (the trilogy movie among them)' if won else ''}: {_names(done)}",
            ),
            ScorePart(parts.bonuses[seat], "completed projects' bonuses"),
            ScorePart(
                parts.small[seat],
                f"small goals: {_names([g.name for g in position.small_goals])}",
            ),
            ScorePart(
                parts.trilogy[seat],
                f"trilogy: {skills} skill{'s' if skills != 1 else ''} committed"
                + (f", the most: *{trilogy.name}* is theirs" if won else ""),
            ),
        ]
        held = parts.big_goals[seat]
        lines.append(
            ScorePart(
                sum(fame for _, fame in held),
                "big goals: " + _names([f"{goal.name} ({fame})" for goal, fame in held]),
            )
        )
        total = sum(line.points for line in lines)
        if total != before[seat]:
            lines.append(
                ScorePart(
                    0,
                    f"the last move's jump: {before[seat]} fame in the open before the final"
                    f" scoring, {total} after it",
                )
            )
        out.append(tuple(lines))
    return tuple(out)
