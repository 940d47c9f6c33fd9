"""Simultaneous steps served in turn: held answers are applied together and never seen."""

from __future__ import annotations

import pytest

from games import registry
from games.rng import Rng
from research.table import Table
from tests.research.conftest import EDGES, TABLES, table_id


def _simultaneous(game_id: str, players: int, seed: int) -> Table | None:
    """A table with one answer held in a simultaneous step, if a few matches reach one."""
    game = registry.get(game_id)
    for variant in game.variants():
        match = Table.new(game, players, f"simultaneous-{seed}", variant)
        rng = Rng(f"held-{seed}".encode())
        while (seat := match.current()) is not None:
            step = len(match.state.to_move())
            match.play(rng.choice(match.legal_moves(seat)))
            if step > 1:
                return match
    return None


SIMULTANEOUS = [t for t in TABLES if _simultaneous(*t, 0) is not None]


def test_some_games_have_simultaneous_steps() -> None:
    assert {game for game, _ in SIMULTANEOUS} >= {"magic-trick"}


@pytest.mark.parametrize("table", SIMULTANEOUS, ids=[table_id(t) for t in SIMULTANEOUS])
def test_held_answers_are_not_applied_nor_seen(table: tuple[str, int]) -> None:
    match = _simultaneous(*table, 1)
    assert match is not None
    ((held_seat, held_move),) = match.held.items()
    waiting = match.current()
    assert waiting is not None and waiting != held_seat
    assert match.legal_moves(held_seat) == ()
    assert held_seat in match.state.to_move()
    assert match.state.is_legal(held_seat, held_move)
    drawn = set()
    for seed in range(8):
        resampled = match.resample(waiting, Rng(f"resample-{seed}".encode()))
        assert resampled.observe(waiting) == match.observe(waiting)
        assert resampled.current() == waiting
        assert resampled.held.keys() == match.held.keys()
        assert resampled.held[held_seat] in resampled.state.legal_moves(held_seat)
        drawn.add(resampled.held[held_seat])
    if len(match.state.legal_moves(held_seat)) > 2:
        assert len(drawn) > 1


@pytest.mark.parametrize("table", EDGES, ids=[table_id(t) for t in EDGES])
def test_what_each_seat_was_told_is_the_same_read_late_or_as_it_goes(
    table: tuple[str, int],
) -> None:
    """A playout only logs its answers; `told` read at the end (or on a clone taken midway)
    replays them to the same words as a table read after every answer."""
    game = registry.get(table[0])
    eager = Table.new(game, *table[1:], "told")
    late = Table.new(game, *table[1:], "told")
    rng = Rng(b"told")
    clone: Table | None = None
    while (seat := eager.current()) is not None:
        move = rng.choice(eager.legal_moves(seat))
        eager.play(move)
        late.play(move)
        assert eager.told is not None
        if clone is None and len(eager.told[0]) > 5:
            clone = late.clone()
            assert clone.told == eager.told
    assert late.told == eager.told
    assert all(len(told) == len(late.told[0]) > 5 for told in late.told)
    assert clone is not None and clone.told != late.told
