"""The pages for bot authors and operators in a real browser: `premiere ladder` on a scratch
database (matches rated by the ladder itself, standings, versions, faults and an SPRT league as
the arbiter and the workers store them), Debian's Chromium through Playwright, read as a person
would: a bot's standing and why, its versions, each match's rating change, its faults linked to
their moves, paging; an SPRT league's verdict, LLR chart, Elo estimate and pentanomial counts.
Every page at 1280 and 390 px wide, never wider than the window, with a screenshot of each in
$PREMIERE_SCREENSHOTS (default .state/screenshots/)."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from tests.integration.services import ROOT, scratch_database
from tests.ladder.synthetic import add_bots, insert_matches, random_matches
from tests.ladder.test_api import Ladder
from tests.spectator.test_dashboard import CHROMIUM, CHROMIUM_ARGS, eventually
from workers.planning import progress_of

SCREENSHOTS = Path(os.environ.get("PREMIERE_SCREENSHOTS", ROOT / ".state" / "screenshots"))
TRICKS = "movie-tricks"
PLAYERS = ["ada", "grace", "edsger", "barbara", "builtin:heuristic"]
SPRT_SETTINGS = {"elo0": 0.0, "elo1": 300.0, "alpha": 0.01, "beta": 0.05, "pairs_per_round": 4}
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}

PAGE_WIDTH = "() => [document.documentElement.scrollWidth, window.innerWidth]"


@pytest.fixture
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: apt-get install chromium")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield launched
        finally:
            launched.close()


def sprt_league(conn: psycopg.Connection[Any]) -> list[dict[str, Any]]:
    """A finished SPRT league, ada against grace, three rounds of four pairs; its progress
    after each round computed by the workers' own code. Returns those progresses."""
    row = conn.execute(
        "INSERT INTO leagues (name, game, format, players, bots, rounds, seed, status,"
        " settings, rated, finished_at) VALUES ('ada-vs-grace', %s, 'sprt', 2,"
        " ARRAY['ada', 'grace'], 500, 'seed', 'finished', %s, false, now()) RETURNING id",
        (TRICKS, json.dumps(SPRT_SETTINGS)),
    ).fetchone()
    assert row is not None
    league_id = row[0]
    # Pairs as (ada's rank, grace's rank) in the pair's two games.
    results = [((1, 2), (1, 2))] * 7 + [((1, 2), (2, 1)), ((1, 1), (1, 2))]
    results += [((1, 2), (1, 2))] * 3
    groups: list[tuple[str, list[tuple[tuple[str, ...], tuple[int, ...]]]]] = []
    progresses = []
    for number in range(1, 4):
        for first, second in results[(number - 1) * 4 : number * 4]:
            groups.append(
                (
                    f"pair{len(groups)}",
                    [(("ada", "grace"), first), (("grace", "ada"), second[::-1])],
                )
            )
        progress = progress_of("sprt", ["ada", "grace"], groups, SPRT_SETTINGS)
        assert progress is not None
        state = dict(progress.state)
        progresses.append(state)
        conn.execute(
            "INSERT INTO league_rounds (league_id, number, slot, status, closed_at, standings)"
            " VALUES (%s, %s, %s, 'closed', now(), %s)",
            (
                league_id,
                number,
                f"slot-{number}",
                json.dumps(
                    [
                        {"rank": 1, "bot": "ada", "points": 20.5, "games": 24, "wins": 20},
                        {"rank": 2, "bot": "grace", "points": 3.5, "games": 24, "wins": 2},
                    ]
                ),
            ),
        )
        conn.execute(
            "INSERT INTO league_progress_rounds (league_id, round, progress) VALUES (%s, %s, %s)",
            (league_id, number, json.dumps(state)),
        )
    conn.execute(
        "UPDATE leagues SET progress = %s, progress_at = now() WHERE id = %s",
        (json.dumps(progresses[-1]), league_id),
    )
    conn.commit()
    return progresses


