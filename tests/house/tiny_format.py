"""A throwaway league format, Rotation: one table a round, its seats the league's bots rotated
by one each round, for as many rounds as there are bots, so every bot starts once. It is the
whole of adding a format: this module, placed among the formats (tests/house/test_sixth_game.py
puts it there at start-up rather than in the product's folder)."""

from __future__ import annotations

from games.rng import derive_seed
from workers.formats.declaration import LeagueFormat, RoundRequest, Table


def _plan(request: RoundRequest) -> list[Table]:
    bots = request.bots
    shift = (request.number - 1) % len(bots)
    seats = (bots[shift:] + bots[:shift])[: request.players]
    return [Table(tuple(seats), derive_seed(request.seed, "rotation", request.number).hex())]


FORMAT = LeagueFormat("rotation", _plan, lambda bots, _players: bots, min_bots=2)
