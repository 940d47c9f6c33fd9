"""The rough edges a visitor met on the spectator pages (issue 42, item 5), read in a real
browser on a real stack at 1366 and 390 px: no page prints "null", "undefined", "NaN" or raw
JSON; home tells no moves itself but links to the replay; a league's options are words; a
duplicate league names its groups, says how a group is scored and shows each group's result;
a bot page shows its announced version, says it is connected while it plays, and its official
standing and rank; tables fit at 1366 px and say so when they scroll at 390; a group's heading
never covers its first move; Movie Fight names each card one way, without "(card N)"; seats
count from 1 as places do; the live page counts moves as its move list does and shows no clock
after the end; an unknown match or league gets a proper not-found page. A walk over every page
linked from home checks the first of these, and one date format, everywhere."""

from __future__ import annotations

import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from playwright.sync_api import Browser, Page

from tests.integration.services import start_bot, wait_ended
from tests.ladder.stack import Stack, running_stack
from tests.spectator.test_dashboard import eventually
from tests.spectator.test_watching import DESKTOP, PHONE, SCREENSHOTS, browser  # noqa: F401

ROUND_ROBIN = "edges-round-robin"
DUPLICATE = "edges-duplicate"
WIDTHS = {"desktop": DESKTOP, "phone": PHONE}

# Visible words that mean the page printed a missing value or a data structure.
BROKEN = re.compile(r"\b(null|undefined|NaN)\b|\[object Object\]|\{\"|\":\s*[\[{\"0-9]")

# Dates in another format than the one every page uses ("2026-12-06 21:57").
OTHER_DATES = re.compile(
    r"\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\w* \d{4}"
    r"|\b\d{1,2}/\d{1,2}/\d{2,4}\b"
)

# Every box of a table that scrolls: (its width, the width of what it holds, its cue).
BOXES = """() => [...document.querySelectorAll('.scroll-box, .table-wrap, .scroll-x')]
  .filter((box) => box.offsetParent !== null)
  .map((box) => ({
    id: box.querySelector('table')?.id || box.className,
    box: box.clientWidth,
    inside: box.scrollWidth,
    cue: getComputedStyle(box, '::before').content,
  }))"""

# For the first move of every group in the move list: scrolled to the top of the list, is it
# the row itself that shows at its top edge (not a heading laid over it)?
GROUP_FIRST_MOVES_SHOW = """() => {
  const list = document.getElementById('moves');
  list.scrollIntoView({ block: 'start' });
  const firsts = [...list.querySelectorAll('li.group')]
    .map((group) => group.querySelector('li[data-index]')).filter(Boolean);
  return firsts.map((row) => {
    list.scrollTop += row.getBoundingClientRect().top - list.getBoundingClientRect().top;
    const box = row.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + 3);
    return { index: row.dataset.index, shows: Boolean(hit && row.contains(hit)) };
  });
}"""


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    with running_stack(tmp_path) as running:
        yield running


def open_tab(browser: Browser, width: str) -> tuple[Page, list[str]]:  # noqa: F811
    context = browser.new_context(viewport=WIDTHS[width], timezone_id="UTC", locale="en-GB")
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    return page, problems


def visit(page: Page, url: str, shot: str | None = None) -> str:
    page.goto(url)
    page.wait_for_selector("body[data-ready]", state="attached")
    page.wait_for_timeout(300)  # late rows, charts, the overflow cues
    if shot:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{shot}.png"), full_page=True)
    text = page.inner_text("body")
    assert not BROKEN.search(text), (url, BROKEN.search(text), text[:2000])
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], (url, width)
    return text


