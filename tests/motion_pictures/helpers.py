"""Build Motion Pictures states, find cards by what they are, and set up exact situations."""

from __future__ import annotations

from collections.abc import Callable

from games.motion_pictures import MotionPictures, MotionPicturesState
from games.motion_pictures.cards import DATA, FILMMAKERS, PROJECTS_BY_ID, Filmmaker, Project
from games.rng import Rng, derive_seed

GAME = MotionPictures()


def new_state(players: int, seed: int | str = 1) -> MotionPicturesState:
    state = GAME.new(players, seed)
    assert isinstance(state, MotionPicturesState)
    return state


def filmmaker(where: Callable[[Filmmaker], bool], skip: int = 0) -> Filmmaker:
    return [f for f in FILMMAKERS if where(f)][skip]


def advanced_with(effect: str, skip: int = 0) -> Filmmaker:
    return filmmaker(
        lambda f: f.start == 0 and f.ability is not None and f.ability.effect == effect, skip
    )


def project(where: Callable[[Project], bool], skip: int = 0) -> Project:
    return [p for p in PROJECTS_BY_ID if where(p)][skip]


def starting(seat: int, specialty: str) -> Filmmaker:
    return filmmaker(lambda f: f.start == seat + 1 and f.specialty == specialty)


def arrange(
    state: MotionPicturesState,
    seat: int,
    hand: list[Filmmaker],
    slots: dict[int, Project] | None = None,
) -> None:
    """Give `seat` the turn with exactly this hand (cards leave wherever else they were), and
    put these projects in these slots."""
    ids = [f.id for f in hand]
    for s in range(state.players):
        for pile in (state.hands[s], state.draws[s], state.discards[s]):
            pile[:] = [c for c in pile if c not in ids]
    state.deck = [c for c in state.deck if c not in ids]
    state.row = [c for c in state.row if c not in ids]
    state.hands[seat] = sorted(ids)
    for slot, p in (slots or {}).items():
        state.slots[slot] = p.id
    state.turn = seat
    state.phase = "action"
    state._settle()


def play_randomly(state: MotionPicturesState, seed: int | str = 0) -> None:
    rng = Rng(derive_seed("motion-pictures-test", seed))
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))


__all__ = ["DATA", "GAME"]


def quiet_row(state: MotionPicturesState) -> list[int]:
    """A row of four advanced filmmakers without abilities, of four specialties."""
    chosen: list[int] = []
    for f in FILMMAKERS:
        taken = {FILMMAKERS[c].specialty for c in chosen}
        if f.start == 0 and f.ability is None and f.specialty not in taken and len(chosen) < 4:
            chosen.append(f.id)
    state.deck = [c for c in state.deck if c not in chosen] + [
        c for c in state.row if c not in chosen
    ]
    state.row = list(chosen)
    state.row_order = [0, 1, 2, 3]
    return chosen
