"""The Motion Pictures heuristic: legal, deterministic, and clearly better than random play."""

from __future__ import annotations

import pytest

from games.motion_pictures.cards import FILMMAKERS, PROJECTS_BY_ID
from games.motion_pictures.heuristic import card_value, completion_plan
from games.motion_pictures.moves import Audition, CommitTrilogy, HireAny, HireMatch
from games.play import play_match
from tests.motion_pictures.helpers import GAME, project, starting


@pytest.mark.parametrize("players", [2, 3, 4])
def test_heuristic_beats_every_random_seat(players: int) -> None:
    matches = 12
    rank_sum = [0] * players
    for index in range(matches):
        seat = index % players
        bots = ["random"] * players
        bots[seat] = "heuristic"
        record = play_match(GAME, players, f"heuristic-test/{index}", bots)
        assert record.illegal == 0
        for offset in range(players):
            rank_sum[offset] += record.outcome.ranks[(seat + offset) % players]
    mean = [total / matches for total in rank_sum]
    assert all(mean[0] + 0.5 < other for other in mean[1:]), mean


def test_heuristic_matches_are_deterministic_by_seed() -> None:
    first = play_match(GAME, 3, "same", ["heuristic"] * 3)
    again = play_match(GAME, 3, "same", ["heuristic"] * 3)
    assert first.moves == again.moves
    assert first.outcome == again.outcome


def test_completion_plan_uses_the_hand_or_says_it_cannot() -> None:
    ad = project(lambda p: p.type == "commercial" and len(p.needs) == 2)
    a, b = (starting(0, s) for s in ad.needs)
    assert completion_plan(ad, [], [a, b]) is not None
    assert completion_plan(ad, [a], [b]) == [b]
    assert completion_plan(ad, [], [a]) is None
    assert all(p.id == i for i, p in enumerate(PROJECTS_BY_ID))


def test_advanced_filmmakers_are_worth_more_than_starting_ones() -> None:
    starters = [card_value(f) for f in FILMMAKERS if f.start]
    advanced = [card_value(f) for f in FILMMAKERS if not f.start]
    assert max(starters) < sum(advanced) / len(advanced)


def test_heuristic_hires_and_buries_starting_filmmakers_on_the_trilogy() -> None:
    committed: list[int] = []
    hired = 0
    for index in range(4):
        record = play_match(GAME, 3, f"thinning/{index}", ["heuristic"] * 3)
        committed += [m.card for _, m in record.moves if isinstance(m, CommitTrilogy)]
        hired += sum(isinstance(m, HireMatch | HireAny | Audition) for _, m in record.moves)
    assert committed and hired >= 4
    starters = sum(1 for c in committed if FILMMAKERS[c].start)
    assert starters >= 0.8 * len(committed), (starters, len(committed))