def status_of(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            return int(reply.status), reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def leagues_played(stack: Stack) -> None:
    bots = "builtin:random,builtin:heuristic,builtin:first"
    stack.workers.cli(
        "league", "create", "--name", ROUND_ROBIN, "--game", "movie-fight", "--format",
        "round-robin", "--bots", bots, "--rounds", "1",
    )  # fmt: skip
    stack.workers.cli(
        "league", "create", "--name", DUPLICATE, "--game", "movie-tricks", "--format",
        "duplicate", "--bots", bots, "--rounds", "1", "--players", "3",
    )  # fmt: skip
    for name in (ROUND_ROBIN, DUPLICATE):
        eventually(
            lambda name=name: (
                stack.get(f"/api/leagues/{name}")["league"]["status"] == "finished" or None
            ),
            f"league {name} finished",
            timeout=120,
        )


def test_no_rough_edges_on_any_page(stack: Stack, browser: Browser) -> None:  # noqa: F811
    leagues_played(stack)
    fight = stack.get(f"/api/leagues/{ROUND_ROBIN}")["rounds"][0]["tables"][0]["match_id"]
    duplicate = stack.get(f"/api/leagues/{DUPLICATE}")
    (group,) = duplicate["rounds"][0]["groups"]
    token = stack.arbiter.add_bot("slowpoke")
    with psycopg.connect(stack.arbiter.database_url) as conn:
        conn.execute("UPDATE bots SET version = 'v7' WHERE name = 'slowpoke'")
    bot = start_bot(stack.arbiter, "tests.ladder.slow_bot:SlowBot", token, stack.folder / "bot.log")
    try:
        eventually(lambda: stack.status("/api/bots/slowpoke") == 200 or None, "bot", timeout=20)
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
            # Its Hello was a while ago, as for any bot playing a long series.
            conn.execute(
                "UPDATE bots SET last_connected_at = now() - interval '3 days'"
                " WHERE name = 'slowpoke'"
            )
        live = stack.match(
            "movie-tricks", ["slowpoke", "builtin:heuristic"], move_time_ms=2000,
            time_bank_ms=5000, strike_limit=20,
        )  # fmt: skip
        for width in WIDTHS:
            page, problems = open_tab(browser, width)
            # /live's small boards name the cards as the full page does, never by id.
            visit(page, f"{stack.http}/live?refresh=0.5")
            board = page.locator(f"#live .live-card[data-match='{live}'] .mini-board")
            board.wait_for()
            assert board.locator(".card").count() > 0
            assert not re.search(r"#\d", board.inner_text()), board.inner_text()
            assert "decision" in page.inner_text(f"#live .live-card[data-match='{live}']")
            listed = stack.get("/api/live")
            assert listed["labels"]["movie-tricks"]["card"]
            (card,) = [m for m in listed["matches"] if m["match_id"] == live]
            assert card["title"] == "Movie Tricks"
            assert (
                page.inner_text(f"#live .live-card[data-match='{live}'] strong") == "Movie Tricks"
            )
            # A registered bot while it plays: its version, connected now, not 3 days ago.
            text = visit(page, f"{stack.http}/bots/slowpoke", f"edges-bot-playing-{width}")
            assert "version\nv7" in text or "version:\nv7" in text or "v7" in text, text
            facts = page.inner_text("#standing-section dl")
            assert "v7" in facts, facts
            assert "connected now, playing 1 match" in facts, facts
            page.context.close()
            assert problems == []
        wait_ended(stack.arbiter.matches(), live)
    finally:
        bot.terminate()
        bot.wait(10)

    for width in WIDTHS:
        page, problems = open_tab(browser, width)
        base = stack.http

        # A non-SPRT league: no "null" above its standings; its options in words.
        text = visit(page, f"{base}/leagues/{ROUND_ROBIN}", f"edges-league-{width}")
        facts = page.inner_text("#league-facts")
        assert "side: A" in facts and "{" not in facts, facts
        # Refreshing, the page asks only for what can still change: the rounds from the first
        # open one (none here: the league has finished), keeping the closed ones it holds.
        asked: list[str] = []
        page.on(
            "request",
            lambda r, asked=asked: asked.append(r.url) if "/api/leagues/" in r.url else None,
        )
        page.goto(f"{base}/leagues/{ROUND_ROBIN}?refresh=0.5")
        eventually(
            lambda page=page: int(page.get_attribute("body", "data-refreshes") or 0) >= 3 or None,
            "three refreshes",
        )
        assert asked[0].endswith(f"/api/leagues/{ROUND_ROBIN}"), asked
        assert all(url.endswith("?since=2") for url in asked[1:]), asked
        assert stack.get(f"/api/leagues/{ROUND_ROBIN}?since=2")["rounds"] == []
        assert page.locator(".round").count() == 1
        assert page.locator(".round a.watch").count() == 1
        # The duplicate league: groups named as a person counts them, how a group is scored,
        # and each group's result; its standings count groups, not tables.
        text = visit(page, f"{base}/leagues/{DUPLICATE}", f"edges-league-duplicate-{width}")
        assert group["group"] not in text, text
        assert "one deal once per seat" in page.inner_text("#duplicate-note")
        cells = page.locator(".round td.group").all_inner_texts()
        assert cells == ["group 1"] * 3, cells
        result = page.inner_text(".group-results li[data-group='1']")
        assert result.startswith("Group 1 (3 tables, one deal): #1 "), result
        for bot_name, points in zip(group["bots"], group["points"], strict=True):
            assert f"{bot_name} {points:g} points" in result, result
        assert sum(group["points"]) == 3 * 3  # places 2, 1, 0 on each of three tables
        headers = page.locator("#standings th").all_inner_texts()
        assert "GROUPS" in [h.upper() for h in headers], headers
        assert "games" not in [h.lower() for h in headers], headers

        # A built-in bot's page: no "null"; its official standing and rank on each game.
        text = visit(page, f"{base}/bots/builtin%3Aheuristic", f"edges-bot-builtin-{width}")
        row = page.locator("#ratings tr[data-game='movie-tricks']")
        assert re.fullmatch(r"#\d of \d", row.locator("td.rank").inner_text())
        assert re.match(r"\d{3,4}", row.locator("td.official").inner_text())

        # Home: the moves of a match are told by its replay, which each row links to.
        page.goto(f"{base}/?refresh=0.5#game=movie-fight")
        page.wait_for_selector("#matches a.replay-watch")
        home = page.inner_text("body")
        assert not BROKEN.search(home), BROKEN.search(home)
        assert page.locator("#replay-moves, button.replay-view").count() == 0
        link = page.locator("#matches a.replay-watch").first
        assert link.inner_text() == "watch the replay"
        assert re.fullmatch(r"/replay/[0-9a-f-]{36}", link.get_attribute("href") or "")

        # Tables fit the window at 1366; on a phone a table that scrolls says so.
        for path in ("/bots", "/leagues", f"/leagues/{DUPLICATE}", "/bots/builtin%3Aheuristic"):
            visit(page, base + path)
            for box in page.evaluate(BOXES):
                if width == "desktop":
                    assert box["inside"] <= box["box"] + 1, (path, box)
                elif box["inside"] > box["box"] + 1:
                    assert "scroll" in box["cue"], (path, box)

        # The Movie Fight replay: every card named one way, never "(card N)"; seats count from
        # 1 as places do; a group's heading never lies over its first move.
        text = visit(page, f"{base}/replay/{fight}?ply=20", f"edges-replay-fight-{width}")
        assert "(card " not in text and " / " not in page.inner_text("#table"), text
        assert page.locator("#table .seat-no").all_inner_texts() == ["1", "2"]
        shown = page.evaluate(GROUP_FIRST_MOVES_SHOW)
        assert len(shown) >= 10 and all(row["shows"] for row in shown), shown

        # The live page of the ended match: moves counted as its list counts them; no clock.
        page.goto(f"{base}/live/{live}")
        page.wait_for_selector("body[data-ended]", state="attached")
        listed = page.locator("#moves li[data-index]").count()
        counted = page.inner_text("#decisions")
        assert counted.split(" ")[0] == str(listed), (counted, listed)
        last = page.inner_text("#last-move")
        assert last.startswith(f"Move {listed}: "), last
        time.sleep(0.6)
        assert page.locator("#table .clock").count() == 0
        assert not BROKEN.search(page.inner_text("body"))

        # Unknown addresses: a page that says so (404), never raw JSON or "Loading…" forever.
        for path, heading in (
            ("/replay/xyz", "No such match"),
            ("/replay/00000000-0000-0000-0000-000000000000", "No such match"),
            ("/live/00000000-0000-0000-0000-000000000000", "No such match"),
            ("/leagues/no-such-league", "No such league"),
        ):
            code, body = status_of(base + path)
            assert code == 404 and "<h1" in body and heading in body, (path, code, body[:200])
            page.goto(base + path)
            assert page.inner_text("#what") == heading
            assert "Loading" not in page.inner_text("body")
            assert page.locator("a#back").count() == 1
        page.goto(f"{base}/bots/nobody-at-all")
        page.wait_for_selector("body[data-not-found]", state="attached")
        assert page.inner_text("#what") == "No such bot"
        assert "Loading" not in page.inner_text("body")

        page.context.close()
        assert problems == []
    walk_every_page(stack, browser)


def walk_every_page(stack: Stack, browser: Browser, limit: int = 80) -> None:  # noqa: F811
    """From home, every page a link leads to (each kind of page a few times at most), at both
    widths: none prints "null", "undefined", "NaN" or raw JSON, none is wider than the window."""
    for width in WIDTHS:
        page, problems = open_tab(browser, width)
        seen: set[str] = set()
        kinds: dict[str, int] = {}
        queue = ["/", "/live", "/bots", "/leagues"]
        while queue and len(seen) < limit:
            path = queue.pop(0)
            if path in seen:
                continue
            seen.add(path)
            page.goto(stack.http + path)
            page.wait_for_selector(
                "body[data-ready], body[data-refreshes], body[data-not-found]", state="attached"
            )
            page.wait_for_timeout(400)
            text = page.inner_text("body")
            assert not BROKEN.search(text), (path, width, BROKEN.search(text))
            assert not OTHER_DATES.search(text), (path, width, OTHER_DATES.search(text))
            size = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert size[0] <= size[1], (path, width, size)
            hrefs = page.eval_on_selector_all(
                "a[href^='/']", "as => as.map(a => a.getAttribute('href'))"
            )
            for href in hrefs:
                target = href.split("#")[0]
                if target.startswith(("/api/", "/static/", "/metrics")) or target in seen:
                    continue
                kind = re.sub(r"/[^/?]+$", "/*", target.split("?")[0])
                if kinds.get(kind, 0) >= 6:
                    continue
                kinds[kind] = kinds.get(kind, 0) + 1
                queue.append(target)
        assert len(seen) >= 15, seen
        page.context.close()
        assert problems == []
