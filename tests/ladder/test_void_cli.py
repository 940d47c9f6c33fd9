"""`premiere matches void`: an operator takes a finished, rated match off the ladder."""

from __future__ import annotations

import psycopg
import pytest
from click.testing import CliRunner

from ladder.store import rate_finished
from premiere.cli import main
from tests.ladder.synthetic import Synthetic, add_bots, insert_matches


@pytest.fixture
def database_url(cli_database_url: str) -> str:
    return cli_database_url


def test_void_removes_a_rated_match_and_replays_the_rest(database_url: str) -> None:
    with psycopg.connect(database_url, autocommit=True) as conn:
        bots = add_bots(conn, ["ann", "bob"])
        ids = insert_matches(
            conn, [Synthetic(("ann", "bob"), (1, 2)), Synthetic(("ann", "bob"), (2, 1))], bots
        )
        assert rate_finished(database_url) == 2
        runner = CliRunner()
        result = runner.invoke(main, ["matches", "void", ids[0], "--reason", "a bug"])
        assert result.exit_code == 0, result.output
        assert "voided" in result.output
        status, reason = conn.execute(
            "SELECT status, void_reason FROM matches WHERE id = %s", (ids[0],)
        ).fetchone()
        assert (status, reason) == ("void", "a bug")
        history = conn.execute(
            "SELECT count(*) FROM rating_history WHERE match_id = %s", (ids[0],)
        ).fetchone()
        assert history == (0,)
        games = dict(
            conn.execute(
                "SELECT b.name, r.games FROM ratings r JOIN bots b ON b.id = r.bot_id"
            ).fetchall()
        )
        assert games == {"ann": 1, "bob": 1}
        again = runner.invoke(main, ["matches", "void", ids[0], "--reason", "twice"])
        assert again.exit_code == 0 and "already void" in again.output
        missing = runner.invoke(
            main, ["matches", "void", "00000000-0000-0000-0000-000000000000", "--reason", "x"]
        )
        assert missing.exit_code == 1 and "no match" in missing.output
