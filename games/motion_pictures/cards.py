"""Motion Pictures card data, read once from the versioned ``cards.toml`` shipped with the package.

Filmmakers, projects, trilogy cards and goals each get integer ids in file order, so engine
state and moves are plain ints. Abilities and goal conditions come from a small vocabulary
(the constants below); the rules implement each type once.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

SOURCES = ("rulebook", "reconstructed")

MOVIE = "movie"
COMMERCIAL = "commercial"
TV = "tv"
AWARD = "award"
PROJECT_TYPES = (MOVIE, COMMERCIAL, TV, AWARD)
GENRES = ("comedy", "drama", "action", "thriller")
ANY = "any"
KINDS = (*GENRES, MOVIE, COMMERCIAL, TV, AWARD, ANY)
"""What a bonus or a condition may count: a genre, a project type, or any project."""

ON_PLAY = "play"
ON_HIRE = "hire"
ONGOING = "ongoing"
ON_COMPLETE = "complete"
TIMINGS = (ON_PLAY, ON_HIRE, ONGOING)

DRAW = "draw"
AUDITION = "audition"
FAME = "fame"
FIRE = "fire"
IMMEDIATE_EFFECTS = (DRAW, AUDITION, FAME, FIRE)
HIRE_DISCOUNT = "hire_discount"
COMPLETION_FAME = "completion_fame"
RECRUIT_DRAW = "recruit_draw"
ONGOING_EFFECTS = (HIRE_DISCOUNT, COMPLETION_FAME, RECRUIT_DRAW)

PROJECTS = "projects"
VARIETY = "variety"
PROJECT_FAME = "project_fame"
SPECIALTY = "specialty"
ADVANCED = "advanced"
TRILOGY = "trilogy"
CONDITIONS = (PROJECTS, VARIETY, PROJECT_FAME, SPECIALTY, ADVANCED, TRILOGY)


@dataclass(frozen=True, slots=True)
class Ability:
    """``effect`` of strength ``amount``, applied at ``timing`` (play, hire, ongoing, complete)."""

    timing: str
    effect: str
    amount: int


@dataclass(frozen=True, slots=True)
class Filmmaker:
    """A filmmaker card; ``start`` is the starting set (1-4) it belongs to, 0 if advanced."""

    id: int
    code: str
    name: str
    specialty: str
    skills: tuple[str, ...]
    start: int
    ability: Ability | None


@dataclass(frozen=True, slots=True)
class Bonus:
    """Blue background: ``fame`` per other completed project of ``kind`` at the end."""

    kind: str
    fame: int


@dataclass(frozen=True, slots=True)
class Project:
    """A project card. ``needs`` are skills (movie, award) or specialties (commercial); a TV
    series forbids ``forbidden`` skills and needs ``count`` skills."""

    id: int
    code: str
    name: str
    era: int
    type: str
    genre: str | None
    needs: tuple[str, ...]
    forbidden: tuple[str, ...]
    count: int
    fame: int
    ability: Ability | None
    bonus: Bonus | None

    def is_kind(self, kind: str) -> bool:
        return kind in (ANY, self.type, self.genre)

    @property
    def kind(self) -> str:
        """The finest kind: the genre of a movie, else the type."""
        return self.genre or self.type


@dataclass(frozen=True, slots=True)
class Trilogy:
    """A trilogy card; its winner keeps it as a completed movie of ``genre``."""

    id: int
    code: str
    name: str
    genre: str
    fame: int


@dataclass(frozen=True, slots=True)
class Condition:
    """A goal's requirement: at least ``count`` of ``type`` (restricted to ``kind``)."""

    type: str
    kind: str
    count: int


@dataclass(frozen=True, slots=True)
class Goal:
    id: int
    code: str
    name: str
    big: bool
    condition: Condition
    fame: int


@dataclass(frozen=True)
class Rules:
    row: int
    row_colours: int
    hand: int
    eras: int
    projects_per_side: int
    big_goals: int
    trilogy_bonus: int
    skills_per_trilogy_fame: int
    hire_match_cost: int
    hire_any_cost: int
    audition_cost: int
    era_pile: Mapping[int, int]
    era_rounds: int


@dataclass(frozen=True)
class CardData:
    version: int
    wild: str
    skills: tuple[str, ...]
    specialties: tuple[str, ...]
    filmmakers: tuple[Filmmaker, ...]
    projects: tuple[Project, ...]
    trilogies: tuple[Trilogy, ...]
    goals: tuple[Goal, ...]
    rules: Rules
    sources: Mapping[str, str]
    """Card code to "rulebook" or "reconstructed"."""

    def starting(self, start: int) -> tuple[int, ...]:
        return tuple(f.id for f in self.filmmakers if f.start == start)

    @property
    def advanced(self) -> tuple[int, ...]:
        return tuple(f.id for f in self.filmmakers if f.start == 0)

    def era_projects(self, era: int) -> tuple[int, ...]:
        return tuple(p.id for p in self.projects if p.era == era)


def _sourced(entry: Mapping[str, Any], where: str) -> Mapping[str, Any]:
    if entry.get("source") not in SOURCES:
        raise ValueError(f"cards.toml: {where} has no valid source (rulebook or reconstructed)")
    return entry


