"""Drive Magic Trick states to interesting points with plain, readable steps."""

from __future__ import annotations

from games.magic_trick import MagicTrick, MagicTrickState
from games.magic_trick.moves import KeepSleeveEmpty, PlayCard, SleeveCard, SortCard

GAME = MagicTrick()


def new_state(players: int, seed: int = 1, prestige: bool = True) -> MagicTrickState:
    state = GAME.new(players, seed, {"prestige": prestige})
    assert isinstance(state, MagicTrickState)
    return state


def finish_sorting(state: MagicTrickState) -> None:
    """Every sorter places equal ranks in the offered (suit) order."""
    while state.phase == "sort":
        seat = state.to_move()[0]
        move = state.legal_moves(seat)[0]
        assert isinstance(move, SortCard)
        state.apply(seat, move)


def play_first_legal(state: MagicTrickState, sleeve: bool = False) -> PlayCard:
    """The seat to move plays its first legal card, then keeps or sleeves if asked."""
    seat = state.turn
    move = state.legal_moves(seat)[0]
    assert isinstance(move, PlayCard)
    state.apply(seat, move)
    if state.to_move() == (seat,) and state.pending == "sleeve":
        choice = state.legal_moves(seat)[0] if sleeve else KeepSleeveEmpty()
        assert isinstance(choice, SleeveCard | KeepSleeveEmpty)
        state.apply(seat, choice)
    return move
