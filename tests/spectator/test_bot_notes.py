"""Bot notes (issue 42, item 4) on a real stack: a bot attaches a note to its answers
(`premiere_bot.Noted`, `DecisionAnswer.note`); the arbiter stores it with the move and refuses
one longer than 512 bytes as malformed; while the match runs no surface shows a note (the views
API, the replay, the live stream); once it has ended the replay shows each note beside its move,
at 1366 and 390 px. The bot's owner alone reads its notes at any time, a running match's too
(`premiere-bot bots notes`); another author reads none."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from playwright.sync_api import Browser

from tests.integration.services import start_bot, wait_ended
from tests.integration.test_authors import author
from tests.ladder.stack import Stack, running_stack
from tests.spectator.test_dashboard import eventually
from tests.spectator.test_rough_edges import BROKEN, WIDTHS, open_tab, visit
from tests.spectator.test_watching import browser  # noqa: F401

CLOCK = {"move_time_ms": 3000, "time_bank_ms": 5000, "strike_limit": 20}


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    with running_stack(tmp_path, workers=False) as running:
        yield running


def test_notes_are_stored_and_shown_only_after_the_end(stack: Stack, browser: Browser) -> None:  # noqa: F811
    code = stack.arbiter.cli("invites", "create", "--uses", "2").strip()
    owner, other = stack.folder / "ana", stack.folder / "eve"
    for home, name in ((owner, "ana"), (other, "eve")):
        made = author(stack.arbiter, home, "account", "create", name, "--invite", code, "--save")
        assert made.returncode == 0, made.stderr
    created = author(stack.arbiter, owner, "bots", "create", "noter")
    assert created.returncode == 0, created.stderr
    token = created.stdout.strip()
    bot = start_bot(
        stack.arbiter, "tests.ladder.noting_bot:NotingBot", token, stack.folder / "bot.log"
    )
    try:
        with psycopg.connect(stack.arbiter.database_url) as conn:
            eventually(
                lambda: (
                    conn.execute(
                        "SELECT last_connected_at IS NOT NULL FROM bots WHERE name = 'noter'"
                    ).fetchone()[0]
                    or None
                ),
                "the bot connected",
                timeout=20,
            )
        match_id = stack.match("movie-tricks", ["noter", "builtin:heuristic"], **CLOCK)
        with psycopg.connect(stack.arbiter.database_url) as conn:
            eventually(
                lambda: (
                    conn.execute(
                        "SELECT count(*) FROM match_moves WHERE match_id = %s AND note IS NOT NULL",
                        (match_id,),
                    ).fetchone()[0]
                    >= 3
                    or None
                ),
                "notes stored while the match runs",
            )
            running = conn.execute("SELECT status FROM matches WHERE id = %s", (match_id,))
            assert running.fetchone()[0] == "running"
        # While it runs: no note on any surface.
        views = stack.get(f"/api/matches/{match_id}/views")
        assert views["status"] == "running"
        assert all(f["note"] is None for f in views["frames"]) and "plan " not in json.dumps(views)
        page, problems = open_tab(browser, "desktop")
        page.goto(f"{stack.http}/live/{match_id}")
        eventually(lambda: int(page.get_attribute("body", "data-moves") or 0) >= 4 or None, "moves")
        assert "plan " not in page.inner_text("body") and page.locator(".bot-note").count() == 0
        page.goto(f"{stack.http}/replay/{match_id}")
        page.wait_for_selector("body[data-ready]", state="attached")
        assert "plan " not in page.inner_text("body") and page.locator(".bot-note").count() == 0
        page.context.close()
        assert problems == []
        # Its owner reads the notes of the running match; another author reads nothing.
        mine = author(stack.arbiter, owner, "bots", "notes", "noter", "--match", match_id)
        assert mine.returncode == 0, mine.stderr
        shown = [line for line in mine.stdout.splitlines() if line.startswith(match_id)]
        assert len(shown) >= 3 and all(" running " in line for line in shown), mine.stdout
        assert "plan 1: first of" in mine.stdout
        peek = author(stack.arbiter, other, "bots", "notes", "noter", "--match", match_id)
        assert peek.returncode == 1 and "NOT_FOUND" in peek.stderr, peek
        assert "plan " not in peek.stdout + peek.stderr
        anonymous = author(stack.arbiter, stack.folder / "nobody", "bots", "notes", "noter")
        assert anonymous.returncode == 1 and "plan " not in anonymous.stdout
        wait_ended(stack.arbiter.matches(), match_id)
    finally:
        bot.terminate()
        bot.wait(10)
    with psycopg.connect(stack.arbiter.database_url) as conn:
        stored = conn.execute(
            "SELECT ply, seat, note FROM match_moves WHERE match_id = %s ORDER BY ply",
            (match_id,),
        ).fetchall()
        faults = conn.execute(
            "SELECT kind, detail FROM match_faults WHERE match_id = %s AND seat = 0", (match_id,)
        ).fetchall()
        status = conn.execute("SELECT status FROM matches WHERE id = %s", (match_id,)).fetchall()
    noted = [(ply, note) for ply, seat, note in stored if note]
    assert noted and all(seat == 0 for _, seat, note in stored if note)
    assert all(note.startswith("plan ") for _, note in noted)
    # The fifth answer's note was 600 bytes: refused as malformed, its move defaulted.
    assert ("malformed", "a note of 600 bytes; at most 512") in faults, faults
    # The sixth's held a NUL (no PostgreSQL text holds one): refused the same way, and the
    # match went on to its result instead of failing the move's write.
    assert ("malformed", "a note with a NUL character") in faults, faults
    assert status == [("finished",)]
    after = author(stack.arbiter, owner, "bots", "notes", "noter")
    assert after.stdout.count(" ended ") == len(noted), after.stdout
    with urllib.request.urlopen(f"{stack.http}/api/matches/{match_id}/views") as reply:
        views = json.loads(reply.read())
    frames = views["frames"]
    by_ply = {f["ply"]: f for f in frames if not f["forced"] and f["ply"] is not None}
    assert {ply: by_ply[ply].get("note") for ply, _ in noted} == dict(noted)
    first_ply, first_note = noted[0]
    index = next(i for i, f in enumerate(frames) if f["ply"] == first_ply and not f["forced"])
    for width in WIDTHS:
        page, problems = open_tab(browser, width)
        text = visit(page, f"{stack.http}/replay/{match_id}?ply={index}")
        assert not BROKEN.search(text)
        item = page.locator(f"#moves li[data-index='{index}'] .bot-note")
        assert item.inner_text() == f"noter's note: {first_note}"
        assert page.locator("#moves .bot-note").count() == len(noted)
        assert f"noter's note: {first_note}" in page.inner_text("#move")
        page.context.close()
        assert problems == []