def _ability(raw: Mapping[str, Any] | None, timing: str | None, where: str) -> Ability | None:
    if raw is None:
        return None
    ability = Ability(timing or raw["timing"], raw["effect"], int(raw["amount"]))
    allowed = ONGOING_EFFECTS if ability.timing == ONGOING else IMMEDIATE_EFFECTS
    if ability.timing not in (*TIMINGS, ON_COMPLETE) or ability.effect not in allowed:
        raise ValueError(f"cards.toml: {where} has an ability outside the vocabulary: {raw}")
    return ability


def parse(raw: Mapping[str, Any]) -> CardData:
    """Build the card tables from parsed TOML, refusing entries outside the vocabulary."""
    sources: dict[str, str] = {}

    def source(entry: Mapping[str, Any]) -> Mapping[str, Any]:
        sources[entry["code"]] = _sourced(entry, entry["code"])["source"]
        return entry

    skills = tuple(_sourced(s, "a skill")["name"] for s in raw["skills"])
    specialties = tuple(_sourced(s, "a specialty")["name"] for s in raw["specialties"])
    wild = str(raw["wild"])
    filmmakers: list[Filmmaker] = []
    for entry in map(source, raw["filmmakers"]):
        card = Filmmaker(
            id=len(filmmakers),
            code=entry["code"],
            name=entry["name"],
            specialty=entry["specialty"],
            skills=tuple(entry["skills"]),
            start=int(entry["start"]),
            ability=_ability(entry.get("ability"), None, entry["code"]),
        )
        if card.specialty not in specialties or not set(card.skills) <= {*skills, wild}:
            raise ValueError(f"cards.toml: {card.code} has an unknown specialty or skill")
        filmmakers.append(card)
    projects: list[Project] = []
    for entry in map(source, raw["projects"]):
        bonus = entry.get("bonus")
        project = Project(
            id=len(projects),
            code=entry["code"],
            name=entry["name"],
            era=int(entry["era"]),
            type=entry["type"],
            genre=entry.get("genre"),
            needs=tuple(entry.get("needs", ())),
            forbidden=tuple(entry.get("forbidden", ())),
            count=int(entry.get("count", 0)),
            fame=int(entry["fame"]),
            ability=_ability(entry.get("ability"), ON_COMPLETE, entry["code"]),
            bonus=Bonus(bonus["kind"], int(bonus["fame"])) if bonus else None,
        )
        vocabulary = specialties if project.type == COMMERCIAL else (*skills, wild)
        if (
            project.type not in PROJECT_TYPES
            or (project.type == MOVIE) != (project.genre in GENRES)
            or not set(project.needs) <= set(vocabulary)
            or (project.bonus is not None and project.bonus.kind not in KINDS)
        ):
            raise ValueError(f"cards.toml: {project.code} is outside the vocabulary")
        projects.append(project)
    trilogies = tuple(
        Trilogy(i, e["code"], e["name"], e["genre"], int(e["fame"]))
        for i, e in enumerate(map(source, raw["trilogies"]))
    )
    goals: list[Goal] = []
    for table, big in (("big_goals", True), ("small_goals", False)):
        for entry in map(source, raw[table]):
            c = entry["condition"]
            condition = Condition(c["type"], c["kind"], int(c["count"]))
            if condition.type not in CONDITIONS or condition.kind not in (*KINDS, *specialties):
                raise ValueError(f"cards.toml: {entry['code']} has an unknown condition")
            goals.append(
                Goal(len(goals), entry["code"], entry["name"], big, condition, int(entry["fame"]))
            )
    rules = _sourced(raw["rules"], "[rules]")
    limits = _sourced(raw["limits"], "[limits]")
    return CardData(
        version=int(raw["version"]),
        wild=wild,
        skills=skills,
        specialties=specialties,
        filmmakers=tuple(filmmakers),
        projects=tuple(projects),
        trilogies=trilogies,
        goals=tuple(goals),
        rules=Rules(
            row=int(rules["row"]),
            row_colours=int(rules["row_colours"]),
            hand=int(rules["hand"]),
            eras=int(rules["eras"]),
            projects_per_side=int(rules["projects_per_side"]),
            big_goals=int(rules["big_goals"]),
            trilogy_bonus=int(rules["trilogy_bonus"]),
            skills_per_trilogy_fame=int(rules["skills_per_trilogy_fame"]),
            hire_match_cost=int(rules["hire_match_cost"]),
            hire_any_cost=int(rules["hire_any_cost"]),
            audition_cost=int(rules["audition_cost"]),
            era_pile={
                int(e["players"]): int(e["projects"])
                for e in (_sourced(e, "an era pile size") for e in rules["era_pile"])
            },
            era_rounds=int(limits["era_rounds"]),
        ),
        sources=sources,
    )


def load() -> CardData:
    """The packaged card data."""
    text = resources.files("games.motion_pictures").joinpath("cards.toml").read_text("utf-8")
    return parse(tomllib.loads(text))


DATA = load()
FILMMAKERS: tuple[Filmmaker, ...] = DATA.filmmakers
PROJECTS_BY_ID: tuple[Project, ...] = DATA.projects
GOALS: tuple[Goal, ...] = DATA.goals
WILD = DATA.wild
