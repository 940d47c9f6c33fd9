"""Every game at every table size it is played at, from the registry; the checks that play
whole matches through a library's own test run at fewer tables (`SMALLEST`, `LARGEST`,
`EDGES`), the cheap ones at every table."""

from __future__ import annotations

import pytest

from games import registry

TABLES = [(game.id, players) for game in registry.all_games() for players in game.player_counts]
SMALLEST = [(game.id, min(game.player_counts)) for game in registry.all_games()]
LARGEST = [(game.id, max(game.player_counts)) for game in registry.all_games()]
EDGES = sorted(set(SMALLEST) | set(LARGEST))
"""Each game at its smallest and its largest table."""


def table_id(table: tuple[str, int]) -> str:
    return f"{table[0]}-{table[1]}"


def tables(chosen: list[tuple[str, int]]) -> pytest.MarkDecorator:
    """Parametrize a test's ``table`` over some tables."""
    return pytest.mark.parametrize("table", chosen, ids=[table_id(t) for t in chosen])


@pytest.fixture(params=TABLES, ids=[table_id(t) for t in TABLES])
def table(request: pytest.FixtureRequest) -> tuple[str, int]:
    game_id, players = request.param
    return game_id, players


from tests.integration.conftest import arbiter, database_url  # noqa: E402

__all__ = ["arbiter", "database_url", "table"]