def fill(database_url: str) -> tuple[list[str], list[dict[str, Any]]]:
    with psycopg.connect(database_url) as conn:
        bots = add_bots(conn, ["ada", "grace", "edsger", "barbara", "linus"])
        # ada has a second version, active; grace is on probation, linus still validating.
        conn.execute(
            "INSERT INTO bots (name, token_hash, family_id, version, predecessor_id)"
            " SELECT 'ada@v2', 'version:' || gen_random_uuid(), id, 'v2', id FROM bots"
            " WHERE name = 'ada'"
        )
        conn.execute(
            "UPDATE bots SET active_id = (SELECT id FROM bots WHERE name = 'ada@v2')"
            " WHERE name = 'ada'"
        )
        conn.execute(
            "UPDATE bots SET last_connected_at = now(), games = '{}' WHERE name IN ('ada', 'grace')"
        )
        conn.cursor().executemany(
            "INSERT INTO bot_standing (bot, state, reason) VALUES (%s, %s, %s)",
            [
                ("ada", "rated", "validation passed: 2 match(es) without a fault"),
                ("ada@v2", "validating", "a new version plays its validation matches"),
                (
                    "grace",
                    "probation",
                    "on probation: 6 of the last 20 matches had faults (the limit is 25%)",
                ),
                ("edsger", "rated", "rated"),
                ("barbara", "disabled", "disabled by the operator: spamming illegal moves"),
            ],
        )
        conn.execute(
            "INSERT INTO bot_events (bot, kind, message) VALUES ('grace', 'probation',"
            " 'on probation: 6 of the last 20 matches had faults')"
        )
        conn.commit()
        ids = insert_matches(conn, random_matches(46, PLAYERS, seed=11), bots)
        progress = sprt_league(conn)
    return ids, progress


def open_page(browser: Browser, width: int, height: int) -> tuple[Page, list[str]]:
    context = browser.new_context(
        viewport={"width": width, "height": height}, timezone_id="UTC", locale="en-GB"
    )
    page = context.new_page()
    problems: list[str] = []
    page.on(
        "console",
        lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None,
    )
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    return page, problems


def look(page: Page, url: str, shot: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready]")
    scroll_width, window_width = page.evaluate(PAGE_WIDTH)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{shot}.png"), full_page=True)
    assert scroll_width <= window_width, f"{url}: the page is {scroll_width} px wide"


