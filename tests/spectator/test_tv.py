"""The TV channel (issue 42, item 3), in a real browser on a real stack at 1366 and 390 px:
/tv follows the live match the ladder picks (the highest-rated table, or one the operator
pins with `premiere tv pin`), says why it shows it, and moves on to the next match by itself
when it ends; /tv/<game> keeps to one game; home links to it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from playwright.sync_api import Browser

from tests.integration.services import start_bot, wait_ended
from tests.ladder.stack import Stack, running_stack
from tests.spectator.test_dashboard import eventually
from tests.spectator.test_rough_edges import BROKEN, open_tab
from tests.spectator.test_watching import SCREENSHOTS, browser  # noqa: F401

CLOCK = {"move_time_ms": 3000, "time_bank_ms": 5000, "strike_limit": 20}


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    with running_stack(tmp_path, workers=False) as running:
        yield running


def test_tv_follows_the_best_live_match_and_moves_on(stack: Stack, browser: Browser) -> None:  # noqa: F811
    desktop, problems = open_tab(browser, "desktop")
    phone, phone_problems = open_tab(browser, "phone")
    # Home links to the channel.
    desktop.goto(stack.http + "/")
    assert desktop.get_attribute("#tv-link", "href") == "/tv"
    # Nothing is played yet: the channel says so, and waits.
    for page in (desktop, phone):
        page.goto(stack.http + "/tv")
        page.wait_for_selector("#tv-empty")
        assert "No match is being played right now" in page.inner_text("#tv-empty")
        assert page.inner_text("#title") == "Premiere TV"
    token = stack.arbiter.add_bot("slowpoke")
    bot = start_bot(
        stack.arbiter, "tests.ladder.slow_bot:SteadyBot", token, stack.folder / "bot.log"
    )
    try:
        with psycopg.connect(stack.arbiter.database_url) as conn:
            eventually(
                lambda: (
                    conn.execute(
                        "SELECT last_connected_at IS NOT NULL FROM bots WHERE name = 'slowpoke'"
                    ).fetchone()[0]
                    or None
                ),
                "the bot connected",
                timeout=20,
            )
        first = stack.match("movie-tricks", ["slowpoke", "builtin:heuristic"], **CLOCK)
        # Both tabs pick it up by themselves, say why, and show it live.
        for page, name in ((desktop, "desktop"), (phone, "phone")):
            page.wait_for_selector(f"body[data-tv-match='{first}']", state="attached")
            page.wait_for_selector("#tv-line")
            line = page.inner_text("#tv-line")
            assert line.startswith("Premiere TV: Movie Tricks"), line
            assert "highest-rated table being played" in line and "live Elo" in line, line
            eventually(
                lambda page=page: int(page.get_attribute("body", "data-moves") or 0) >= 2 or None,
                "moves",
            )
            assert "slowpoke" in page.inner_text("#watch")
            assert not BROKEN.search(page.inner_text("body"))
            size = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert size[0] <= size[1], size
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"tv-{name}.png"), full_page=True)
        # The API says what the channel shows; a game's channel keeps to its game.
        assert stack.get("/api/tv")["match"]["match_id"] == first
        assert stack.get("/api/tv/movie-tricks")["match"]["match_id"] == first
        assert stack.get("/api/tv/magic-trick")["match"] is None
        assert stack.status("/api/tv/no-such-game") == 404
        # The operator pins it: the channel says so.
        stack.arbiter.cli("tv", "pin", first)
        found = stack.get("/api/tv")["match"]
        assert found["match_id"] == first and found["pinned"]
        stack.arbiter.cli("tv", "unpin")
        after = stack.get("/api/tv")["match"]
        assert after is None or not after["pinned"]
        # It ends: the result shows, then the channel moves on by itself to the next match.
        wait_ended(stack.arbiter.matches(), first)
        desktop.wait_for_selector("body[data-ended]", state="attached")
        assert "wins" in desktop.inner_text("#result")
        second = stack.match("movie-tricks", ["builtin:random", "slowpoke"], **CLOCK)
        for page in (desktop, phone):
            page.wait_for_selector(
                f"body[data-tv-match='{second}']", state="attached", timeout=30_000
            )
            eventually(
                lambda page=page: "builtin:random" in page.inner_text("#watch") or None,
                "the next match on the channel",
            )
            assert page.locator("#result").count() == 0  # the last match's result is gone
        # The channel now names the match it moved on to.
        assert stack.get("/api/tv")["match"]["match_id"] == second
    finally:
        bot.terminate()
        bot.wait(10)
    # A channel for a game that does not exist says so.
    phone.goto(stack.http + "/tv/no-such-game")
    phone.wait_for_selector("body[data-not-found]", state="attached")
    assert phone.inner_text("#what") == "No such channel"
    desktop.context.close()
    phone.context.close()
    assert problems == [] and phone_problems == []
