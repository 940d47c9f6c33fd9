"""Standings a person trusts (issue 42, item 2), in a real browser over `premiere ladder` on a
scratch database, at 1366 and 390 px: a provisional bot never ranks above an established one by
default, and a visitor may sort by the point estimate; an interval of no width is never shown
as "1500 (1500-1500)"; when the whole scale moves (a bot becomes established, and the
established bots' average is held at 1500) the page says so; the rating-history chart has
dates and opponents and draws the start."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import psycopg
from playwright.sync_api import Browser

from tests.integration.services import scratch_database
from tests.ladder.synthetic import Synthetic, add_bots, insert_matches
from tests.ladder.test_api import Ladder
from tests.spectator.test_dashboard import eventually
from tests.spectator.test_rough_edges import BROKEN, WIDTHS, open_tab
from tests.spectator.test_watching import SCREENSHOTS, browser  # noqa: F401

GAME = "movie-tricks"
ROWS = """() => [...document.querySelectorAll('#leaderboard tbody tr')].map((row) => ({
  player: row.dataset.player,
  rank: row.querySelector('.rank').innerText,
  standing: row.querySelector('.standing').innerText,
  provisional: row.querySelector('.badge.provisional') !== null,
}))"""


def board(ladder: Ladder, matches: int) -> dict[str, Any]:
    return eventually(
        lambda: (
            found
            if (found := ladder.get(f"/api/games/{GAME}/leaderboard"))["standings_matches"]
            == matches
            else None
        ),
        f"{matches} matches rated and fitted",
        timeout=60,
    )


def test_standings_a_person_trusts(browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    names = ["anchor-bot", *[f"guest{i}" for i in range(12)], "rookie", "climber"]
    with scratch_database() as database_url:
        with psycopg.connect(database_url) as conn:
            bots = add_bots(conn, names)
            # anchor-bot alone is established (25 matches); its opponents play two or three.
            first = [
                Synthetic(("anchor-bot", f"guest{i % 12}"), (1, 2) if i % 3 else (2, 1))
                for i in range(25)
            ]
            # The rookie wins both its matches: a high estimate on little evidence.
            first += [Synthetic(("rookie", "anchor-bot"), (1, 2))] * 2
            insert_matches(conn, first, bots)
        ladder = Ladder(database_url, tmp_path / "ladder.log")
        try:
            ladder.wait_serving()
            before = board(ladder, len(first))
            entries = {e["player"]: e for e in before["entries"]}
            assert not entries["anchor-bot"]["provisional"] and entries["rookie"]["provisional"]
            for width in WIDTHS:
                page, problems = open_tab(browser, width)
                page.goto(f"{ladder.http}/?refresh=0.5#game={GAME}")
                page.wait_for_selector("#leaderboard tbody tr")
                rows = page.evaluate(ROWS)
                # Established first: the rookie, whatever its estimate, below anchor-bot.
                order = [r["player"] for r in rows]
                assert order[0] == "anchor-bot", order
                assert [r["rank"] for r in rows] == [str(i) for i in range(1, len(rows) + 1)]
                assert (
                    entries["rookie"]["standing"]["rating"]
                    > entries["anchor-bot"]["standing"]["rating"]
                )
                # An interval of no width is a bare number, not "1500 (1500-1500)".
                anchor = rows[0]["standing"]
                low, high = (entries["anchor-bot"]["standing"][k] for k in ("low", "high"))
                if round(low) == round(high):
                    assert "\u2013" not in anchor and "no interval" in anchor, anchor
                for row in rows:
                    assert not re.search(r"\((\d+)\u2013\1\)", row["standing"]), row
                # Sorted by the estimate, as a visitor may choose: the rookie above anchor-bot.
                page.select_option("#sort", "estimate")
                by_estimate = [r["player"] for r in page.evaluate(ROWS)]
                want = sorted(
                    before["entries"],
                    key=lambda e: -(e["standing"]["rating"] if e["standing"] else -1e9),
                )
                assert by_estimate == [e["player"] for e in want], by_estimate
                assert by_estimate.index("rookie") < by_estimate.index("anchor-bot")
                page.select_option("#sort", "sure")
                assert [r["player"] for r in page.evaluate(ROWS)] == order
                text = page.inner_text("#leaderboard-section")
                assert "never ranks above an established one" in text
                assert not BROKEN.search(text)
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SCREENSHOTS / f"standings-{width}.png"), full_page=True)
                # The rating history: the start, then each match by date, naming opponents.
                page.click("#leaderboard button.player-link[data-player='rookie']")
                page.wait_for_selector("#history-section:not([hidden])")
                labels = eventually(
                    lambda page=page: page.evaluate(
                        "() => { const c = Chart.getChart(document.getElementById("
                        "'history-chart'));"
                        " return c && c.data.labels.length === 3 ? c.data.labels : null; }"
                    ),
                    "the chart drawn",
                )
                assert labels[0] == "start"
                assert all(
                    re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?", x) for x in labels[1:]
                )
                told = page.evaluate(
                    "() => { const c = Chart.getChart(document.getElementById('history-chart'));"
                    " const t = c.options.plugins.tooltip.callbacks;"
                    " return [t.title([{ dataIndex: 0 }]), t.label({ dataIndex: 0 }),"
                    " t.label({ dataIndex: 1 })]; }"
                )
                assert "start" in told[0] and told[1] == "Elo 1500.0", told
                assert "against anchor-bot" in told[2] and "place 1 of 2" in told[2], told
                page.context.close()
                assert problems == []

            # The scale moves: the climber becomes established with strong results, and the
            # established bots' average, held at 1500, now includes it.
            page, problems = open_tab(browser, "desktop")
            page.goto(f"{ladder.http}/?refresh=0.5#game={GAME}")
            page.wait_for_selector("#leaderboard tbody tr")
            assert page.is_hidden("#scale-notice")
            with psycopg.connect(database_url) as conn:
                more = [
                    Synthetic(("climber", f"guest{i % 12}"), (1, 2) if i % 5 else (2, 1))
                    for i in range(22)
                ]
                insert_matches(conn, more, bots)
            after = board(ladder, len(first) + len(more))
            moved = {
                e["player"]: e["standing"]["rating"]
                - {b["player"]: b for b in before["entries"]}[e["player"]]["standing"]["rating"]
                for e in after["entries"]
                if e["player"] in entries
            }
            assert abs(moved["anchor-bot"]) > 25, moved  # the scale did move
            notice = eventually(
                lambda: (
                    page.inner_text("#scale-notice") if page.is_visible("#scale-notice") else None
                ),
                "the scale notice",
            )
            assert "The scale moved" in notice, notice
            assert "no bot played better or worse" in notice, notice
            assert "climber became established" in notice, notice
            assert "held at 1500" in notice
            # The ladder recorded the move: its size is how far the idle anchor-bot moved.
            recorded = ladder.get(f"/api/games/{GAME}/leaderboard")["scale_moves"]
            assert [m["joined"] for m in recorded] == [["climber"]], recorded
            shift = recorded[0]["shift"]
            assert abs(shift - moved["anchor-bot"]) < 0.25 * abs(moved["anchor-bot"]), (
                shift,
                moved,
            )
            told = f"{'+' if shift > 0 else chr(0x2212)}{abs(shift):.0f} points"
            assert told in notice, (told, notice)
            # A first-time visitor, on a phone, with nothing stored from before, reads it too.
            first_time, trouble = open_tab(browser, "phone")
            first_time.goto(f"{ladder.http}/#game={GAME}")
            first_time.wait_for_selector("#scale-notice:not([hidden])")
            fresh = first_time.inner_text("#scale-notice")
            assert told in fresh and "climber became established" in fresh, fresh
            box = first_time.locator("#scale-notice").bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
            first_time.context.close()
            assert trouble == []
            page.screenshot(path=str(SCREENSHOTS / "standings-scale-moved.png"), full_page=True)
            page.context.close()
            assert problems == []
        finally:
            ladder.stop()