def test_bot_and_league_pages_for_authors_and_operators(browser: Browser, tmp_path: Path) -> None:
    with scratch_database() as database_url:
        ids, progress = fill(database_url)
        ladder = Ladder(database_url, tmp_path / "ladder.log")
        try:
            ladder.wait_serving()
            eventually(
                lambda: (
                    ladder.get(f"/api/games/{TRICKS}/leaderboard")["rated_matches"] == 46 or None
                ),
                "every match rated",
                timeout=30,
            )
            with psycopg.connect(database_url) as conn:
                faulty = conn.execute(
                    "SELECT m.id, s.seat FROM matches m JOIN match_seats s ON s.match_id = m.id"
                    " JOIN bots b ON b.id = s.bot_id WHERE b.name = 'ada'"
                    " ORDER BY m.finished_at DESC LIMIT 1"
                ).fetchone()
                assert faulty is not None
                conn.execute(
                    "INSERT INTO match_faults (match_id, ply, seat, kind, blame, detail)"
                    " VALUES (%s, 6, %s, 'timeout', 'bot', 'answered after 1400 ms')",
                    faulty,
                )
            faulty_id = str(faulty[0])
            for label, (width, height) in WIDTHS.items():
                page, problems = open_page(browser, width, height)
                base = ladder.http

                look(page, f"{base}/bots", f"ops-bots-{label}")
                rows = page.locator("#bots tbody tr")
                assert rows.count() >= 6
                assert "probation" in page.locator('#bots tr[data-bot="grace"]').inner_text()
                assert "disabled" in page.locator('#bots tr[data-bot="barbara"]').inner_text()
                assert (
                    "built-in"
                    in page.locator('#bots tr[data-bot="builtin:heuristic"]').inner_text()
                )

                look(page, f"{base}/bots/grace", f"ops-bot-probation-{label}")
                standing = page.locator("#standing")
                assert standing.get_attribute("data-state") == "probation"
                assert "On probation" in standing.inner_text()
                assert "6 of the last 20 matches had faults" in standing.inner_text()

                look(page, f"{base}/bots/ada", f"ops-bot-{label}")
                assert "Rated: in rated play" in page.inner_text("#standing")
                versions = page.locator("#versions tbody tr")
                assert versions.count() == 2
                assert "active" in page.locator('#versions tr[data-version="ada@v2"]').inner_text()
                assert page.locator('#versions tr[data-version="ada"] td').nth(2).inner_text() == ""
                matches = page.locator("#recent tbody tr")
                assert matches.count() == 20
                changes = page.locator("#recent .elo-change").all_inner_texts()
                assert all("→" in text for text in changes), changes
                fault = page.locator(f'#faults tr[data-match="{faulty_id}"]')
                assert "timeout" in fault.inner_text()
                assert "answered after" not in page.inner_text(
                    "body"
                )  # a fault's detail is private
                assert fault.locator("a").get_attribute("href") == f"/replay/{faulty_id}?ply=6"
                marked = page.locator(f'#recent tr[data-match="{faulty_id}"] .faults a')
                assert marked.inner_text() == "1 timeout"
                assert page.is_disabled("#newer") and page.is_enabled("#older")
                first_page = page.locator("#recent tbody tr").first.get_attribute("data-match")
                page.click("#older")
                page.wait_for_selector('body[data-matches-page="1"]')
                assert page.url.endswith("?page=1")
                assert page.locator("#recent tbody tr").first.get_attribute("data-match") != (
                    first_page
                )
                assert page.is_enabled("#newer")
                width_now, window = page.evaluate(PAGE_WIDTH)
                assert width_now <= window
                page.screenshot(
                    path=str(SCREENSHOTS / f"ops-bot-page2-{label}.png"), full_page=True
                )

                look(page, f"{base}/leagues", f"ops-leagues-{label}")
                row = page.locator('#leagues tr[data-league="ada-vs-grace"]').inner_text()
                assert "finished after 3 rounds" in row
                assert "of 500" not in row

                look(page, f"{base}/leagues/ada-vs-grace", f"ops-league-sprt-{label}")
                final = progress[-1]
                assert final["verdict"] == "H1"
                verdict = page.locator("#verdict")
                assert verdict.get_attribute("data-verdict") == "H1"
                assert "H1 accepted: ada is stronger than grace" in verdict.inner_text()
                figures = page.inner_text("#sprt-figures")
                assert f"{final['llr']:.3f}" in figures
                assert f"{final['lower']:.3f} … {final['upper']:.3f}" in figures
                # Eleven pairs of twelve won: the interval is open above, bounded below.
                assert final["elo_error"] is None and final["elo_high"] is None
                assert f"{final['elo']:+.1f} (95%: at least {final['elo_low']:+.0f})" in figures
                first = progress[0]
                assert first["pairs"] == [0, 0, 0, 0, 4] and first["verdict"] is None
                page.wait_for_selector('#llr-chart[data-points="3"]')
                assert (
                    page.evaluate(
                        "() => document.getElementById('llr-chart').getBoundingClientRect().height"
                    )
                    > 150
                )
                counts = page.locator("#pentanomial tbody tr td:nth-child(3)").all_inner_texts()
                assert counts == [str(n) for n in final["pairs"]]
                assert "ada finished above grace in both games" in page.inner_text("#pentanomial")
                assert "of 500 rounds" not in page.inner_text("body")
                assert "finished after 3 rounds" in page.inner_text("#content")
                width_now, window = page.evaluate(PAGE_WIDTH)
                assert width_now <= window
                assert not problems, problems
                page.context.close()
            assert uuid.UUID(faulty_id)
            assert ids
        finally:
            ladder.stop()
