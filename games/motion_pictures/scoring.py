"""Final scoring: the trilogy, big goals, completed projects with their bonuses, small goals."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.interface import Outcome, TieBreak
from games.motion_pictures.cards import (
    DATA,
    GOALS,
    MOVIE,
    PROJECTS_BY_ID,
    Filmmaker,
    Goal,
    Project,
    Trilogy,
)
from games.motion_pictures.rules import condition_met, project_bonus
from games.values import JSON


@dataclass(frozen=True)
class Final:
    """One player's end-of-game position, everything scoring reads."""

    completed: tuple[Project, ...]
    owned: tuple[Filmmaker, ...]
    committed: tuple[Filmmaker, ...]
    small_goals: tuple[Goal, ...]
    ability_fame: int


def trilogy_winner(committed: Sequence[Sequence[Filmmaker]]) -> int | None:
    """Most skills; among those tied, most filmmakers; still tied (or no skills): nobody."""
    keys = [(sum(len(f.skills) for f in cards), len(cards)) for cards in committed]
    best = max(keys)
    if best[0] == 0 or keys.count(best) > 1:
        return None
    return keys.index(best)


def trilogy_project(trilogy: Trilogy) -> Project:
    """The trilogy card as the completed movie its winner keeps."""
    return Project(
        id=-1 - trilogy.id,
        code=trilogy.code,
        name=trilogy.name,
        era=0,
        type=MOVIE,
        genre=trilogy.genre,
        needs=(),
        forbidden=(),
        count=0,
        fame=trilogy.fame,
        ability=None,
        bonus=None,
    )


@dataclass(frozen=True)
class FinalParts:
    """Every seat's final score by heading (what `final_outcome` adds up), and who won what."""

    trilogy_winner: int | None
    trilogy: tuple[int, ...]
    big_goals: tuple[tuple[tuple[Goal, int], ...], ...]
    """Per seat, each big goal it met with the fame it got (shared goals split)."""
    projects: tuple[int, ...]
    bonuses: tuple[int, ...]
    small: tuple[int, ...]
    abilities: tuple[int, ...]
    completed: tuple[tuple[Project, ...], ...]
    """Per seat, its completed projects, the trilogy movie included for its winner."""


def final_parts(finals: Sequence[Final], trilogy: Trilogy, big_goals: Sequence[Goal]) -> FinalParts:
    rules = DATA.rules
    winner = trilogy_winner([f.committed for f in finals])
    completed = [
        (*f.completed, trilogy_project(trilogy)) if seat == winner else f.completed
        for seat, f in enumerate(finals)
    ]
    held: list[list[tuple[Goal, int]]] = [[] for _ in finals]
    for goal in big_goals:
        claim = [
            seat
            for seat, f in enumerate(finals)
            if condition_met(goal.condition, completed[seat], f.owned, len(f.committed))
        ]
        for seat in claim:
            held[seat].append((goal, goal.fame // len(claim)))
    return FinalParts(
        trilogy_winner=winner,
        trilogy=tuple(
            sum(len(c.skills) for c in f.committed) // rules.skills_per_trilogy_fame for f in finals
        ),
        big_goals=tuple(tuple(h) for h in held),
        projects=tuple(sum(p.fame for p in done) for done in completed),
        bonuses=tuple(sum(project_bonus(p, done) for p in done) for done in completed),
        small=tuple(sum(g.fame for g in f.small_goals) for f in finals),
        abilities=tuple(f.ability_fame for f in finals),
        completed=tuple(tuple(done) for done in completed),
    )


def final_outcome(finals: Sequence[Final], trilogy: Trilogy, big_goals: Sequence[Goal]) -> Outcome:
    rules = DATA.rules
    winner = trilogy_winner([f.committed for f in finals])
    completed = [
        (*f.completed, trilogy_project(trilogy)) if seat == winner else f.completed
        for seat, f in enumerate(finals)
    ]
    trilogy_fame = [
        sum(len(c.skills) for c in f.committed) // rules.skills_per_trilogy_fame for f in finals
    ]
    big = [0] * len(finals)
    sole_big = [0] * len(finals)
    for goal in big_goals:
        claim = [
            seat
            for seat, f in enumerate(finals)
            if condition_met(goal.condition, completed[seat], f.owned, len(f.committed))
        ]
        for seat in claim:
            big[seat] += goal.fame // len(claim)
            sole_big[seat] += len(claim) == 1
    projects = [sum(p.fame for p in done) for done in completed]
    bonuses = [sum(project_bonus(p, done) for p in done) for done in completed]
    small = [sum(g.fame for g in f.small_goals) for f in finals]
    abilities = [f.ability_fame for f in finals]
    scores = [
        trilogy_fame[s] + big[s] + projects[s] + bonuses[s] + small[s] + abilities[s]
        for s in range(len(finals))
    ]
    detail: dict[str, JSON] = {
        "trilogy": list(trilogy_fame),
        "trilogy_winner": winner,
        "big_goals": list(big),
        "projects": list(projects),
        "bonuses": list(bonuses),
        "small_goals": list(small),
        "abilities": list(abilities),
    }
    return Outcome.ranked(
        scores,
        (
            TieBreak("filmmakers in studio", tuple(len(f.owned) for f in finals)),
            TieBreak(
                "goals completed",
                tuple(len(f.small_goals) + sole_big[s] for s, f in enumerate(finals)),
            ),
        ),
        detail,
    )


def public_fame(fame: int, completed: Sequence[int], claimed: Sequence[int]) -> int:
    """Fame a seat holds in the open: ``fame`` from abilities, its ``completed`` projects and
    their bonuses, its ``claimed`` small goals (the trilogy and the big goals are scored at the
    end)."""
    done = [PROJECTS_BY_ID[p] for p in completed]
    return (
        fame
        + sum(p.fame + project_bonus(p, done) for p in done)
        + sum(GOALS[g].fame for g in claimed)
    )
