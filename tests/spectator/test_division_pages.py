"""A division's own page (``/events/<name>/seasons/<s>/divisions/<d>``) on a real
`premiere ladder` process over a scratch database, in a real browser at 1366 and 390 px:
where the division sits ("Division 2 of 3"), its standings best first with owners, the moves
at a season's end or "in play" while it runs, the zones that go up and down marked and said in
words, its tables linked to their replays or live pages, the same division in the seasons
around it and the divisions above and below, how places become points; linked from the event
page's division sections and from a bot's division history. Its JSON twin pages its tables by
cursor and never carries anything of a running match but its id. An event, season or division
that is not there is a 404 page saying which. Never wider than the window."""

from __future__ import annotations

import json
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
from playwright.sync_api import Browser, Page

from tests.integration.services import scratch_database
from tests.ladder.synthetic import Synthetic, add_bots, insert_matches
from tests.ladder.test_api import Ladder
from tests.spectator.test_rough_edges import (  # noqa: F401
    WIDTHS,
    browser,
    open_tab,
    status_of,
    visit,
)
from workers.formats.divisions import seasons
from workers.planning import plan, resolve_settings, standings

GAME = "movie-tricks"
EVENT = "harvest-league"
# Three divisions of four at two seats, strongest first; three seasons of six rounds.
BOTS = (
    "ada", "grace", "edsger", "barbara",
    "donald", "ken", "dennis", "frances",
    "john", "leslie", "tony", "radia",
)  # fmt: skip
SEED = "ef" * 16
# Who wins a table: the better of this order, so frances wins every table of division 2.
ORDER = ("frances", *(b for b in BOTS if b != "frances"))
DECOY = 987654
"""A score written on the running match's row, as if a half-played state leaked there."""


def _event(conn: psycopg.Connection[Any]) -> dict[str, Any]:
    """Season 1 played (rounds 1-6), season 2's first round played and its second open: its
    first table (in division 1) being played by a running match, the others to come."""
    ids = add_bots(conn, BOTS)
    start = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
    resolved = resolve_settings("divisions", BOTS, 2, {"seasons": 3})
    length = resolved["season_rounds"]
    assert length == 6  # a double round robin: each bot meets each in both seats
    league = conn.execute(
        "INSERT INTO leagues (name, game, format, players, bots, rounds, seed, settings)"
        " VALUES (%s, %s, 'divisions', 2, %s, %s, %s, %s) RETURNING id",
        (f"event-{EVENT}", GAME, list(BOTS), 3 * length, SEED, json.dumps(resolved)),
    ).fetchone()
    assert league is not None
    event = conn.execute(
        "INSERT INTO events (name, game, format, players, opens_at, starts_at, status,"
        " league_id) VALUES (%s, %s, 'divisions', 2, %s, %s, 'running', %s) RETURNING id",
        (EVENT, GAME, start - timedelta(days=2), start, league[0]),
    ).fetchone()
    assert event is not None
    for index, bot in enumerate(BOTS):
        conn.execute(
            "INSERT INTO event_entries (event_id, bot, account, entered_at)"
            " VALUES (%s, %s, %s, %s)",
            (event[0], bot, f"{bot}-lab", start - timedelta(hours=20 - index)),
        )
    history: list[tuple[int, tuple[str, ...], tuple[int, ...]]] = []
    running = ""
    for number in range(1, length + 3):
        tables = plan("divisions", BOTS, 2, number, SEED, history, {}, resolved)
        closed = number <= length + 1
        conn.execute(
            "INSERT INTO league_rounds (league_id, number, slot, status, closed_at)"
            " VALUES (%s, %s, %s, %s, %s)",
            (
                league[0],
                number,
                f"after:{number - 1}",
                "closed" if closed else "open",
                start if closed else None,
            ),
        )
        won = [
            tuple(1 + sorted(t.seats, key=ORDER.index).index(b) for b in t.seats) for t in tables
        ]
        if closed:
            matches = insert_matches(
                conn, [Synthetic(t.seats, r) for t, r in zip(tables, won, strict=True)], ids
            )
        else:
            running = insert_matches(conn, [Synthetic(tables[0].seats, (1, 2), "running")], ids)[0]
            conn.execute(
                "UPDATE matches SET outcome = %s WHERE id = %s",
                (json.dumps({"ranks": [2, 1], "scores": [DECOY, 0]}), running),
            )
            matches = [running] + [None] * (len(tables) - 1)
        for table_no, (table, match_id) in enumerate(zip(tables, matches, strict=True)):
            status = "finished" if closed else "dispatched" if match_id else "planned"
            conn.execute(
                "INSERT INTO league_tables (league_id, round, table_no, seats, seed, match_id,"
                " status) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                (league[0], number, table_no, list(table.seats), table.seed, match_id, status),
            )
            if closed:
                history.append((number, table.seats, won[table_no]))
        if closed:
            conn.execute(
                "UPDATE league_rounds SET standings = %s WHERE league_id = %s AND number = %s",
                (json.dumps(standings("divisions", BOTS, history)), league[0], number),
            )
    conn.commit()
    return {"running": running, "history": history, "settings": resolved}


