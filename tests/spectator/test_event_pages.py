"""Events on the pages, in a real browser at 1366 and 390 px: the home page and /events list
them with their state, /events/<name> shows the entry rules, schedule, entrants, results and a
knockout's bracket (round one's heats finished with who went through, round two's heat being
played, the bye), and an unknown event says so. Never wider than the window, no missing value
printed."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
from playwright.sync_api import Browser

from tests.integration.services import scratch_database
from tests.ladder.synthetic import Synthetic, add_bots, insert_matches
from tests.ladder.test_api import Ladder
from tests.spectator.test_rough_edges import WIDTHS, browser, open_tab, visit  # noqa: F401
from workers.planning import PlayedTable, fold_duplicates, plan, standings

GAME = "movie-tricks"
SEEDS = ("ada", "grace", "edsger", "barbara", "donald", "ken")
LEAGUE_SEED = "cd" * 16


def _knockout_event(conn: psycopg.Connection[object]) -> None:
    """ "spring-cup", a knockout of six bots at two seats: round one played (the better seed
    wins every table of its heat), round two planned, not played."""
    bots = add_bots(conn, SEEDS)
    start = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
    league = conn.execute(
        "INSERT INTO leagues (name, game, format, players, bots, rounds, seed, settings)"
        " VALUES ('event-spring-cup', %s, 'knockout', 2, %s, 3, %s, '{}') RETURNING id",
        (GAME, list(SEEDS), LEAGUE_SEED),
    ).fetchone()
    assert league is not None
    event = conn.execute(
        "INSERT INTO events (name, game, format, players, rounds, opens_at, starts_at, status,"
        " league_id, min_games) VALUES ('spring-cup', %s, 'knockout', 2, 3, %s, %s,"
        " 'running', %s, 5) RETURNING id",
        (GAME, start - timedelta(days=2), start, league[0]),
    ).fetchone()
    assert event is not None
    for index, bot in enumerate(SEEDS):
        conn.execute(
            "INSERT INTO event_entries (event_id, bot, account, entered_at)"
            " VALUES (%s, %s, %s, %s)",
            (event[0], bot, f"{bot}-lab", start - timedelta(hours=10 - index)),
        )
    first = plan("knockout", SEEDS, 2, 1, LEAGUE_SEED, [], {})
    matches = [
        Synthetic(t.seats, tuple(1 + sorted(t.seats, key=SEEDS.index).index(b) for b in t.seats))
        for t in first
    ]
    ids = insert_matches(conn, matches, bots)
    conn.execute(
        "INSERT INTO league_rounds (league_id, number, slot, status, closed_at)"
        " VALUES (%s, 1, 'after:0', 'closed', now()), (%s, 2, 'after:1', 'open', NULL)",
        (league[0], league[0]),
    )
    for table_no, (table, match_id) in enumerate(zip(first, ids, strict=True)):
        conn.execute(
            "INSERT INTO league_tables (league_id, round, table_no, seats, seed, grp, match_id,"
            " status) VALUES (%s, 1, %s, %s, %s, %s, %s, 'finished')",
            (league[0], table_no, list(table.seats), table.seed, table.group, match_id),
        )
    played = fold_duplicates(
        [
            PlayedTable(1, t.seats, t.seed, t.group, m.ranks)
            for t, m in zip(first, matches, strict=True)
        ]
    )
    conn.execute(
        "UPDATE league_rounds SET standings = %s WHERE league_id = %s AND number = 1",
        (json.dumps(standings("knockout", SEEDS, played)), league[0]),
    )
    second = plan("knockout", SEEDS, 2, 2, LEAGUE_SEED, played, {})
    for table_no, table in enumerate(second):
        conn.execute(
            "INSERT INTO league_tables (league_id, round, table_no, seats, seed, grp)"
            " VALUES (%s, 2, %s, %s, %s, %s)",
            (league[0], table_no, list(table.seats), table.seed, table.group),
        )
    conn.execute(
        "INSERT INTO events (name, game, format, players, opens_at, starts_at, status, invited)"
        " VALUES ('autumn-open', %s, 'round-robin', 2, %s, %s, 'open', ARRAY['ada-lab'])",
        (GAME, start, start + timedelta(days=30)),
    )
    conn.commit()


def test_event_pages_show_entrants_schedule_results_and_the_bracket(
    browser: Browser,  # noqa: F811
    tmp_path: Path,
) -> None:
    with scratch_database() as database_url:
        with psycopg.connect(database_url) as conn:
            _knockout_event(conn)
        ladder = Ladder(database_url, tmp_path / "ladder.log")
        try:
            ladder.wait_serving()
            for width in WIDTHS:
                page, problems = open_tab(browser, width)
                page.goto(f"{ladder.http}/")
                page.wait_for_selector("#events tbody tr")
                home = page.inner_text("#events-section")
                assert "spring-cup" in home and "running" in home
                assert "autumn-open" in home and "open for entry" in home

                listed = visit(page, f"{ladder.http}/events", f"events-{width}")
                assert "spring-cup" in listed and "knockout, 2 seats" in listed
                assert "2026-12-01 18:00" in listed  # the start, in the pages' one date format

                shown = visit(page, f"{ladder.http}/events/spring-cup", f"event-{width}")
                assert "Event spring-cup" in shown
                assert "running" in shown
                assert "at least 5 rated games" in shown and "one bot an account" in shown
                assert "Entry opens" in shown and "2026-11-29 18:00" in shown
                assert "Entrants (6)" in shown and "ada-lab" in shown
                # Round one: three heats, the better seed through in each.
                assert "Heat 1 finished: ada (through), ken" in shown
                assert "Heat 2 finished: grace (through), donald" in shown
                assert "Heat 3 finished: edsger (through), barbara" in shown
                # Round two: the strongest seed's bye, the other two's heat being played.
                assert "Byes (through without playing): ada" in shown
                assert "playing: grace, edsger" in shown
                assert "Champion" not in shown
                results = page.inner_text("#results")
                assert "ada" in results and "ken" in results

                page.click("#entrants a >> nth=0")
                page.wait_for_selector("body[data-ready]")
                assert page.url.endswith("/bots/ada")

                missing = visit(page, f"{ladder.http}/events/nobody-cup")
                assert "No such event" in missing
                assert not problems, problems
                page.context.close()
        finally:
            ladder.stop()
