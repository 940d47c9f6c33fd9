"""The ladder's dashboard in a real browser: `premiere ladder` on a scratch database serves the
page, Debian's Chromium (headless, driven by Playwright) loads it, and the test reads what a
person would see: the empty ladder, then, as matches are rated, the leaderboard, the other
game's leaderboard, a player's rating-history chart, the matches page by page and a replay."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any, TypeVar

import psycopg
import pytest
from playwright.sync_api import Browser, Page, Route, expect, sync_playwright

from games import all_games
from ladder.anchors import set_anchor
from tests.integration.services import scratch_database
from tests.ladder.synthetic import Synthetic, add_bots, insert_matches, random_matches
from tests.ladder.test_api import Ladder
from tests.movie_fight.helpers import GAME as MOVIE_FIGHT
from tests.movie_fight.helpers import insert_solo

CHROMIUM = Path(os.environ.get("PREMIERE_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TRICKS = "movie-tricks"
MAGIC = "magic-trick"
FIGHT = MOVIE_FIGHT.id
TRICKS_PLAYERS = ["ada", "grace", "edsger", "barbara", "donald", "builtin:heuristic"]
MAGIC_PLAYERS = ["ada", "linus", "builtin:random"]

_T = TypeVar("_T")


def eventually(check: Callable[[], _T | None], what: str, timeout: float = 10) -> _T:
    """Poll ``check`` until it returns something other than None (or False)."""
    deadline = time.monotonic() + timeout
    last: _T | None = None
    while time.monotonic() < deadline:
        last = check()
        if last is not None and last is not False:
            return last
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}; last saw {last!r}")


def whole(value: float) -> str:
    """A rating as the page shows it: JavaScript's toFixed(0), ties away from zero."""
    return str(Decimal(value).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def expected_rows(board: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for entry in board["entries"]:
        standing = entry["standing"]
        assert standing is not None, board
        rows.append(
            {
                "rank": str(entry["rank"]),
                "player": entry["player"],
                "elo": whole(entry["elo"]),
                # An interval of no width (an anchor's) is never "1620 (1620-1620)".
                "standing": (
                    f"{whole(standing['rating'])} (sets the scale: no interval)"
                    if whole(standing["low"]) == whole(standing["high"])
                    else f"{whole(standing['rating'])} "
                    f"({whole(standing['low'])}\u2013{whole(standing['high'])})"
                ),
                "games": str(entry["games"]),
                "provisional": entry["provisional"],
                "builtin": entry["builtin"],
                "reference": entry["reference"],
                "anchor": entry["anchor"],
            }
        )
    return rows


SHOWN_ROWS = """() => [...document.querySelectorAll('#leaderboard tbody tr')].map(row => ({
  rank: row.querySelector('.rank').textContent,
  player: row.dataset.player,
  elo: row.querySelector('.elo').textContent,
  standing: row.querySelector('.standing').textContent,
  games: row.querySelector('.games').textContent,
  provisional: row.querySelector('.badge.provisional') !== null,
  builtin: row.querySelector('.badge.builtin') !== null,
  reference: row.querySelector('.badge.reference') !== null,
  anchor: row.querySelector('.badge.anchor') !== null,
}))"""

SHOWN_MATCHES = (
    "() => [...document.querySelectorAll('#matches tbody tr')].map(r => r.dataset.match)"
)


def shown_rows(page: Page) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = page.evaluate(SHOWN_ROWS)
    return rows


def shown_matches(page: Page) -> list[str]:
    ids: list[str] = page.evaluate(SHOWN_MATCHES)
    return ids


@pytest.fixture
def database_url() -> Iterator[str]:
    with scratch_database() as url:
        yield url


@pytest.fixture
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(
            f"Chromium not found at {CHROMIUM}: the dashboard test needs a real browser. "
            "apt-get install chromium; make test installs it"
        )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield launched
        finally:
            launched.close()


def wait_fitted(ladder: Ladder, game: str, count: int) -> dict[str, Any]:
    """The leaderboard once ``count`` matches are rated and the standings fitted on them all."""

    def settled() -> dict[str, Any] | None:
        board: dict[str, Any] = ladder.get(f"/api/games/{game}/leaderboard")
        if board["rated_matches"] == board["standings_matches"] == count:
            return board
        return None

    return eventually(settled, f"{count} rated and fitted {game} matches", timeout=20)


def test_dashboard_in_a_real_browser(database_url: str, browser: Browser, tmp_path: Path) -> None:
    with psycopg.connect(database_url) as conn:
        bots = add_bots(conn, ["ada", "grace", "edsger", "barbara", "donald", "linus"])

    ladder = Ladder(database_url, tmp_path / "ladder.log")
    context = browser.new_context(
        viewport={"width": 1200, "height": 900}, timezone_id="UTC", locale="en-GB"
    )
    page = context.new_page()
    problems: list[str] = []
    page.on(
        "console",
        lambda message: (
            problems.append(f"console {message.type}: {message.text}")
            if message.type in ("error", "warning")
            else None
        ),
    )
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on(
        "response",
        lambda response: (
            problems.append(f"HTTP {response.status}: {response.url}")
            if response.status >= 400
            else None
        ),
    )
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    try:
        ladder.wait_serving()

        # An empty ladder: every game in the picker, and says so instead of an empty table.
        page.goto(f"{ladder.http}/?refresh=0.5")
        games = [g["game"] for g in ladder.get("/api/games")["games"]]
        assert sorted(games) == sorted(game.id for game in all_games())
        page.wait_for_selector("#leaderboard-empty:not([hidden])")
        options = page.eval_on_selector_all("#game option", "os => os.map(o => o.value)")
        assert options == games
        first_game = page.input_value("#game")
        assert first_game == games[0]
        assert "No rated matches yet" in page.inner_text("#leaderboard-empty")
        assert "No finished matches yet" in page.inner_text("#matches-empty")
        assert page.is_hidden("#leaderboard") and page.is_hidden("#history-section")

        # Matches finish; the ladder rates them and the open page picks them up by itself.
        with psycopg.connect(database_url, autocommit=True) as conn:
            set_anchor(conn, TRICKS, "builtin:heuristic", 1620.0)
        with psycopg.connect(database_url) as conn:
            tricks = random_matches(30, TRICKS_PLAYERS, seed=7)
            tricks_ids = insert_matches(conn, tricks, bots)
            # Two-player magic-trick matches round a triangle; every third one an upset.
            magic = [
                Synthetic(
                    (MAGIC_PLAYERS[i % 3], MAGIC_PLAYERS[(i + 1) % 3]),
                    (2, 1) if i % 3 == 0 else (1, 2),
                    game=MAGIC,
                )
                for i in range(9)
            ]
            insert_matches(conn, magic, bots)
            conn.execute(
                "INSERT INTO match_moves (match_id, ply, seat, move, defaulted, forced) VALUES"
                " (%s, 0, 0, %s, false, '[]'), (%s, 1, 1, %s, true, %s)",
                (
                    tricks_ids[0],
                    '{"kind": "pass"}',
                    tricks_ids[0],
                    '{"kind": "play", "card": 3}',
                    '[{"seat": 2, "move": {"kind": "play", "card": 7, "boost": false}}]',
                ),
            )
            conn.commit()
        tricks_board = wait_fitted(ladder, TRICKS, 30)
        magic_board = wait_fitted(ladder, MAGIC, 9)

        page.select_option("#game", TRICKS)
        want = expected_rows(tricks_board)
        assert [row["player"] for row in want] != sorted(row["player"] for row in want)
        eventually(lambda: shown_rows(page) == want, "the movie-tricks leaderboard")
        assert page.is_hidden("#leaderboard-empty")
        assert {row["player"] for row in want} == set(TRICKS_PLAYERS)
        assert [row["builtin"] for row in want].count(True) == 1
        # The operator's anchor: badged, at its pin, and the standings on its scale.
        assert [row["player"] for row in want if row["anchor"]] == ["builtin:heuristic"]
        pinned = page.locator("#leaderboard tr[data-player='builtin:heuristic']")
        expect(pinned.locator(".badge.anchor")).to_have_text("anchor")
        expect(pinned.locator(".elo")).to_have_text("1620")
        expect(pinned.locator(".standing")).to_contain_text("1620 (")
        assert any(row["provisional"] for row in want)
        summary = page.inner_text("#leaderboard-summary")
        assert "6 players" in summary and "30 rated matches" in summary
        picker = page.eval_on_selector_all("#game option", "os => os.map(o => o.textContent)")
        played = {"Magic Trick (9 rated matches)", "Movie Tricks (30 rated matches)"}
        assert played <= set(picker)
        assert all(text in played or text.endswith("(0 rated matches)") for text in picker)

        # Another game: another table.
        page.select_option("#game", MAGIC)
        want_magic = expected_rows(magic_board)
        eventually(lambda: shown_rows(page) == want_magic, "the magic-trick leaderboard")
        assert {row["player"] for row in want_magic} == set(MAGIC_PLAYERS)
        assert "game=magic-trick" in page.url

        # Solo Movie Fight: the automa levels it was rated against are fixed reference rows.
        with psycopg.connect(database_url, autocommit=True) as conn:
            for level in (1, 3):
                insert_solo(conn, bots["ada"], level, f"dashboard-solo-{level}", "heuristic")
        solo_board = wait_fitted(ladder, FIGHT, 2)
        page.select_option("#game", FIGHT)
        want_solo = expected_rows(solo_board)
        eventually(lambda: shown_rows(page) == want_solo, "the movie-fight leaderboard")
        assert {row["player"] for row in want_solo if row["reference"]} == {
            "builtin:automa:1",
            "builtin:automa:3",
        }
        assert not next(row for row in want_solo if row["player"] == "ada")["reference"]

        page.select_option("#game", TRICKS)
        eventually(lambda: shown_rows(page) == want, "the movie-tricks leaderboard again")

        # A player's rating history: one chart point per rated match, ending at the live Elo.
        ada = next(e for e in tricks_board["entries"] if e["player"] == "ada")
        history = ladder.get(f"/api/bots/ada/history?game={TRICKS}")["points"]
        assert len(history) == ada["games"] > 1
        page.click("#leaderboard button.player-link[data-player='ada']")
        page.wait_for_selector("#history-section:not([hidden])")
        eventually(
            lambda: page.get_attribute("#history-chart", "data-points") == str(len(history)),
            "the chart's points",
        )
        drawn = page.evaluate(
            "() => Chart.getChart(document.getElementById('history-chart')).data.datasets[0].data"
        )
        # The start (the Elo before the first match), then one point per match.
        assert drawn == [history[0]["before"]] + [point["after"] for point in history]
        assert drawn[-1] == ada["elo"]
        # Each match by its date; the tooltip names the opponents.
        labels = page.evaluate(
            "() => Chart.getChart(document.getElementById('history-chart')).data.labels"
        )
        assert labels[0] == "start" and all(
            re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?", x) for x in labels[1:]
        ), labels
        told = page.evaluate(
            "() => { const c = Chart.getChart(document.getElementById('history-chart'));"
            " return c.options.plugins.tooltip.callbacks.label({ dataIndex: 1 }); }"
        )
        assert history[0]["opponents"] and all(o in told for o in history[0]["opponents"]), told
        assert "ada" not in history[0]["opponents"]
        assert page.inner_text("#history-title") == "Rating history: ada"
        assert page.is_visible("#history-chart")
        box = page.locator("#history-chart").bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 200
        assert "player=ada" in page.url
        assert "selected" in (page.get_attribute("tr[data-player='ada']", "class") or "")

        # Recent matches, newest first, ten to a page, with working Older and Newer.
        newest_first = list(reversed(tricks_ids))
        assert shown_matches(page) == newest_first[:10]
        assert page.is_disabled("#newer") and page.is_enabled("#older")
        first_row = page.inner_text(f"#matches tr[data-match='{newest_first[0]}']")
        assert "rated #30" in first_row
        page.click("#older")
        eventually(lambda: shown_matches(page) == newest_first[10:20], "the second page")
        assert page.inner_text("#matches-page") == "page 2"
        page.click("#older")
        eventually(lambda: shown_matches(page) == newest_first[20:], "the last page")
        assert page.is_disabled("#older") and page.is_enabled("#newer")
        page.click("#newer")
        eventually(lambda: shown_matches(page) == newest_first[10:20], "back to the second page")
        page.click("#older")
        eventually(lambda: shown_matches(page) == newest_first[20:], "the last page again")

        # The oldest match's places and rating changes, as the API reports them.
        (oldest,) = [
            m
            for m in ladder.get(f"/api/games/{TRICKS}/matches?page_size=30")["matches"]
            if m["match_id"] == tricks_ids[0]
        ]
        row = page.locator(f"#matches tr[data-match='{tricks_ids[0]}']")
        chips = row.locator("li.seat")
        by_rank = sorted(oldest["seats"], key=lambda s: (s["rank"], s["seat"]))
        assert chips.evaluate_all("cs => cs.map(c => c.dataset.player)") == [
            s["player"] for s in by_rank
        ]
        for chip, seat in zip(chips.all(), by_rank, strict=True):
            delta = seat["rating_delta"]
            sign = "+" if delta > 0 else "\u2212"
            shown = f"{sign}{abs(delta):.1f}"
            if shown[1:] == "0.0":  # the anchor's seats, among others: it never moves
                shown = "\u00b10.0"
            assert chip.locator(".delta").inner_text() == shown
            assert chip.locator(".place").inner_text() == str(seat["rank"])

        # Its moves are told in one place, the replay: the row links to it, and the home page
        # itself prints no move, in words or as raw JSON.
        watch = row.locator("a.replay-watch")
        assert watch.inner_text() == "watch the replay"
        assert watch.get_attribute("href") == f"/replay/{tricks_ids[0]}"
        assert page.locator("#replay-section, #replay-moves, button.replay-view").count() == 0
        assert '{"' not in page.inner_text("body")
        link = row.locator("a.replay-link").get_attribute("href")
        assert link == f"/api/matches/{tricks_ids[0]}/replay"
        replay = page.request.get(ladder.http + link)
        assert replay.ok and replay.json()["players"] == list(tricks[0].seats)

        page.screenshot(path=str(tmp_path / "dashboard.png"), full_page=True)

        # The page keeps refreshing; everything came from the ladder itself, without a hitch.
        refreshes = int(page.get_attribute("body", "data-refreshes") or 0)
        eventually(
            lambda: int(page.get_attribute("body", "data-refreshes") or 0) > refreshes,
            "another refresh",
        )
        assert page.is_hidden("#error")

        # A match created unrated says so, and why, when the match list tells it
        # (created_rated, unrated_reason); one created rated and not rated yet says that.
        told = [
            ("casual", "unrated: casual"),
            ("validation", "unrated: validation match"),
            ("probation", "unrated: a bot on probation"),
            ("same-owner", "unrated: one owner held two seats"),
            (None, "unrated"),
        ]
        marked: dict[str, str] = {}

        def unrated(route: Route) -> None:
            reply = route.fetch()
            body = reply.json()
            for match, (reason, text) in zip(body["matches"], told, strict=False):
                match.update(rated=False, created_rated=False, unrated_reason=reason)
                marked[match["match_id"]] = text
            waiting = body["matches"][len(told)]
            waiting.update(rated=False, created_rated=True, unrated_reason=None)
            marked[waiting["match_id"]] = "not rated yet"
            route.fulfill(response=reply, json=body)

        def listing(url: str) -> bool:
            return f"/api/games/{TRICKS}/matches" in url

        page.route(listing, unrated)
        with page.expect_response(lambda r: listing(r.url)):
            page.click("#newer")
        assert len(marked) == len(told) + 1
        for match_id, text in marked.items():
            cell = page.locator(f"#matches tr[data-match='{match_id}'] .rated-state")
            expect(cell).to_have_text(text)
        page.unroute(listing)
        assert problems == []
        assert all(url.startswith(ladder.http + "/") for url in requested), requested
        assert f"{ladder.http}/static/vendor/chart.umd.js" in requested
    finally:
        context.close()
        code = ladder.stop()
    assert code == 0, ladder.log()
