"""Owners on the pages, in a real browser: a bot's page names its author and links to
/authors/<name>, which lists that account's bots (and no other's) with their standing and live
ratings; /bots has an Author column. At 1280 and 390 px, never wider than the window, with
screenshots in $PREMIERE_SCREENSHOTS."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import psycopg
from playwright.sync_api import Browser

from tests.integration.services import scratch_database
from tests.ladder.synthetic import add_bots, insert_matches, random_matches
from tests.ladder.test_api import Ladder
from tests.spectator.test_dashboard import eventually
from tests.spectator.test_ops_pages import WIDTHS, browser, look, open_page  # noqa: F401

GAME = "movie-tricks"


def test_a_bot_page_names_its_author_and_the_author_page_lists_its_bots(
    browser: Browser,  # noqa: F811
    tmp_path: Path,
) -> None:
    with scratch_database() as database_url:
        with psycopg.connect(database_url) as conn:
            conn.execute(
                "INSERT INTO accounts (name, token_hash)"
                " VALUES ('alice', 'hash-a'), ('bob', 'hash-b')"
            )
            bots = add_bots(conn, ["alice-one", "alice-two", "bobs-bot"])
            conn.execute(
                "UPDATE bots SET account_id = (SELECT id FROM accounts WHERE name = 'alice')"
                " WHERE name LIKE 'alice-%'"
            )
            conn.execute(
                "UPDATE bots SET account_id = (SELECT id FROM accounts WHERE name = 'bob')"
                " WHERE name = 'bobs-bot'"
            )
            conn.execute(
                "INSERT INTO bot_standing (bot, state, reason) VALUES"
                " ('alice-one', 'rated', 'validation passed'),"
                " ('alice-two', 'probation', 'too many faults')"
            )
            played = random_matches(12, list(bots), seed=3, seats=3)
            insert_matches(conn, played, bots)
            conn.execute(
                "INSERT INTO leagues (name, game, format, players, bots, rounds, seed)"
                " VALUES ('alice-cup', 'movie-tricks', 'round-robin', 2,"
                " ARRAY['alice-one', 'bobs-bot'], 2, 'seed')"
            )
        wins = sum(
            any(r == 1 and p.startswith("alice-") for p, r in zip(m.seats, m.ranks, strict=True))
            for m in played
        )
        ladder = Ladder(database_url, tmp_path / "ladder.log")
        try:
            ladder.wait_serving()
            eventually(
                lambda: ladder.get(f"/api/games/{GAME}/leaderboard")["rated_matches"] or None,
                "matches rated",
                timeout=30,
            )
            author = ladder.get("/api/authors/alice")
            assert [b["player"] for b in author["bots"]] == ["alice-one", "alice-two"]
            for label, (width, height) in WIDTHS.items():
                page, problems = open_page(browser, width, height)
                look(page, f"{ladder.http}/bots/alice-one", f"author-bot-{label}")
                link = page.locator("#author")
                assert link.inner_text() == "alice"
                link.click()
                page.wait_for_selector("body[data-ready]")
                assert page.url.endswith("/authors/alice")
                look(page, page.url, f"author-{label}")
                assert page.locator("#title").inner_text() == "alice"
                rows = page.locator("#bots tbody tr")
                assert rows.count() == 2
                text = page.locator("#bots").inner_text()
                assert "alice-one" in text and "alice-two" in text and "bobs-bot" not in text
                assert "rated" in text and "probation" in text
                # Its own page does not repeat its name on every row; it shows its totals,
                # its bots' latest matches and its leagues.
                headers = page.locator("#bots th").all_inner_texts()
                assert "AUTHOR" not in [h.upper() for h in headers], headers
                assert page.inner_text("#bots").count("alice") == 2  # the two bots' names
                assert page.inner_text("#author-matches") == "12"
                assert page.inner_text("#author-wins").startswith(f"{wins} (")
                assert page.locator("#author-recent tbody tr").count() == 10
                assert (
                    page.locator("#author-recent a.watch")
                    .first.get_attribute("href")
                    .startswith("/replay/")
                )
                assert "alice-cup" in page.inner_text("#author-leagues")
                look(page, f"{ladder.http}/bots", f"author-bots-{label}")
                bob_row = page.locator("#bots tbody tr[data-bot='bobs-bot']")
                assert "bob" in bob_row.inner_text()
                assert problems == []
                page.context.close()
            missing = page_status(ladder, "/api/authors/nobody")
            assert missing == 404
        finally:
            ladder.process.terminate()
            ladder.process.wait(10)


def page_status(ladder: Ladder, path: str) -> int:
    try:
        with urllib.request.urlopen(ladder.http + path, timeout=5) as reply:
            return int(reply.status)
    except urllib.error.HTTPError as error:
        return error.code
