"""A new author joins by themselves: with only a running stack's address and an invite, they go
from nothing to a rated match on the ladder using `premiere-bot` alone (never the operator's
`premiere`), on a real stack (arbiter, Celery worker and beat, ladder, PostgreSQL). Then their
second bot shows that a rated league seats one owner once, and that an author reaches no other
account's bot."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.integration.services import BIN, ROOT, Arbiter, Workers, free_port, start_bot
from tests.integration.test_leagues import query
from tests.spectator.test_dashboard import eventually

CLEAN = "tests.integration.standing_bots:CleanBot"


@pytest.fixture
def arena(database_url: str, tmp_path: Path) -> Iterator[Arbiter]:
    server = Arbiter(
        database_url,
        free_port(),
        free_port(),
        settings={
            "PREMIERE_SIGNUP": "invite",
            "PREMIERE_CHALLENGES": "rated",
            "PREMIERE_VALIDATION_MATCHES": "1",
        },
    )
    server.start(tmp_path / "arbiter.log")
    try:
        yield server
    finally:
        server.stop()


def author(
    arena: Arbiter, home: Path, *args: str, token: str = ""
) -> subprocess.CompletedProcess[str]:
    """`premiere-bot ARGS` as an author on another machine would run it: only the address."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PREMIERE_")} | {
        "XDG_CONFIG_HOME": str(home),
        "PREMIERE_ARBITER": arena.address,
    }
    if token:
        env["PREMIERE_BOT_TOKEN"] = token
    return subprocess.run(
        [str(BIN / "premiere-bot"), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
    )


def test_a_new_author_reaches_a_rated_match_with_premiere_bot_alone(
    arena: Arbiter, tmp_path: Path
) -> None:
    workers = Workers(arena, tmp_path)
    workers.start_worker()
    workers.start_beat()
    workers.start_ladder()
    home = tmp_path / "home"
    bots: list[subprocess.Popen[bytes]] = []
    try:
        # Without an invite, sign-up is refused with the reason.
        closed = author(arena, home, "account", "create", "alice")
        assert closed.returncode == 1 and "invite" in closed.stderr
        assert "PERMISSION_DENIED" in closed.stderr
        # The operator hands out an invite code (its one step); the author does the rest.
        code = workers.cli("invites", "create", "--uses", "1", "--expires", "1d").strip()
        made = author(arena, home, "account", "create", "alice", "--invite", code, "--save")
        assert made.returncode == 0, made.stderr
        stored = home / "premiere" / "account.json"
        assert stat.S_IMODE(stored.stat().st_mode) == 0o600
        assert json.loads(stored.read_text())["token"] == made.stdout.strip()
        reused = author(arena, home, "account", "create", "alice2", "--invite", code)
        assert reused.returncode == 1 and "used up" in reused.stderr

        created = author(arena, home, "bots", "create", "alice-bot")
        assert created.returncode == 0, created.stderr
        token = created.stdout.strip()
        assert token.startswith("pmb_")
        bots.append(start_bot(arena, CLEAN, token, tmp_path / "alice-bot.log"))

        # Validation runs by itself; the author follows it with `bots events`.
        def rated() -> bool:
            shown = author(arena, home, "bots", "events", "alice-bot")
            return shown.returncode == 0 and shown.stdout.startswith("alice-bot: rated")

        eventually(rated, "alice-bot in rated play", 150)
        listed = author(arena, home, "bots", "list")
        assert listed.stdout.split()[:2] == ["alice-bot", "rated"], listed.stdout

        asked = author(
            arena,
            home,
            "challenge",
            "--game",
            "movie-tricks",
            "--vs",
            "builtin:random",
            "--rated",
            token=token,
        )
        assert asked.returncode == 0, asked.stderr
        assert "(rated)" in asked.stdout
        match_id = asked.stdout.split()[1]
        eventually(
            lambda: (
                query(arena, "SELECT 1 FROM rated_matches WHERE match_id = %s", match_id) or None
            ),
            "the rated challenge rated on the ladder",
            120,
        )
        (row,) = query(
            arena,
            "SELECT m.rated, h.player FROM matches m JOIN public_rating_history h"
            " ON h.match_id = m.id WHERE m.id = %s AND h.player = 'alice-bot'",
            match_id,
        )
        assert row["rated"]

        # A second bot of the same account: a rated league will not seat both ...
        second = author(arena, home, "bots", "create", "alice-two")
        assert second.returncode == 0, second.stderr
        bots.append(start_bot(arena, CLEAN, second.stdout.strip(), tmp_path / "two.log"))
        eventually(
            lambda: (
                query(
                    arena, "SELECT 1 FROM bot_standing WHERE bot = 'alice-two' AND state = 'rated'"
                )
                or None
            ),
            "alice-two in rated play",
            150,
        )
        league = [
            "league",
            "create",
            "--game",
            "movie-tricks",
            "--format",
            "round-robin",
            "--players",
            "2",
            "--bots",
            "alice-bot,alice-two",
            "--rounds",
            "1",
        ]
        with pytest.raises(RuntimeError, match="one owner"):
            workers.cli(*league, "--name", "own")
        # ... unless it allows one owner twice: then their table is played, unrated.
        workers.cli(*league, "--name", "private", "--allow-same-owner")

        def played() -> list[dict[str, Any]]:
            return query(
                arena,
                "SELECT m.rated, m.unrated_reason FROM league_tables t"
                " JOIN leagues l ON l.id = t.league_id JOIN matches m ON m.id = t.match_id"
                " WHERE l.name = 'private'",
            )

        tables = eventually(lambda: played() or None, "the private league's table", 120)
        assert tables == [{"rated": False, "unrated_reason": "same-owner"}]

        # An author reaches no other account's bot, and learns nothing of it.
        workers.cli("bots", "add", "someone-else")
        for verb in ("events", "rotate-token", "remove", "versions"):
            other = author(arena, home, "bots", verb, "someone-else")
            assert other.returncode == 1 and "your account has no bot" in other.stderr
            assert "NOT_FOUND" in other.stderr
        removed = author(arena, home, "bots", "remove", "alice-two")
        assert removed.returncode == 0 and "removed" in removed.stderr
    finally:
        workers.stop()
        for bot in bots:
            bot.terminate()
            bot.wait(10)
