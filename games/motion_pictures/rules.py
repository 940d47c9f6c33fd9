"""The four project types' placement and completion rules, goal conditions and bonuses.

Pure functions over card values. Only the filmmakers one player placed beside a project count
for that player: projects are never completed together.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

from games.motion_pictures.cards import (
    ADVANCED,
    ANY,
    AWARD,
    COMMERCIAL,
    MOVIE,
    PROJECT_FAME,
    PROJECTS,
    SPECIALTY,
    TRILOGY,
    TV,
    VARIETY,
    WILD,
    Condition,
    Filmmaker,
    Project,
)


def skills_of(filmmakers: Iterable[Filmmaker]) -> list[str]:
    return [skill for f in filmmakers for skill in f.skills]


def may_place(project: Project, mine: Sequence[Filmmaker], card: Filmmaker) -> bool:
    """Whether `card` may join the filmmakers this player already placed beside `project`."""
    if project.type == TV:
        return not any(skill in project.forbidden for skill in card.skills)
    if project.type == AWARD:
        skills = skills_of(mine) + list(card.skills)
        return len(skills) <= len(project.needs) and _fits(skills, project.needs)
    return True


def _fits(skills: Sequence[str], needs: Sequence[str]) -> bool:
    """Every non-wild skill is one of the needs (as a multiset); wilds fill whatever is left."""
    have = Counter(s for s in skills if s != WILD)
    need = Counter(needs)
    return all(need[s] >= n for s, n in have.items())


def is_complete(project: Project, mine: Sequence[Filmmaker]) -> bool:
    """Whether one player's own filmmakers meet every requirement of the project."""
    if project.type == MOVIE:
        return missing_skills(project.needs, skills_of(mine)) == 0
    if project.type == COMMERCIAL:
        have = Counter(f.specialty for f in mine)
        return all(have[s] >= n for s, n in Counter(project.needs).items())
    if project.type == TV:
        return len(skills_of(mine)) >= project.count
    if project.type == AWARD:
        skills = skills_of(mine)
        return len(skills) == len(project.needs) and _fits(skills, project.needs)
    raise ValueError(f"unknown project type {project.type!r}")


def missing_skills(needs: Sequence[str], skills: Sequence[str]) -> int:
    """How many of `needs` the skills leave unmet; an ``any`` need takes any skill, a wild
    skill meets any need."""
    return _missing_skills(tuple(needs), tuple(skills))


@lru_cache(maxsize=16384)
def _missing_skills(needs: tuple[str, ...], skills: tuple[str, ...]) -> int:
    """Cached: the heuristic asks it of the same few projects and hands again and again."""
    need = Counter(s for s in needs if s != ANY)
    have = Counter(s for s in skills if s != WILD)
    wilds = len(skills) - sum(have.values())
    short = sum(max(0, n - have[s]) for s, n in need.items())
    spare = sum(max(0, n - need[s]) for s, n in have.items())
    covered = min(short, wilds)
    open_any = len(needs) - sum(need.values())
    return short - covered + max(0, open_any - spare - (wilds - covered))


def missing(project: Project, mine: Sequence[Filmmaker]) -> int:
    """How many more skills (or specialties) the player must still bring to complete it."""
    if project.type == MOVIE:
        return missing_skills(project.needs, skills_of(mine))
    if project.type == COMMERCIAL:
        return _missing_specialties(tuple(project.needs), tuple(f.specialty for f in mine))
    if project.type == TV:
        return max(0, project.count - len(skills_of(mine)))
    return len(project.needs) - len(skills_of(mine))


@lru_cache(maxsize=16384)
def _missing_specialties(needs: tuple[str, ...], specialties: tuple[str, ...]) -> int:
    have = Counter(specialties)
    return sum(max(0, n - have[s]) for s, n in Counter(needs).items())


def kinds_count(completed: Sequence[Project], kind: str) -> int:
    return sum(1 for p in completed if p.is_kind(kind))


def variety(completed: Sequence[Project]) -> int:
    """Distinct kinds among completed projects: each genre, commercial, TV series, award."""
    return len({p.kind for p in completed})


def condition_met(
    condition: Condition,
    completed: Sequence[Project],
    owned: Sequence[Filmmaker],
    committed: int,
) -> bool:
    """A goal condition against a player's completed projects, owned filmmakers (not fired,
    not on the trilogy) and the number of filmmakers committed to the trilogy."""
    kind, count = condition.kind, condition.count
    if condition.type == PROJECTS:
        return kinds_count(completed, kind) >= count
    if condition.type == VARIETY:
        return variety(completed) >= count
    if condition.type == PROJECT_FAME:
        return sum(p.fame for p in completed) >= count
    if condition.type == SPECIALTY:
        return sum(1 for f in owned if kind in (ANY, f.specialty)) >= count
    if condition.type == ADVANCED:
        return sum(1 for f in owned if f.start == 0) >= count
    if condition.type == TRILOGY:
        return committed >= count
    raise ValueError(f"unknown condition type {condition.type!r}")


def project_bonus(project: Project, completed: Sequence[Project]) -> int:
    """The end-game fame of a blue project: its bonus per *other* completed project of a kind."""
    if project.bonus is None:
        return 0
    others = sum(1 for p in completed if p is not project and p.is_kind(project.bonus.kind))
    return project.bonus.fame * others
