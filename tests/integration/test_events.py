"""An event from its announcement to its results on a real stack (arbiter, Celery worker and
beat, ladder, PostgreSQL): the operator announces it, authors enter their own bots with
`premiere-bot events enter` (and are refused, with the reason, what the gate and the event's
rules refuse), the beat opens entry, starts it as a league of its format with the entrants and
marks it finished when that league finishes."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.services import Arbiter, Workers, free_port, start_bot
from tests.integration.test_authors import CLEAN, author
from tests.integration.test_leagues import query
from tests.spectator.test_dashboard import eventually
from workers.formats.knockout import DEALS


@pytest.fixture
def arena(database_url: str, tmp_path: Path) -> Iterator[Arbiter]:
    server = Arbiter(
        database_url,
        free_port(),
        free_port(),
        settings={
            "PREMIERE_SIGNUP": "invite",
            "PREMIERE_VALIDATION_MATCHES": "1",
            "PREMIERE_AUTHOR_EVENTS": "on",
        },
    )
    server.start(tmp_path / "arbiter.log")
    try:
        yield server
    finally:
        server.stop()


def refused(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 1, done.stdout
    for word in words:
        assert word in done.stderr, done.stderr


def status(arena: Arbiter, name: str) -> str | None:
    rows = query(arena, "SELECT status FROM events WHERE name = %s", name)
    return rows[0]["status"] if rows else None


def test_an_event_runs_from_entry_to_results_and_refuses_a_hostile_author(
    arena: Arbiter, tmp_path: Path
) -> None:
    workers = Workers(arena, tmp_path)
    workers.start_worker()
    workers.start_beat()
    workers.start_ladder()
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    running: list[subprocess.Popen[bytes]] = []
    try:
        code = workers.cli("invites", "create", "--uses", "2", "--expires", "1d").strip()
        for home, name in ((alice, "alice"), (bob, "bob")):
            made = author(arena, home, "account", "create", name, "--invite", code, "--save")
            assert made.returncode == 0, made.stderr
        tokens = {}
        for home, bot in ((alice, "alice-bot"), (alice, "alice-two"), (bob, "bob-bot")):
            created = author(arena, home, "bots", "create", bot)
            assert created.returncode == 0, created.stderr
            tokens[bot] = created.stdout.strip()
            running.append(start_bot(arena, CLEAN, tokens[bot], tmp_path / f"{bot}.log"))
        # bob-new is registered but never connects: it has no rating anywhere.
        assert author(arena, bob, "bots", "create", "bob-new").returncode == 0
        for bot in tokens:
            eventually(
                lambda bot=bot: (  # type: ignore[misc]
                    query(
                        arena,
                        "SELECT 1 FROM bot_standing WHERE bot = %s AND state = 'rated'",
                        bot,
                    )
                    or None
                ),
                f"{bot} in rated play",
                180,
            )

        announced = workers.cli(
            "event", "create", "--name", "cup", "--game", "movie-tricks",
            "--format", "knockout", "--players", "2",
            "--opens", "+20s", "--starts", "+60s",
        )  # fmt: skip
        assert "cup announced" in announced
        # Announced, not open yet: entry is refused with when it opens.
        early = author(arena, alice, "events", "enter", "cup", "--bot", "alice-bot")
        refused(early, "not open yet", "FAILED_PRECONDITION")
        eventually(lambda: status(arena, "cup") == "open" or None, "entry opened by beat", 60)

        entered = author(arena, alice, "events", "enter", "cup", "--bot", "alice-bot")
        assert entered.returncode == 0, entered.stderr
        assert "alice-bot entered in cup (1 entered)" in entered.stdout
        # Hostile: someone else's bot, a second bot of one account, a bot not rated.
        refused(
            author(arena, alice, "events", "enter", "cup", "--bot", "bob-bot"),
            "your account has no bot",
            "NOT_FOUND",
        )
        refused(
            author(arena, alice, "events", "enter", "cup", "--bot", "alice-two"),
            "one bot an account",
            "FAILED_PRECONDITION",
        )
        refused(
            author(arena, bob, "events", "enter", "cup", "--bot", "bob-new"),
            "not in rated play",
            "FAILED_PRECONDITION",
        )
        assert author(arena, bob, "events", "enter", "cup", "--bot", "bob-bot").returncode == 0
        left = author(arena, bob, "events", "withdraw", "cup", "--bot", "bob-bot")
        assert left.returncode == 0 and "(1 entered)" in left.stdout, left.stderr
        again = author(arena, bob, "events", "enter", "cup", "--bot", "bob-bot")
        assert again.returncode == 0 and "(2 entered)" in again.stdout, again.stderr
        listed = author(arena, bob, "events", "list")
        assert listed.returncode == 0, listed.stderr
        assert "cup" in listed.stdout and "open" in listed.stdout
        assert "entrants: alice-bot, bob-bot" in listed.stdout
        assert "one bot an account" in listed.stdout

        # At the start the beat turns it into a league of its format with the entrants.
        eventually(lambda: status(arena, "cup") in ("running", "finished") or None, "start", 90)
        late = author(arena, bob, "events", "enter", "cup", "--bot", "bob-new")
        refused(late, "has started", "FAILED_PRECONDITION")
        gone = author(arena, alice, "events", "withdraw", "cup", "--bot", "alice-bot")
        refused(gone, "has started")
        (league,) = query(
            arena,
            "SELECT l.name, l.bots, l.format, l.rated FROM events e"
            " JOIN leagues l ON l.id = e.league_id WHERE e.name = 'cup'",
        )
        assert league == {
            "name": "event-cup",
            "bots": ["alice-bot", "bob-bot"],
            "format": "knockout",
            "rated": True,
        }
        eventually(lambda: status(arena, "cup") == "finished" or None, "cup finished", 180)
        tables = query(
            arena,
            "SELECT m.rated, t.status, t.seats, t.seed FROM league_tables t"
            " JOIN leagues l ON l.id = t.league_id JOIN matches m ON m.id = t.match_id"
            " WHERE l.name = 'event-cup'",
        )
        # The knockout of two is its final: one heat of DEALS sealed deals, each played in both
        # seat orders.
        assert len(tables) == 2 * DEALS and len({t["seed"] for t in tables}) == DEALS
        for seed in {t["seed"] for t in tables}:
            assert {tuple(t["seats"]) for t in tables if t["seed"] == seed} == {
                ("alice-bot", "bob-bot"),
                ("bob-bot", "alice-bot"),
            }
        assert all(t["rated"] and t["status"] == "finished" for t in tables)
        # Authors may propose events here (PREMIERE_AUTHOR_EVENTS=on): the workers announce
        # them, or list them cancelled with the reason when the format refuses them.
        proposed = author(
            arena, bob, "events", "create", "bob-cup", "--game", "movie-tricks",
            "--format", "round-robin", "--starts", "+1d",
        )  # fmt: skip
        assert proposed.returncode == 0, proposed.stderr
        odd = author(
            arena, bob, "events", "create", "odd-cup", "--game", "movie-tricks",
            "--format", "pyramid", "--starts", "+1d",
        )  # fmt: skip
        assert odd.returncode == 0, odd.stderr
        refused(
            author(
                arena, bob, "events", "create", "bob-cup", "--game", "movie-tricks",
                "--format", "round-robin", "--starts", "+1d",
            ),
            "exists already",
        )  # fmt: skip
        eventually(lambda: status(arena, "odd-cup") == "cancelled" or None, "odd-cup refused", 30)
        eventually(lambda: status(arena, "bob-cup") == "open" or None, "bob-cup open", 30)
        listed = author(arena, alice, "events", "list").stdout
        assert "unknown format 'pyramid'" in listed
        shown = workers.cli("event", "show", "cup")
        assert shown.startswith("cup: finished"), shown
        assert "entrant alice-bot (alice)" in shown and "entrant bob-bot (bob)" in shown
        assert "league event-cup: finished" in shown
    finally:
        workers.stop()
        for process in running:
            process.terminate()
            process.wait(10)


def test_authors_propose_events_only_where_the_operator_lets_them(
    arbiter: Arbiter, tmp_path: Path
) -> None:
    """PREMIERE_AUTHOR_EVENTS is off by default: an author's proposal is refused, saying so."""
    code = arbiter.cli("invites", "create", "--uses", "1", "--expires", "1d").strip()
    home = tmp_path / "home"
    made = author(arbiter, home, "account", "create", "carol", "--invite", code, "--save")
    assert made.returncode == 0, made.stderr
    asked = author(
        arbiter, home, "events", "create", "carol-cup", "--game", "movie-tricks",
        "--format", "round-robin", "--starts", "+1d",
    )  # fmt: skip
    refused(asked, "only the operator creates events", "PERMISSION_DENIED")
    assert status(arbiter, "carol-cup") is None
