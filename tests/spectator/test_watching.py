"""The spectator pages in a real browser on a real stack: the arbiter (hosting built-in bots
and a slow network bot), a Celery worker and beat playing a league, and `premiere ladder`
serving the pages and following live matches through the arbiter's WatchMatch. Headless
Chromium (Playwright) reads what a person would see; a screenshot of every page is written to
$PREMIERE_SCREENSHOTS (default .state/screenshots/) for review."""

from __future__ import annotations

import json
import os
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

import games
from spectator.replays import expand
from tests.integration.services import ROOT, start_bot, wait_ended
from tests.ladder.stack import Stack, running_stack
from tests.spectator.test_dashboard import CHROMIUM, CHROMIUM_ARGS, eventually

SCREENSHOTS = Path(os.environ.get("PREMIERE_SCREENSHOTS", ROOT / ".state" / "screenshots"))
OMNISCIENT_DELAY = 3
LEAGUE = "watch-round-robin"
TOP_PLAYERS = 2


# What a person sees on the current frame of a replay: its index, the move line, the renderer,
# every seat's score as shown in its box, whether the result banner shows, the film named in
# Movie Trailer's "film was" line, and how far the page itself has scrolled.
SEEN = """() => ({
  index: Number(document.getElementById("replay").dataset.index),
  line: document.getElementById("move").innerText,
  renderer: document.querySelector("#table > div").dataset.renderer,
  scores: [...document.querySelectorAll("#table .seat")].map((seat) => {
    const shown = seat.querySelector(".seat-score");
    return shown && shown.offsetParent !== null ? shown.dataset.score : null;
  }),
  banner: document.getElementById("banner").hidden
    ? null : document.getElementById("banner").innerText,
  revealed: document.getElementById("film-revealed")?.innerText ?? null,
  scrollY: window.scrollY,
})"""

STEP_TO_THE_END = (
    """() => {
  const seen = """
    + SEEN
    + """;
  const steps = [];
  const forward = document.getElementById("forward");
  while (!forward.disabled) {
    forward.click();
    steps.push(seen());
  }
  return steps;
}"""
)

MOVE_LIST = """() => [...document.querySelectorAll("#moves li[data-index]")].map((item) => ({
  index: Number(item.dataset.index),
  text: item.innerText,
  forced: item.classList.contains("forced"),
}))"""

NO_PAGE_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"

DESKTOP: ViewportSize = {"width": 1366, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}


def plain(text: str) -> str:
    """A move's text as the page shows it: its *emphasis* in italics, without the stars."""
    return text.replace("*", "")


def seats_for(game: str) -> list[str]:
    count = max(2, min(games.get(game).player_counts))
    return ["builtin:heuristic", *["builtin:random"] * (count - 1)]


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    with running_stack(
        tmp_path,
        PREMIERE_LADDER_OMNISCIENT_DELAY_MOVES=str(OMNISCIENT_DELAY),
        PREMIERE_LADDER_METRICS_TOP_PLAYERS=str(TOP_PLAYERS),
        PREMIERE_LADDER_METRICS_REFRESH_S="0.3",
        PREMIERE_LADDER_MAX_LIVE_VIEWERS="1",
    ) as running:
        yield running


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


class Tab:
    """A page that records every console error, page error and failed request."""

    def __init__(self, browser: Browser, stack: Stack) -> None:
        self.context = browser.new_context(viewport=DESKTOP, timezone_id="UTC", locale="en-GB")
        self.page: Page = self.context.new_page()
        self.stack = stack
        self.problems: list[str] = []
        self.page.on(
            "console",
            lambda m: (
                self.problems.append(f"console {m.type}: {m.text}")
                if m.type in ("error", "warning")
                else None
            ),
        )
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on(
            "response",
            lambda r: (
                self.problems.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None
            ),
        )

    def open(self, path: str, ready: str = "body[data-ready]") -> Page:
        self.page.goto(self.stack.http + path)
        self.page.wait_for_selector(ready, state="attached")
        return self.page

    def shot(self, name: str) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)

    def close(self) -> None:
        self.context.close()
        assert self.problems == []


