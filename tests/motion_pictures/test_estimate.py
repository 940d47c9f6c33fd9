"""Motion Pictures' estimate for a search that stops its playouts short (`Game.estimate`)."""

from __future__ import annotations

from games.rng import Rng, derive_seed
from tests.motion_pictures.helpers import GAME, new_state, play_randomly


def test_the_estimate_of_an_ended_match_is_its_final_score() -> None:
    state = new_state(2, "estimate-end")
    play_randomly(state, "estimate-end")
    outcome = state.outcome()
    assert outcome is not None
    assert state.scored() == outcome
    assert GAME.estimate(state) == tuple(float(score) for score in outcome.scores)


def test_projects_under_way_and_advanced_filmmakers_add_to_the_score_as_it_stands() -> None:
    state = new_state(2, "estimate-mid")
    rng = Rng(derive_seed("estimate-mid", 0))
    seen_more = False
    while not state.is_over():
        estimate = GAME.estimate(state)
        assert estimate is not None
        scored = state.scored().scores
        assert all(e >= s for e, s in zip(estimate, scored, strict=True))
        under_way = any(placed[seat] for placed in state.placed for seat in range(2))
        if under_way:
            assert any(e > s for e, s in zip(estimate, scored, strict=True))
            seen_more = True
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))
    assert seen_more
