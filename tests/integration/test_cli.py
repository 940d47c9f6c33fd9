"""The `premiere` commands a user needs, on a real scratch database: bots, league states,
refusals at creation, bad ids, the local stack found from a subfolder, demo leagues reused."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest
from click.testing import CliRunner, Result

from premiere.cli import main
from premiere.stack import MARKER, Stack
from server.store import hash_token
from tests.integration.services import scratch_database
from workers import leagues
from workers.formats import registry


@pytest.fixture
def database_url(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[str]:
    with scratch_database() as url:
        monkeypatch.setenv("PREMIERE_DATABASE_URL", url)
        monkeypatch.setenv("PREMIERE_STATE_DIR", str(tmp_path / "state"))
        yield url


@pytest.fixture(autouse=True)
def _keep_environment() -> Iterator[None]:
    """The CLI runs in this process and fills os.environ from a found stack.json, as a real
    command would for its children; later tests in this worker must not inherit that."""
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def one_error_line(result: Result) -> str:
    """A refusal: exit status 1 and a single 'Error: ...' line, no traceback."""
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0]


def test_bots_add_list_rotate_and_remove(database_url: str) -> None:
    first = run("bots", "add", "ann").output.strip()
    run("bots", "add", "bob")
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("UPDATE bots SET games = '{movie-tricks}' WHERE name = 'bob'")
        listed = run("bots", "list").output.splitlines()
        assert [line.split()[0] for line in listed] == ["ann", "bob"]
        assert "never connected" in listed[0] and "movie-tricks" in listed[1]

        rotated = run("bots", "rotate-token", "ann")
        assert rotated.exit_code == 0
        token = rotated.output.strip()
        assert token.startswith("pmb_") and token != first
        (stored,) = conn.execute("SELECT token_hash FROM bots WHERE name = 'ann'").fetchone()
        assert stored == hash_token(token) != hash_token(first)

        assert "removed" in run("bots", "remove", "ann").output
        assert [line.split()[0] for line in run("bots", "list").output.splitlines()] == ["bob"]
        (stored,) = conn.execute("SELECT token_hash FROM bots WHERE name = 'ann'").fetchone()
        assert stored != hash_token(token)
    assert "no registered bot named 'ann'" in one_error_line(run("bots", "remove", "ann"))
    assert "no registered bot" in one_error_line(run("bots", "rotate-token", "nobody"))


def test_league_creation_refuses_unknown_removed_and_incompatible_bots(database_url: str) -> None:
    for name in ("ann", "bob", "cid"):
        run("bots", "add", name)
    run("bots", "remove", "cid")
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("UPDATE bots SET games = '{movie-tricks}' WHERE name = 'bob'")
        conn.execute("UPDATE bots SET games = '{}' WHERE name = 'ann'")
    create = ("league", "create", "--game", "magic-trick", "--format", "round-robin", "--bots")
    builtins = "builtin:random,builtin:first"

    assert "no registered bot named 'ghost'" in one_error_line(run(*create, f"{builtins},ghost"))
    assert "no registered bot named 'cid'" in one_error_line(run(*create, f"{builtins},cid"))
    line = one_error_line(run(*create, f"{builtins},bob"))
    assert "'bob' does not play magic-trick" in line
    assert "no built-in bot" in one_error_line(run(*create, "builtin:nobody,builtin:first,ann"))
    wrong = run("league", "create", "--game", "magic-trick", "--format", "pyramid", "--bots", "a")
    choices = ", ".join(f"'{name}'" for name in registry.names())
    assert wrong.exit_code == 2 and f"'pyramid' is not one of {choices}" in wrong.output

    made = run(*create, f"{builtins},ann", "--name", "fine")
    assert made.exit_code == 0 and "created" in made.output
    assert "already exists" in one_error_line(run(*create, f"{builtins},ann", "--name", "fine"))
    with psycopg.connect(database_url) as conn:
        (count,) = conn.execute("SELECT count(*) FROM leagues").fetchone()
    assert count == 1


def test_league_pause_resume_and_cancel(database_url: str) -> None:
    made = run(
        "league", "create", "--name", "weekly", "--game", "movie-tricks", "--format",
        "round-robin", "--bots", "builtin:random,builtin:first,builtin:last", "--every", "7d",
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    now = datetime.now(UTC)
    assert "is paused" in run("league", "pause", "weekly").output
    with leagues.connect(database_url) as conn:
        league = leagues.get_league(conn, "weekly")
        assert league is not None and league.status == "paused"
        assert leagues.open_round(conn, league.id, now) is None
        assert "is paused" in one_error_line(run("league", "run-now", "weekly"))
        assert " paused " in run("league", "list").output
        assert "is active" in run("league", "resume", "weekly").output
        assert leagues.open_round(conn, league.id, now) == 1
        assert "is cancelled" in run("league", "cancel", "weekly").output
        assert leagues.open_round(conn, league.id, now) is None
        assert leagues.tables_to_dispatch(conn) == []
    assert "cancelled; it cannot become active" in one_error_line(run("league", "resume", "weekly"))
    assert "cancelled" in run("league", "show", "weekly").output
    assert "no league '12'" in one_error_line(run("league", "pause", "12"))


def test_bad_ids_are_one_line(database_url: str) -> None:
    line = one_error_line(run("matches", "void", "1234", "--reason", "x"))
    assert "'1234' is not a match id" in line
    assert "no league '99'" in one_error_line(run("league", "show", "99"))
    assert "no league 'nope'" in one_error_line(run("league", "run-now", "nope"))


def test_the_running_stack_is_found_from_a_subfolder_and_not_started_twice(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    state = project / ".state"
    deep = project / "bots" / "mine"
    deep.mkdir(parents=True)
    state.mkdir()
    (state / MARKER).write_text("")
    described = {
        "launcher": os.getpid(),  # alive, as a running `premiere up` would be
        "database_url": database_url,
        "redis_url": "redis://127.0.0.1:1/0",
        "arbiter": "127.0.0.1:1",
        "ladder_api": "http://127.0.0.1:1/api/games",
    }
    (state / "stack.json").write_text(json.dumps(described))
    monkeypatch.delenv("PREMIERE_STATE_DIR")
    monkeypatch.delenv("PREMIERE_DATABASE_URL")
    monkeypatch.chdir(deep)

    assert run("bots", "add", "found").exit_code == 0
    with psycopg.connect(database_url) as conn:
        assert conn.execute("SELECT 1 FROM bots WHERE name = 'found'").fetchone()
    line = one_error_line(run("up"))
    assert f"already running from {state}" in line
    assert json.loads((state / "stack.json").read_text()) == described
    assert sorted(p.name for p in state.iterdir()) == sorted([MARKER, "stack.json"])


def test_demo_leagues_are_reused_and_a_finished_one_plays_again(database_url: str) -> None:
    run("bots", "add", "demo-example")
    stack = Stack(Path("unused"))
    first = stack.create_demo_leagues()
    assert stack.create_demo_leagues() == first
    with leagues.connect(database_url) as conn:
        assert [league.name for league in leagues.list_leagues(conn)] == first
        league = leagues.get_league(conn, first[0])
        assert league is not None and league.rounds is not None
        conn.execute("UPDATE leagues SET status = 'finished' WHERE id = %s", (league.id,))
        stack.create_demo_leagues()
        again = leagues.get_league(conn, first[0])
        assert again is not None and again.status == "active"
        assert again.rounds == 2 * league.rounds
        assert len(leagues.list_leagues(conn)) == len(first)


def test_the_demo_ends_with_a_summary_of_standings(database_url: str) -> None:
    from rich.console import Console

    from premiere.watch import watch

    with leagues.connect(database_url) as conn:
        league = leagues.create_league(
            conn,
            name="demo-x",
            game="magic-trick",
            format="round-robin",
            players=3,
            bots=["builtin:random", "builtin:first", "builtin:last"],
            rounds=1,
        )
        conn.execute("UPDATE leagues SET status = 'finished' WHERE id = %s", (league.id,))
    looks = 0

    def alive() -> None:
        nonlocal looks
        looks += 1
        if looks > 1:
            raise KeyboardInterrupt  # Ctrl-C after the first look

    console = Console(record=True, width=120, force_terminal=False)
    watch(database_url, ["demo-x"], "http://127.0.0.1:1/api", alive, console)
    shown = console.export_text()
    assert "every demo league has finished; final standings" in shown
    assert "demo-x (finished)" in shown
    assert all(bot in shown for bot in ("builtin:random", "builtin:first", "builtin:last"))