@pytest.fixture
def tab(browser: Browser, stack: Stack) -> Iterator[Tab]:
    opened = Tab(browser, stack)
    try:
        yield opened
    finally:
        opened.close()


def sse(stack: Stack, match_id: str) -> list[tuple[str, dict[str, Any]]]:
    """Every event of a match's live stream, read to its end."""
    events = []
    with urllib.request.urlopen(f"{stack.http}/api/live/{match_id}/events", timeout=60) as reply:
        assert reply.headers["Content-Type"].startswith("text/event-stream")
        name = ""
        for raw in reply:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                name = line.removeprefix("event: ")
            elif line.startswith("data: "):
                events.append((name, json.loads(line.removeprefix("data: "))))
    return events


def test_spectator_pages_on_a_real_stack(stack: Stack, tab: Tab) -> None:
    """One stack and one browser for every page (xdist would give each test its own stack);
    the steps run in this order because the league's rated matches are the metrics' data."""
    replays_step_through_a_match_of_every_game(stack, tab)
    a_running_match_live_then_its_bot_page(stack, tab)
    league_pages_and_the_links_from_the_dashboard(stack, tab)
    per_player_metrics_are_bounded_and_match_the_ladder(stack)
    bad_requests_get_a_clear_error(stack)


def replays_step_through_a_match_of_every_game(stack: Stack, tab: Tab) -> None:
    matches = {game: stack.match(game, seats_for(game)) for game in games.ids()}
    for match_id in matches.values():
        wait_ended(stack.arbiter.matches(), match_id)
    page = tab.page
    for game, match_id in matches.items():
        views = views_of(stack, match_id)
        frames = views["frames"]
        assert views["status"] == "finished" and views["seat_views"]
        assert "seed" not in views
        assert len(frames) > 10 and frames[0]["ply"] is None
        decisions = [f["ply"] for f in frames[1:] if not f["forced"]]
        assert decisions == list(range(len(decisions)))
        assert all(len(f["seats"]) == len(views["players"]) for f in frames)

        tab.open(f"/replay/{match_id}")
        table = page.locator("#table > div")
        assert table.get_attribute("data-renderer") == game
        assert page.is_disabled("#back") and page.is_enabled("#forward")
        # A finished match opens with every hand shown.
        assert page.input_value("#viewer") == "all"
        first = page.evaluate(SEEN)
        # Step through the whole match, one move at a time: the first steps with the keyboard,
        # the rest with the Forward button, clicked in the page (one round trip per match).
        steps = [first]
        for index in range(1, 4):
            page.keyboard.press("ArrowRight")
            assert page.get_attribute("#replay", "data-index") == str(index)
            steps.append(page.evaluate(SEEN))
        steps += page.evaluate(STEP_TO_THE_END)
        assert [step["index"] for step in steps] == list(range(len(frames)))
        films = views["labels"].get("film", {})
        for step, frame in zip(steps, frames, strict=True):
            index = step["index"]
            assert step["renderer"] == game
            # Every seat's score, on every frame, as the engine counts it.
            assert step["scores"] == [str(score) for score in frame["scores"]], (game, index)
            assert "{" not in step["line"], step["line"]
            if index:
                told = f"Move {index}: {plain(frame['text'])}"
                assert step["line"].startswith(told), step["line"]
                assert ("(forced" in step["line"]) == frame["forced"]
            # Stepping never scrolls the page (the move list scrolls by itself).
            assert step["scrollY"] == 0, (game, index)
            assert (step["banner"] is not None) == (index == len(frames) - 1)
            if game == "movie-trailer" and index:
                # Once a turn has ended its film is named, by its title, not its slug.
                past = frame["spectator"]["past_turns"]
                if past:
                    film = past[-1]["film"]
                    assert step["revealed"] and films[film] in step["revealed"], step
                    assert film not in step["revealed"]
        # The result banner: the winner, every seat's final score, the tie-breaks.
        banner = steps[-1]["banner"]
        result = views["result"]
        assert result is not None
        for seat in result["winners"]:
            assert f"{views['players'][seat]} wins" in banner or "Shared win" in banner
        for seat, score in enumerate(result["scores"]):
            assert f"{views['players'][seat]} {score}" in banner, banner
        assert "Tie-breaks:" in banner
        if result["tiebreaks"]:
            assert result["tiebreaks"] in banner
        # The move list: every move in words, grouped, forced moves marked.
        listed = page.evaluate(MOVE_LIST)
        assert [item["index"] for item in listed] == list(range(len(frames)))
        for item in listed[1:]:
            frame = frames[item["index"]]
            assert "{" not in item["text"] and plain(frame["text"]) in item["text"]
            assert item["forced"] == frame["forced"]
        groups = page.locator("#moves .group-name").all_inner_texts()
        assert groups and all(groups), groups
        assert page.is_disabled("#forward") and page.is_disabled("#last")
        assert table.get_attribute("data-renderer") == game
        shots(tab, f"replay-{game}", match_id, len(frames))
        # Back, Home and End from the keyboard; a jump; a link that opens where it was.
        page.keyboard.press("ArrowLeft")
        assert page.get_attribute("#replay", "data-index") == str(len(frames) - 2)
        page.keyboard.press("Home")
        assert page.get_attribute("#replay", "data-index") == "0"
        page.keyboard.press("End")
        assert page.get_attribute("#replay", "data-index") == str(len(frames) - 1)
        middle = len(frames) // 2
        page.fill("#jump", str(middle))
        page.press("#jump", "Enter")
        page.wait_for_selector(f"#replay[data-index='{middle}']", state="attached")
        page.select_option("#viewer", "1")
        assert f"ply={middle}" in page.url and "seen=1" in page.url
        shared = page.get_attribute("#share", "href")
        assert shared == f"/replay/{match_id}?ply={middle}&seen=1"
        tab.open(shared)
        assert page.get_attribute("#replay", "data-index") == str(middle)
        assert page.input_value("#viewer") == "1"
        assert page.evaluate("window.scrollY") == 0  # opening at a move does not scroll

    # Hidden cards: the spectator sees none of a Movie Tricks hand; every seat's view shows it.
    match_id = matches["movie-tricks"]
    frames = views_of(stack, match_id)["frames"]
    ply = next(i for i, f in enumerate(frames) if f["seats"][0]["hand"])
    tab.open(f"/replay/{match_id}?ply={ply}&seen=spectator")
    assert page.locator(".seat[data-seat='0'] .hand .card").count() == 0
    page.select_option("#viewer", "all")
    hand = page.locator(".seat[data-seat='0'] .hand .card")
    assert hand.count() == len(frames[ply]["seats"][0]["hand"])
    # Magic Trick: face-down fans for the spectator, every card face up across the seats' views.
    match_id = matches["magic-trick"]
    frames = views_of(stack, match_id)["frames"]
    ply = next(i for i, f in enumerate(frames) if f["spectator"]["fans"])
    tab.open(f"/replay/{match_id}?ply={ply}&seen=spectator")
    assert page.locator(".fan .card.back").count() > 0
    page.select_option("#viewer", "all")
    assert page.locator(".fan .card").count() > 0
    assert page.locator(".fan .card.back").count() == 0

    # The generic renderer, which a game without one of its own gets, draws any view: the
    # seats with their per-seat values and, with every seat's view, what each seat saw.
    frames = views_of(stack, match_id)["frames"]
    tab.open(f"/replay/{match_id}?ply={ply}&seen=all&renderer=generic")
    assert page.locator("#table > div").get_attribute("data-renderer") == "generic"
    assert page.locator(".seat").count() == len(frames[ply]["seats"])
    assert page.locator(".seat .private").count() == len(frames[ply]["seats"])
    assert page.locator(".seat .private .card").count() > 0
    tab.shot("replay-generic-renderer")

    # Play runs by itself and stops at the end; pause stops it.
    tab.open(f"/replay/{matches['movie-fight']}?speed=50")
    page.click("#play")
    eventually(lambda: int(page.get_attribute("#replay", "data-index") or 0) > 3, "playing")
    page.click("#play")
    stopped = page.get_attribute("#replay", "data-index")
    time.sleep(0.3)
    assert page.get_attribute("#replay", "data-index") == stopped

    # The omniscient live view, for an all-built-in match only, trails by the operator's delay.
    events = sse(stack, matches["movie-tricks"])
    (match,) = [data for name, data in events if name == "match"]
    assert match["omniscient_delay"] == OMNISCIENT_DELAY
    # A finished match's stream: its moves come as one backlog (and any left as single events),
    # the latest omniscient view with them.
    backlogs = [data for name, data in events if name == "backlog"]
    moves = [m for b in backlogs for m in b["moves"]]
    moves += [data for name, data in events if name == "move"]
    seen = [b["omniscient"] for b in backlogs if b["omniscient"]]
    seen += [data for name, data in events if name == "omniscient"]
    frames = frames_of(stack, matches["movie-tricks"])
    assert [m["ply"] for m in moves] == list(range(len(moves)))
    assert len(moves) == len([f for f in frames[1:] if not f["forced"]])
    upto = moves[-1]["ply"] - OMNISCIENT_DELAY
    assert seen and seen[-1]["ply"] == upto
    behind = [f for f in frames if f["ply"] == upto][-1]
    assert seen[-1]["seats"] == behind["seats"]
    assert seen[-1]["spectator"] == behind["spectator"]
    assert events[-1][0] == "end"
    # The same on the live page (here a finished match, whose stream replays to its end).
    tab.open(f"/live/{matches['movie-tricks']}")
    page.wait_for_selector("body[data-ended]", state="attached")
    heading = page.inner_text("#omniscient h2")
    assert f"Every hand, {OMNISCIENT_DELAY} moves behind" in heading, heading
    renderer = page.locator("#omniscient > div").get_attribute("data-renderer")
    assert renderer == "movie-tricks"
    live_page_tells_moves_and_the_result(tab, views_of(stack, matches["movie-tricks"]))
    tab.shot("live-omniscient")