def _rows(page: Page) -> list[list[str]]:
    """The standings as shown: each row's cells, their visible words one space apart."""
    return page.eval_on_selector_all(  # type: ignore[no-any-return]
        "#standings tbody tr",
        "(rows) => rows.map((r) => [...r.cells]"
        ".map((c) => c.innerText.trim().split(/\\s+/).join(' ')))",
    )


def _fits(page: Page) -> None:
    """Neither table needs scrolling sideways: no column hidden past its box's edge."""
    boxes = page.eval_on_selector_all(
        ".scroll-box", "(boxes) => boxes.map((b) => [b.scrollWidth, b.clientWidth])"
    )
    assert boxes and all(inside <= box + 1 for inside, box in boxes), boxes


def _href(page: Page, selector: str) -> str:
    found = page.get_attribute(selector, "href")
    assert found is not None, selector
    return found


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return json.loads(reply.read())


def test_a_division_has_its_own_page(browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    with scratch_database() as database_url:
        with psycopg.connect(database_url) as conn:
            made = _event(conn)
        # The format's own tables of season 2 so far (one round of six closed), the oracle.
        now = seasons(BOTS, 2, made["settings"], made["history"], 7)[1]
        ladder = Ladder(database_url, tmp_path / "ladder.log")
        base = f"/events/{EVENT}/seasons"
        try:
            ladder.wait_serving()
            http = ladder.http

            # The JSON twin: its tables page by cursor, none repeated or skipped.
            api = f"{http}/api{base}/2/divisions/1"
            whole = _get(api)
            assert whole["division"] == 1 and whole["divisions"] == 3 and not whole["over"]
            assert [r["bot"] for r in whole["standings"]] == [p.bot for p in now.divisions[0]]
            assert [r["owner"] for r in whole["standings"]] == [
                f"{p.bot}-lab" for p in now.divisions[0]
            ]
            assert whole["next"] is None and len(whole["matches"]) == 4  # 2 a round, 2 rounds
            paged, cursor = [], ""
            while True:
                answer = _get(f"{api}?limit=3" + (f"&cursor={cursor}" if cursor else ""))
                assert len(answer["matches"]) <= 3
                paged += answer["matches"]
                cursor = answer["next"]
                if not cursor:
                    break
            assert paged == whole["matches"]
            # The running match: its id and that it is being played, nothing of its state.
            (live,) = [m for m in whole["matches"] if m["state"] == "playing"]
            assert live["match_id"] == made["running"]
            assert live["ranks"] is None and live["points"] is None
            assert str(DECOY) not in json.dumps(whole)
            assert status_of(f"{http}/api{base}/9/divisions/1")[0] == 404
            assert status_of(f"{http}/api{base}/1/divisions/4")[0] == 404

            for width in WIDTHS:
                page, problems = open_tab(browser, width)

                # Season 1, division 2: over; frances won every table and went up.
                shown = visit(page, f"{http}{base}/1/divisions/2", f"division-1-2-{width}")
                assert page.inner_text("#title") == f"{EVENT} · Season 1 · Division 2"
                where = page.inner_text("#where")
                assert "Division 2 of 3" in where and "season 1 of 3" in where
                assert "the season is over" in where
                rows = _rows(page)
                assert rows == [
                    ["1 ↑", "frances frances-lab", "6", "6", "promoted"],
                    ["2", "donald donald-lab", "4", "6", "stayed"],
                    ["3", "ken ken-lab", "2", "6", "stayed"],
                    ["4 ↓", "dennis dennis-lab", "0", "6", "relegated"],
                ]
                assert page.inner_text("#zones") == (
                    "At the season's end the top 1 went up to division 1,"
                    " the bottom 1 went down to division 3."
                )
                assert "A table of 2 gives 1 to the 1st, 0 to the 2nd" in shown
                assert "two tied at the top get 0.5 each" in shown
                assert page.inner_text("#previous-season") == "No season before"
                assert _href(page, "#next-season").endswith(f"{base}/2/divisions/2")
                assert _href(page, "#division-above").endswith(f"{base}/1/divisions/1")
                assert _href(page, "#division-below").endswith(f"{base}/1/divisions/3")
                assert "Tables (12 of 12 played)" in shown
                _fits(page)
                replays = page.locator("#matches a.watch")
                assert replays.count() == 12
                assert all(
                    (replays.nth(i).get_attribute("href") or "").startswith("/replay/")
                    and replays.nth(i).inner_text() == "replay"
                    for i in range(12)
                )
                page.click("#next-season")
                page.wait_for_selector("body[data-ready]")
                assert page.inner_text("#title") == f"{EVENT} · Season 2 · Division 2"

                # Season 2, division 1: in play, frances among the strongest, bottom zone marked.
                visit(page, f"{http}{base}/2/divisions/1", f"division-2-1-{width}")
                assert "the season is being played" in page.inner_text("#where")
                rows = _rows(page)
                assert [r[1] for r in rows] == [f"{p.bot} {p.bot}-lab" for p in now.divisions[0]]
                assert "frances frances-lab" in [r[1] for r in rows]
                assert [r[4] for r in rows] == [
                    "in play", "in play", "in play", "in play",
                ]  # fmt: skip
                assert page.inner_text("#zones") == (
                    "Top division: at the season's end the bottom 1 goes down to division 2."
                    " The rows now in those places are marked: ↓ in the down zone."
                )
                zones = page.eval_on_selector_all(
                    "#standings tbody tr",
                    "(rows) => rows.map((r) => [r.dataset.zone || '',"
                    " getComputedStyle(r.cells[2]).backgroundColor])",
                )
                assert [z for z, _ in zones] == ["", "", "", "down"]
                assert [r[0] for r in rows] == ["1", "2", "3", "4 ↓"]
                _fits(page)
                assert zones[3][1] != zones[0][1]  # the zone is drawn, not only tagged
                assert page.inner_text("#division-above") == "The top division"
                assert page.inner_text("#next-season") == "Season 3 has not begun"
                playing = page.locator("#matches tr[data-state='playing']")
                assert playing.count() == 1
                assert "#" not in playing.inner_text() and str(DECOY) not in page.content()
                assert _href(page, "#matches tr[data-state='playing'] a.watch") == (
                    f"/live/{made['running']}"
                )
                assert page.inner_text("#matches tr[data-state='playing'] a.watch") == "watch live"
                assert "Tables (2 of 4 played)" in page.inner_text("#matches-section")

                # Season 2, division 2: both zones; division 3: the bottom one, top zone only.
                visit(page, f"{http}{base}/2/divisions/2", f"division-2-2-{width}")
                zoned = page.eval_on_selector_all(
                    "#standings tbody tr", "(rows) => rows.map((r) => r.dataset.zone || '')"
                )
                assert zoned == ["up", "", "", "down"]
                assert [r[0] for r in _rows(page)] == ["1 ↑", "2", "3", "4 ↓"]
                _fits(page)
                assert page.inner_text("#zones").startswith(
                    "At the season's end the top 1 goes up to division 1,"
                    " the bottom 1 goes down to division 3."
                )
                visit(page, f"{http}{base}/2/divisions/3")
                assert "Division 3 of 3 (the bottom division)" in page.inner_text("#where")
                assert page.inner_text("#zones").startswith(
                    "Bottom division: at the season's end the top 1 goes up to division 2."
                )
                assert page.inner_text("#division-below") == "The bottom division"

                # The event page's division sections link here, and so does a bot's history.
                visit(page, f"{http}/events/{EVENT}")
                link = "#division-1-2 h4 a"
                assert _href(page, link) == f"{base}/1/divisions/2"
                page.click(link)
                page.wait_for_selector("body[data-ready]")
                assert page.inner_text("#title") == f"{EVENT} · Season 1 · Division 2"
                visit(page, f"{http}/bots/frances")
                history = page.locator("#division-history tbody tr a.division-page")
                assert [history.nth(i).inner_text() for i in range(history.count())] == [
                    "2 of 3",
                    "1 of 3",
                ]
                assert history.nth(1).get_attribute("href") == f"{base}/2/divisions/1"
                history.nth(0).click()
                page.wait_for_selector("body[data-ready]")
                assert page.url.endswith(f"{base}/1/divisions/2")

                # Not there: a 404 page that says what is missing.
                for path, words in (
                    (f"{base}/9/divisions/1", "has no season 9: seasons 1 to 2 have begun"),
                    (f"{base}/1/divisions/4", "has no division 4: its divisions are 1 to 3"),
                    (f"{base}/one/divisions/1", "No season 'one'"),
                    ("/events/nobody-cup/seasons/1/divisions/1", "There is no event"),
                ):
                    status, body = status_of(f"{http}{path}")
                    assert status == 404 and '<h2 id="what">No such' in body, (path, status)
                    missing = visit(page, f"{http}{path}")
                    assert words in missing, (path, missing)
                    heading = "No such event" if "nobody" in path else "No such division"
                    assert page.inner_text("#what") == heading
                assert not problems, problems
                page.context.close()
        finally:
            ladder.stop()
