"""The Movie Tricks heuristic: legal, deterministic, and clearly better than random play."""

from __future__ import annotations

import pytest

from games.movie_tricks.heuristic import context, gain, projected_score, slot_values
from games.movie_tricks.views import MovieTricksObservation
from games.play import play_match
from tests.movie_tricks.helpers import GAME, card, new_state


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("family", [False, True])
def test_heuristic_beats_every_random_seat(players: int, family: bool) -> None:
    matches = 40
    rank_sum = [0] * players
    for index in range(matches):
        seat = index % players
        bots = ["random"] * players
        bots[seat] = "heuristic"
        record = play_match(GAME, players, f"heuristic-test/{index}", bots, {"family": family})
        assert record.illegal == 0
        for offset in range(players):
            rank_sum[offset] += record.outcome.ranks[(seat + offset) % players]
    mean = [total / matches for total in rank_sum]
    assert all(mean[0] + 0.5 < other for other in mean[1:]), mean


def test_heuristic_matches_are_deterministic_by_seed() -> None:
    first = play_match(GAME, 4, "same", ["heuristic"] * 4)
    again = play_match(GAME, 4, "same", ["heuristic"] * 4)
    assert first.moves == again.moves
    assert first.outcome == again.outcome


def observation_at_first_draft(players: int) -> MovieTricksObservation:
    state = new_state(players, 3)
    while state.phase != "draft":
        seat = state.to_move()[0]
        state.apply(seat, state.legal_moves(seat)[0])
    return state.observe(state.to_move()[0])


def test_projection_values_a_completed_movie_and_a_filled_column() -> None:
    ctx = context(observation_at_first_draft(3))
    three = [[card("green-10")], [card("red-9")], [card("red-10")], []]
    assert gain(three, card("yellow-10"), ctx) > 10
    assert gain(three, card("yellow-10"), ctx) > gain(three, card("red-8"), ctx)
    assert projected_score(three, ctx) > 0


def test_slot_values_fall_with_the_place_in_the_draft() -> None:
    values = slot_values([9.0, 4.0, 1.0, 0.0], 4)
    assert values[0] == 9.0
    assert values == sorted(values, reverse=True)
    assert values[3] >= 0.0
