"""`premiere ladder anchor`: the operator pins, lists and unpins anchors; nobody else can. A
hostile author holds its bot's token and reaches the ladder's HTTP and gRPC ports (and, at
most, the read-only database role Grafana uses): none of them changes an anchor."""

from __future__ import annotations

import urllib.error
import urllib.request
import uuid
from pathlib import Path

import grpc
import psycopg
import pytest
from click.testing import CliRunner

from ladder.store import rate_finished
from premiere.cli import main
from server.bots import add_bot
from tests.ladder.synthetic import GAME, Synthetic, insert_matches
from tests.ladder.test_api import Ladder


@pytest.fixture
def database_url(cli_database_url: str) -> str:
    return cli_database_url


def _anchors(database_url: str) -> list[tuple[str, str, float]]:
    with psycopg.connect(database_url) as conn:
        return [
            tuple(row) for row in conn.execute("SELECT game, builtin, rating FROM ladder_anchors")
        ]


def test_the_operator_sets_lists_and_removes_anchors(database_url: str) -> None:
    runner = CliRunner()
    done = runner.invoke(main, ["ladder", "anchor", "set", GAME, "builtin:search:100", "1750"])
    assert done.exit_code == 0, done.output
    assert _anchors(database_url) == [(GAME, "search:100", 1750.0)]
    listed = runner.invoke(main, ["ladder", "anchor", "list"])
    assert listed.exit_code == 0 and f"{GAME}\tbuiltin:search:100\t1750" in listed.output
    for wrong in (
        ["no-game", "builtin:random", "1"],
        [GAME, "some-bot", "1"],
        [GAME, "builtin:x", "1"],
    ):
        refused = runner.invoke(main, ["ladder", "anchor", "set", *wrong])
        assert refused.exit_code != 0 and "Traceback" not in refused.output, refused.output
    gone = runner.invoke(main, ["ladder", "anchor", "remove", GAME, "builtin:search:100"])
    assert gone.exit_code == 0 and _anchors(database_url) == []
    again = runner.invoke(main, ["ladder", "anchor", "remove", GAME, "builtin:search:100"])
    assert again.exit_code == 1 and "not pinned" in again.output
    mixed = runner.invoke(main, ["ladder", "--no-migrate", "anchor", "list"])
    assert mixed.exit_code == 2


def test_a_hostile_author_cannot_pin_anything(database_url: str, tmp_path: Path) -> None:
    token = add_bot(database_url, "mallory")
    with psycopg.connect(database_url) as conn:
        row = conn.execute("SELECT id FROM bots WHERE name = 'mallory'").fetchone()
        assert row is not None
        bots = {"mallory": int(row[0])}
        insert_matches(conn, [Synthetic(("mallory", "builtin:random"), (1, 2))], bots)
    assert rate_finished(database_url) == 1
    ladder = Ladder(database_url, tmp_path / "ladder.log")
    try:
        ladder.wait_serving()
        body = b'{"player": "builtin:random", "rating": 9999}'
        for path in (
            f"/api/games/{GAME}/anchors",
            f"/api/games/{GAME}/anchors/builtin:random",
            f"/api/games/{GAME}/leaderboard",
        ):
            for method in ("POST", "PUT", "PATCH", "DELETE"):
                request = urllib.request.Request(
                    ladder.http + path,
                    data=body,
                    method=method,
                    headers={
                        "Authorization": f"Bearer {token}",
                        "Content-Type": "application/json",
                    },
                )
                with pytest.raises(urllib.error.HTTPError) as refused:
                    urllib.request.urlopen(request, timeout=10)
                assert refused.value.code in (404, 405), (method, path)
        for method in ("SetAnchor", "PinPlayer"):
            call = ladder.channel.unary_unary(
                f"/premiere.v1.LadderService/{method}",
                request_serializer=None,
                response_deserializer=None,
            )
            with pytest.raises(grpc.RpcError) as error:
                call(body, metadata=(("authorization", f"Bearer {token}"),), timeout=10)
            assert error.value.code() == grpc.StatusCode.UNIMPLEMENTED
        board = ladder.get(f"/api/games/{GAME}/leaderboard")
        assert not any(entry["anchor"] for entry in board["entries"])
    finally:
        assert ladder.stop() == 0

    # The one database role meant for outsiders (Grafana's) reads three views and writes nothing.
    role = "hostile_" + uuid.uuid4().hex[:8]
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN IN ROLE premiere_ladder_reader")
    try:
        reader_url = database_url.replace("postgres@", f"{role}@", 1)
        assert reader_url != database_url
        result = CliRunner().invoke(
            main,
            ["ladder", "anchor", "set", GAME, "builtin:random", "9999"],
            env={"PREMIERE_DATABASE_URL": reader_url},
        )
        assert result.exit_code != 0
        assert isinstance(result.exception, psycopg.errors.InsufficientPrivilege)
    finally:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(f"DROP OWNED BY {role}")
            conn.execute(f"DROP ROLE {role}")
    assert _anchors(database_url) == []