def live_page_tells_moves_and_the_result(tab: Tab, views: dict[str, Any]) -> None:
    """An ended match on its live page: every move in words (as the replay tells them), and
    the result: the winner and every seat's final score."""
    page = tab.page
    texts = page.locator("#moves li[data-index]").all_inner_texts()
    frames = views["frames"][1:]
    assert len(texts) == len(frames)
    for text in texts:
        assert "{" not in text and not text.endswith(" decided"), text
    # Told to the spectator while it ran: a card played face down stays unnamed.
    line = page.inner_text("#last-move")
    assert line.startswith(f"Move {len(frames)}: ") and "{" not in line, line
    assert not line.endswith(" decided"), line
    result = views["result"]
    assert result is not None
    shown = page.inner_text("#result")
    for seat, score in enumerate(result["scores"]):
        assert f"{views['players'][seat]} {score}" in shown, shown
    if len(result["winners"]) == 1:
        assert f"{views['players'][result['winners'][0]]} wins" in shown, shown
    assert page.evaluate("window.scrollY") == 0


def shots(tab: Tab, name: str, match_id: str, frames: int) -> None:
    """The start, middle and end of a replay, on a desktop and on a phone, where no page is
    wider than the screen."""
    page = tab.page
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        for where, index in (("start", 0), ("middle", frames // 2), ("end", frames - 1)):
            tab.open(f"/replay/{match_id}?ply={index}")
            assert page.get_attribute("#replay", "data-index") == str(index)
            assert page.evaluate(NO_PAGE_SCROLL), (name, size, where)
            assert page.evaluate("window.scrollY") == 0
            tab.shot(f"{name}-{where}-{size}")
    page.set_viewport_size(DESKTOP)


def no_page_scroll_on_a_phone(
    tab: Tab, path: str, name: str, ready: str = "body[data-ready]"
) -> None:
    page = tab.page
    page.set_viewport_size(PHONE)
    try:
        tab.open(path, ready=ready)
        page.wait_for_timeout(300)  # charts and late rows
        width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], (path, width)
        tab.shot(f"phone-{name}")
    finally:
        page.set_viewport_size(DESKTOP)


def views_of(stack: Stack, match_id: str) -> dict[str, Any]:
    """A match's replay views, whole (the API sends each frame's changes only)."""
    return expand(stack.get(f"/api/matches/{match_id}/views"))


def frames_of(stack: Stack, match_id: str) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = views_of(stack, match_id)["frames"]
    return frames


def a_running_match_live_then_its_bot_page(stack: Stack, tab: Tab) -> None:
    token = stack.arbiter.add_bot("slowpoke")
    bot = start_bot(stack.arbiter, "tests.ladder.slow_bot:SlowBot", token, stack.folder / "bot.log")
    try:
        eventually(
            lambda: stack.status("/api/bots/slowpoke") == 200, "the bot registered", timeout=20
        )
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
        match_id = stack.match(
            "movie-tricks",
            ["slowpoke", "builtin:heuristic"],
            move_time_ms=300,
            time_bank_ms=1,
            strike_limit=20,
        )
        page = tab.page
        # On the dashboard, the running match is a link to its live view.
        tab.open("/?refresh=0.5", ready=f"#live-matches li[data-match='{match_id}']")
        assert page.is_visible("#live-section")
        assert "slowpoke vs builtin:heuristic" in page.inner_text("#live-matches")
        link = page.locator(f"#live-matches li[data-match='{match_id}'] a.watch")
        assert link.get_attribute("href") == f"/live/{match_id}"
        tab.shot("dashboard-live-strip")
        # Listed as running on the live page too; the row leads to the live view.
        tab.open("/live?refresh=0.5")
        row = page.locator(f"#live .live-card[data-match='{match_id}']")
        row.wait_for()
        assert "slowpoke" in row.inner_text()
        tab.shot("live-list")
        no_page_scroll_on_a_phone(tab, "/live?refresh=0.5", "live-list")
        row = page.locator(f"#live .live-card[data-match='{match_id}']")
        row.locator("a.watch").click()
        page.wait_for_selector("body[data-ready]")
        assert page.url.endswith(f"/live/{match_id}")
        eventually(lambda: int(page.get_attribute("body", "data-moves") or 0) >= 2, "moves")
        before = int(page.get_attribute("body", "data-moves") or 0)
        # While it runs: a replay is the spectator's view only, with no moves, seats or seed.
        views = views_of(stack, match_id)
        assert views["status"] == "running" and not views["seat_views"]
        assert all(f["move"] is None and f["seats"] is None for f in views["frames"])
        assert "seed" not in json.dumps(views)
        eventually(
            lambda: int(page.get_attribute("body", "data-moves") or 0) > before,
            "moves arriving while the match runs",
        )
        assert page.locator("#table > div").get_attribute("data-renderer") == "movie-tricks"
        # The last move in words, the seat to move, every seat's clock and time bank.
        line = page.inner_text("#last-move")
        assert "{" not in line and " decided" not in line, line
        assert page.locator("#table .seat.to-move").count() >= 1
        clocks = page.locator("#table .seat .clock").all_inner_texts()
        assert len(clocks) == 2 and all("move" in c and "bank" in c for c in clocks), clocks
        # One browser is all this ladder may stream to (PREMIERE_LADDER_MAX_LIVE_VIEWERS=1).
        try:
            urllib.request.urlopen(f"{stack.http}/api/live/{match_id}/events", timeout=10)
            raise AssertionError("a second live viewer was let in")
        except urllib.error.HTTPError as error:
            assert error.code == 503
            assert "live viewers" in json.loads(error.read())["error"]
        assert page.locator("#omniscient").count() == 0  # a network bot sits at this table
        # Only the cards every spectator knows (shown face up when taken) are on the seats.
        hands = page.locator(".seat .hand").all_inner_texts()
        assert all(text.startswith("known:") for text in hands), hands
        tab.shot("live-match")
        page.wait_for_selector("body[data-ended]", timeout=60_000)
        assert page.is_visible("#ended")
        final = wait_ended(stack.arbiter.matches(), match_id)
        assert int(page.get_attribute("body", "data-moves") or 0) == final.decisions
        live_page_tells_moves_and_the_result(tab, views_of(stack, match_id))
        tab.shot("live-match-ended")

        # Its live stream, read again after the end: spectator views only, no omniscient view
        # (a network bot sits at this table), and the faults by kind without their details.
        events = sse(stack, match_id)
        assert events[0][0] == "match" and events[0][1]["omniscient_delay"] == 0
        assert [name for name, _ in events] == ["match", "backlog", "end"]
        history = events[1][1]
        assert [m["ply"] for m in history["moves"]] == list(range(final.decisions))
        assert all("{" not in m["text"] for m in history["moves"])
        assert events[2][1]["result"]["scores"] == list(final.outcome.scores)
        assert history["faults"]
        for data in history["faults"]:
            assert set(data) == {"type", "ply", "seat", "kind", "blame"}

        # The bot's page: its match, and its faults as the arbiter recorded them.
        with psycopg.connect(stack.arbiter.database_url) as conn:
            faults = dict(
                conn.execute(
                    "SELECT kind, count(*) FROM match_faults WHERE match_id = %s AND seat = 0"
                    " AND blame = 'bot' GROUP BY kind",
                    (match_id,),
                ).fetchall()
            )
        assert (
            faults.get("timeout", 0) >= 1
            and faults.get("illegal", 0) + faults.get("malformed", 0) >= 1
        ), faults
        tab.open("/bots/slowpoke")
        assert page.locator(f"#recent tr[data-match='{match_id}']").count() == 1
        for kind, count in faults.items():
            cells = page.locator(f"#health tr[data-row='{kind}'] td").all_inner_texts()
            assert cells == [str(count), str(count)], (kind, cells)
        p50 = page.locator("#health tr[data-row='latency p50 (ms)'] td").first.inner_text()
        assert float(p50) >= 100
        tab.shot("bot-page")
    finally:
        bot.terminate()
        bot.wait(10)


def league_pages_and_the_links_from_the_dashboard(stack: Stack, tab: Tab) -> None:
    stack.workers.cli(
        "league", "create", "--name", LEAGUE, "--game", "movie-tricks", "--format",
        "round-robin", "--bots", "builtin:random,builtin:heuristic,builtin:first", "--rounds", "2",
    )  # fmt: skip
    page = tab.page
    tab.open("/leagues?refresh=0.5")
    page.locator(f"#leagues tr[data-league='{LEAGUE}'] a").click()
    page.wait_for_selector("body[data-ready]")
    eventually(
        lambda: (
            page.locator("#standings tbody tr").count() == 3
            and stack.get(f"/api/leagues/{LEAGUE}")["league"]["status"] == "finished"
            and page.locator(".round").count() == 2
            and "finished" in page.inner_text("#league-facts")
        ),
        "the league finished on its page",
        timeout=90,
    )
    detail = stack.get(f"/api/leagues/{LEAGUE}")
    shown = page.locator("#standings tbody tr").evaluate_all("rows => rows.map(r => r.dataset.bot)")
    assert shown == [row["bot"] for row in detail["standings"]]
    assert detail["standings_round"] == 2
    tables = [t for r in detail["rounds"] for t in r["tables"]]
    assert tables and all(t["status"] == "finished" for t in tables)
    assert page.locator(".round a.watch").count() == len(tables)
    tab.shot("league")
    no_page_scroll_on_a_phone(tab, page.url.removeprefix(stack.http), "league")
    tab.open("/leagues")
    tab.shot("leagues")
    no_page_scroll_on_a_phone(tab, "/leagues", "leagues")

    # From the leaderboard to a bot's page, and from a match to its visual replay.
    tab.open("/?refresh=0.5#game=movie-tricks", ready="#game option")
    link = page.locator("#leaderboard a.bot-page[href='/bots/builtin%3Aheuristic']")
    link.wait_for(timeout=30_000)
    link.click()
    page.wait_for_selector("body[data-ready]")
    assert page.inner_text("#title") == "builtin:heuristic"
    assert page.locator("#ratings tr[data-game='movie-tricks']").count() == 1
    tab.shot("bot-page-builtin")
    no_page_scroll_on_a_phone(tab, "/bots/builtin%3Aheuristic", "bot-page")
    home = "/?refresh=0.5#game=movie-tricks"
    no_page_scroll_on_a_phone(tab, home, "home", ready="#matches a.replay-watch")
    tab.open("/?refresh=0.5#game=movie-tricks", ready="#matches a.replay-watch")
    page.locator("#matches a.replay-watch").first.click()
    page.wait_for_selector("body[data-ready]")
    assert re.search(r"/replay/[0-9a-f-]{36}\?ply=0$", page.url)
    tab.shot("dashboard-to-replay")


def scrape(stack: Stack) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(f"{stack.http}/metrics", timeout=10) as reply:
        text = reply.read().decode()
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def per_player_metrics_are_bounded_and_match_the_ladder(stack: Stack) -> None:
    """Runs after the league above: its three players are rated; the top two are exported."""
    board = stack.get("/api/games/movie-tricks/leaderboard")
    by_elo = sorted(board["entries"], key=lambda e: -e["elo"])
    assert len(by_elo) == 3

    def exported() -> dict[str, float] | None:
        samples = scrape(stack)
        ratings = {
            dict(labels)["player"]: value
            for (name, labels), value in samples.items()
            if name == "premiere_ladder_player_rating" and ("game", "movie-tricks") in labels
        }
        rated = samples.get(
            ("premiere_ladder_game_rated_matches", frozenset({("game", "movie-tricks")}))
        )
        return ratings if rated == board["rated_matches"] and ratings else None

    ratings = eventually(exported, "the per-player metrics", timeout=20)
    assert ratings == pytest.approx({e["player"]: e["elo"] for e in by_elo[:TOP_PLAYERS]})


BAD_REQUESTS = [
    ("/api/matches/not-a-match/views", 404, "no match"),
    ("/api/matches/00000000-0000-0000-0000-000000000000/views", 404, "no started match"),
    ("/api/bots/nobody-at-all", 404, "no bot"),
    ("/api/bots/builtin:nobody", 404, "no player"),
    ("/api/leagues/no-such-league", 404, "no league"),
    ("/api/live/not-a-match/events", 404, "no match"),
    ("/api/live/00000000-0000-0000-0000-000000000000/events", 404, "no match"),
]


def bad_requests_get_a_clear_error(stack: Stack) -> None:
    for path, status, says in BAD_REQUESTS:
        try:
            urllib.request.urlopen(stack.http + path, timeout=10)
            raise AssertionError(f"{path} answered")
        except urllib.error.HTTPError as error:
            assert error.code == status, path
            assert says in json.loads(error.read())["error"], path
    assert stack.status("/healthz") == 200
