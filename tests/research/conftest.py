"""Every game at every table size it is played at, from the registry."""

from __future__ import annotations

import pytest

from games import registry

TABLES = [(game.id, players) for game in registry.all_games() for players in game.player_counts]


def table_id(table: tuple[str, int]) -> str:
    return f"{table[0]}-{table[1]}"


@pytest.fixture(params=TABLES, ids=[table_id(t) for t in TABLES])
def table(request: pytest.FixtureRequest) -> tuple[str, int]:
    game_id, players = request.param
    return game_id, players


from tests.integration.conftest import arbiter, database_url  # noqa: E402

__all__ = ["arbiter", "database_url", "table"]
