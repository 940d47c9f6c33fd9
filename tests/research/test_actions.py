"""The fixed action universe: every legal move of every state has one id, and back."""

from __future__ import annotations

import pytest

from games import registry
from games.rng import Rng
from research.actions import action_space
from research.table import Table

MATCHES = 2


def test_every_legal_move_has_one_id_and_back(table: tuple[str, int]) -> None:
    game_id, players = table
    game = registry.get(game_id)
    space = action_space(game_id)
    for variant in game.variants()[:4]:
        for seed in range(MATCHES):
            match = Table.new(game, players, f"actions-{seed}", variant)
            match.tell = False
            rng = Rng(f"pick-{seed}".encode())
            while (seat := match.current()) is not None:
                legal = match.legal_moves(seat)
                ids = space.ids(legal)
                assert len(set(ids)) == len(legal)
                assert {space.move(i) for i in ids} == set(legal)
                match.play(rng.choice(legal))


@pytest.mark.parametrize("game_id", registry.ids())
def test_universe_is_enumerated_from_the_move_types(game_id: str) -> None:
    space = action_space(game_id)
    assert [type(move) for move in space.moves] == sorted(
        (type(move) for move in space.moves), key=registry.get(game_id).move_types.index
    )
    assert all(space.id(move) == index for index, move in enumerate(space.moves))
