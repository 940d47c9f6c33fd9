"""Movie Fight's estimate for a search that stops its playouts short (`Game.estimate`)."""

from __future__ import annotations

from games.movie_fight.evaluation import hope
from games.rng import Rng, derive_seed
from tests.movie_fight.helpers import GAME, cinema, new_state, play_randomly


def test_the_estimate_of_an_ended_match_is_its_final_score() -> None:
    state = new_state(2, "estimate-end")
    play_randomly(state, "estimate-end")
    outcome = state.outcome()
    assert outcome is not None
    assert GAME.estimate(state) == tuple(float(score) for score in outcome.scores)


def test_the_estimate_adds_hope_to_the_score_now() -> None:
    state = new_state(2, "estimate-mid")
    rng = Rng(derive_seed("estimate-mid", 0))
    for _ in range(12):
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))
    estimate = GAME.estimate(state)
    assert estimate is not None
    now = state.current_scores()
    assert all(e >= s for e, s in zip(estimate, now, strict=True))
    assert any(e > s for e, s in zip(estimate, now, strict=True))


def test_an_unsatisfied_viewer_is_worth_hope_until_the_last_card() -> None:
    empty = cinema(1, ((), ()))
    viewer = cinema(1, ((5,), ()))
    assert hope(empty, "A") == 0.0
    assert hope(viewer, "A") > 0.0
    full = cinema(1, ((5, 6, 7, 8, 9, 10), ()), ((11, 12, 13, 14, 15, 16), ()))
    assert hope(full, "A") == 0.0


def test_the_solo_game_has_no_estimate() -> None:
    assert GAME.estimate(new_state(1, "estimate-solo")) is None
