"""The rulebook's four project examples, one per project type, with the data file's cards.

Each example is checked twice: by the placement and completion rules, and through legal moves
of a real state (the filmmaker already beside the project, the new one shot from the hand).
"""

from __future__ import annotations

from dataclasses import replace

from games.motion_pictures.cards import FILMMAKERS, PROJECTS_BY_ID, Filmmaker, Project
from games.motion_pictures.moves import Shoot
from games.motion_pictures.rules import is_complete, may_place
from tests.motion_pictures.helpers import arrange, new_state


def named(code: str) -> Project:
    return next(p for p in PROJECTS_BY_ID if p.code == code)


def card(number: int) -> Filmmaker:
    return FILMMAKERS[number]


def shoot_second(project: Project, first: Filmmaker, second: Filmmaker) -> tuple[bool, bool]:
    """With `first` already beside `project` in slot 0, whether `second` may be shot there,
    and whether doing so completes the project."""
    state = new_state(2, "project examples")
    seat = state.start
    arrange(state, seat, [first, second, card(60)], {0: project})
    state.hands[seat].remove(first.id)
    state.placed[0][seat] = [first.id]
    state._settle()
    move = Shoot(second.id, 0)
    if move not in state.legal_moves(seat):
        return False, False
    state.apply(seat, move)
    return True, project.id in state.completed[seat]


def test_a_thriller_completed_by_the_other_skill_of_the_new_filmmaker() -> None:
    thriller = named("P10")
    assert (thriller.type, thriller.genre, len(thriller.needs)) == ("movie", "thriller", 2)
    placed, new = card(44), card(38)
    assert placed.skills == ("lighting",) and new.skills == ("editing", "music")
    assert not is_complete(thriller, [placed])
    assert is_complete(thriller, [placed, new])
    assert shoot_second(thriller, placed, new) == (True, True)


def test_a_commercial_needs_only_the_missing_specialty() -> None:
    commercial = named("P11")
    assert sorted(commercial.needs) == ["pre-production", "star"]
    star, pre = card(58), card(49)
    assert (star.specialty, pre.specialty) == ("star", "pre-production")
    assert not is_complete(commercial, [star])
    assert is_complete(commercial, [star, pre])
    assert shoot_second(commercial, star, pre) == (True, True)


def test_a_tv_series_takes_permitted_skills_and_needs_one_more() -> None:
    series = named("P15")
    assert series.type == "tv" and series.count == 3 and series.forbidden == ("lighting",)
    permitted, more = card(27), card(29)
    assert len(permitted.skills) == 2 and len(more.skills) == 1
    assert may_place(series, [], permitted)
    assert not is_complete(series, [permitted])
    assert not may_place(series, [], card(25)), "lighting is forbidden"
    assert is_complete(series, [permitted, more])
    assert shoot_second(series, permitted, more) == (True, True)


def test_an_award_refuses_a_filmmaker_with_a_skill_it_does_not_list() -> None:
    """The book's award asks for the camera skill only; no award of the data file is that
    small, so the example's project is one of them with its needs cut to a single camera."""
    award = replace(named("P18"), needs=("camera",))
    assert award.type == "award"
    assert not may_place(award, [], card(25)), "camera and lighting: lighting is not listed"
    assert may_place(award, [], card(31))
    assert is_complete(award, [card(31)])
    assert not may_place(award, [card(31)], card(34)), "no more camera is needed"
