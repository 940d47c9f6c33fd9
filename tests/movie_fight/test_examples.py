"""The rulebook's placement example and its viewer scoring examples (cards 1-10 of the data
file, the viewers the book describes), each with the points the book gives.

The Elise scoring example is in test_scoring.py.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from games.movie_fight.cards import AUDIENCE, CARDS, SCREEN
from games.movie_fight.moves import Play
from games.movie_fight.scoring import assignments, floor_facts, measure, tier_points
from games.movie_fight.views import Floor
from tests.movie_fight.helpers import new_state


def viewer_points(
    viewer: int, audience: Sequence[int], screens: Sequence[int], upgraded: Sequence[int] = ()
) -> int:
    """What `viewer` scores at the end on a floor of these cards (wilds read at their best)."""
    facts = floor_facts(Floor(tuple(audience), tuple(screens)), tuple(sorted(upgraded)))
    card = CARDS[viewer]
    return max(
        tier_points(card.requirement, measure(card.requirement, facts, movies, card.viewer))
        for movies in assignments(facts.movies, final=True)
    )


# Screens by what they show: 43, 53, 48 a romance; 15 an action; 11 a fantasy; 57 a mystery;
# 22 a mystery with speakers; 23 a romance with a VibraSeat; 12 an action and a mystery;
# 14 a sci-fi; 45 a wild symbol. Viewers 1-5 are of five identities; 17 is the man in the
# blue shirt.
EXAMPLES = [
    ("two romances", 1, [1], [43, 53], [], 3),
    ("three romances", 1, [1], [43, 53, 48], [], 6),
    ("one romance", 1, [1], [43], [], 0),
    ("romance | action, with a gap", 2, [2], [43, 11, 15], [], 6),
    ("action before romance", 2, [2], [15, 43], [], 0),
    ("romance ? mystery", 3, [3], [43, 15, 57], [], 9),
    ("romance ? mystery, not consecutive", 3, [3], [43, 15, 11, 57], [], 9),
    ("romance then mystery with nothing between", 3, [3], [43, 57], [], 0),
    ("fantasy, mystery and speakers in any order", 4, [4], [22, 11], [], 7),
    ("no speakers", 4, [4], [11, 57], [], 0),
    ("the man in the blue shirt, a VibraSeat, a romance", 5, [5, 17], [23], [], 7),
    ("without the man in the blue shirt", 5, [5], [23], [], 0),
    ("five different viewers, herself included", 6, [6, 1, 2, 3, 4], [43], [], 8),
    ("five viewers of four identities", 6, [6, 1, 5, 2, 3], [43], [], 0),
    ("two upgraded screens", 7, [7], [43, 53, 11], [43, 53], 3),
    ("three upgraded screens", 7, [7], [43, 53, 11], [11, 43, 53], 6),
    ("upgraded viewers are not screens", 7, [7, 1, 2], [43], [1, 2], 0),
    ("two upgraded viewers", 8, [8, 1, 2], [43], [1, 2], 3),
    ("three upgraded viewers", 8, [8, 1, 2, 4], [43], [1, 2, 4], 6),
    ("four upgraded cards", 9, [9, 1, 2], [43, 53], [1, 2, 43, 53], 6),
    ("three upgraded cards", 9, [9, 1, 2], [43, 53], [1, 2, 43], 0),
    ("five genres", 10, [10], [43, 12, 14, 11], [], 8),
    ("five genres with a wild as the fifth", 10, [10], [43, 12, 14, 45], [], 8),
    ("four genres", 10, [10], [43, 12, 14], [], 0),
]


@pytest.mark.parametrize(
    ("viewer", "audience", "screens", "upgraded", "points"),
    [pytest.param(*case[1:], id=case[0]) for case in EXAMPLES],
)
def test_viewer_scoring_examples(
    viewer: int, audience: list[int], screens: list[int], upgraded: list[int], points: int
) -> None:
    assert viewer_points(viewer, audience, screens, upgraded) == points


def test_the_placement_example_a_card_goes_to_the_audience_or_the_screens() -> None:
    """Elise may slide a card into her 2nd floor from the left, as a viewer, or from the
    right, onto her screens."""
    state = new_state(2, seed=5)
    seat = state.to_move()[0]
    card = sorted(state.offer)[0]
    assert {Play(card, 2, AUDIENCE), Play(card, 2, SCREEN)} <= set(state.legal_moves(seat))
    as_viewer, on_screen = state.clone(), state.clone()
    as_viewer.apply(seat, Play(card, 2, AUDIENCE))
    on_screen.apply(seat, Play(card, 2, SCREEN))
    assert as_viewer.cinemas[seat].floors[1].audience == (card,)
    assert as_viewer.cinemas[seat].floors[1].screens == ()
    assert on_screen.cinemas[seat].floors[1].screens == (card,)
    assert on_screen.cinemas[seat].floors[1].audience == ()
