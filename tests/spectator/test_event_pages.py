"""Events on the pages, in a real browser at 1366 and 390 px: the home page and /events list
them with their state, /events/<name> shows the entry rules, schedule, entrants, results and a
knockout's bracket (round one's heats finished with who went through, round two's heat being
played, the bye), drawn a column a round on a desktop and a round under another on a phone,
and moving on by itself as a heat finishes; a divisions event shows each division's table in
a section of its own anchor, with who went up and down, and a bot's page its division history;
an unknown event says so. Never wider than the window, no missing value printed."""

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
from workers.planning import PlayedTable, fold_duplicates, plan, resolve_settings, standings

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


DIVISION_BOTS = ("alan", "alonzo", "kurt", "emmy", "john", "claude", "hedy", "margaret")


def _better_seed_wins(seats: tuple[str, ...], order: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(1 + sorted(seats, key=order.index).index(bot) for bot in seats)


def _divisions_event(conn: psycopg.Connection[object]) -> None:
    """ "winter-league", divisions of four among eight bots at two seats over two seasons:
    season one played (the better seed wins every table, but margaret beats everyone in
    division 2), season two's first round open."""
    bots = add_bots(conn, DIVISION_BOTS)
    start = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
    resolved = resolve_settings("divisions", DIVISION_BOTS, 2, {})
    length = resolved["season_rounds"]
    league = conn.execute(
        "INSERT INTO leagues (name, game, format, players, bots, rounds, seed, settings)"
        " VALUES ('event-winter-league', %s, 'divisions', 2, %s, %s, %s, %s) RETURNING id",
        (GAME, list(DIVISION_BOTS), 2 * length, LEAGUE_SEED, json.dumps(resolved)),
    ).fetchone()
    assert league is not None
    conn.execute(
        "INSERT INTO events (name, game, format, players, opens_at, starts_at, status,"
        " league_id) VALUES ('winter-league', %s, 'divisions', 2, %s, %s, 'running', %s)",
        (GAME, start - timedelta(days=2), start, league[0]),
    )
    order = ("margaret", *DIVISION_BOTS[:-1])
    history: list[tuple[int, tuple[str, ...], tuple[int, ...]]] = []
    for number in range(1, length + 2):
        tables = plan("divisions", DIVISION_BOTS, 2, number, LEAGUE_SEED, history, {}, resolved)
        closed = number <= length
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
        matches = [Synthetic(t.seats, _better_seed_wins(t.seats, order)) for t in tables]
        ids = insert_matches(conn, matches, bots) if closed else [None] * len(tables)
        for table_no, (table, match_id) in enumerate(zip(tables, ids, strict=True)):
            conn.execute(
                "INSERT INTO league_tables (league_id, round, table_no, seats, seed, match_id,"
                " status) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                (
                    league[0],
                    number,
                    table_no,
                    list(table.seats),
                    table.seed,
                    match_id,
                    "finished" if closed else "planned",
                ),
            )
            if closed:
                history.append((number, table.seats, matches[table_no].ranks))
        if closed:
            conn.execute(
                "UPDATE league_rounds SET standings = %s WHERE league_id = %s AND number = %s",
                (json.dumps(standings("divisions", DIVISION_BOTS, history)), league[0], number),
            )
    conn.commit()


def _finish_the_second_round(database_url: str) -> None:
    """The heat of spring-cup's round two is dispatched, then played (grace wins it), and the
    round closes: what the workers would write."""
    with psycopg.connect(database_url) as conn:
        league = conn.execute("SELECT id FROM leagues WHERE name = 'event-spring-cup'").fetchone()
        assert league is not None
        tables = conn.execute(
            "SELECT table_no, seats FROM league_tables WHERE league_id = %s AND round = 2"
            " ORDER BY table_no",
            (league[0],),
        ).fetchall()
        bots = dict(conn.execute("SELECT name, id FROM bots").fetchall())
        matches = [
            Synthetic(tuple(seats), _better_seed_wins(tuple(seats), SEEDS)) for _n, seats in tables
        ]
        ids = insert_matches(conn, matches, bots)
        for (table_no, _seats), match_id in zip(tables, ids, strict=True):
            conn.execute(
                "UPDATE league_tables SET match_id = %s, status = 'finished'"
                " WHERE league_id = %s AND round = 2 AND table_no = %s",
                (match_id, league[0], table_no),
            )
        conn.execute(
            "UPDATE league_rounds SET status = 'closed', closed_at = now()"
            " WHERE league_id = %s AND number = 2",
            (league[0],),
        )
        conn.commit()


def _boxes(page: object, selector: str) -> list[dict[str, float]]:
    return page.evaluate(  # type: ignore[attr-defined, no-any-return]
        "(s) => [...document.querySelectorAll(s)].map((e) => e.getBoundingClientRect())"
        ".map((r) => ({x: r.x, y: r.y, w: r.width}))",
        selector,
    )


def test_event_pages_show_entrants_schedule_results_and_the_bracket(
    browser: Browser,  # noqa: F811
    tmp_path: Path,
) -> None:
    with scratch_database() as database_url:
        with psycopg.connect(database_url) as conn:
            _knockout_event(conn)
            _divisions_event(conn)
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
                heat = "[data-round='1'] [data-heat='{}']"
                assert page.inner_text(heat.format(1)).split() == [
                    "Heat", "1", "·", "finished", "ada", "through", "ken",
                ]  # fmt: skip
                assert "grace through" in page.inner_text(heat.format(2))
                assert "edsger through" in page.inner_text(heat.format(3))
                assert "barbara" in page.inner_text(heat.format(3))
                # Round two: the strongest seed's bye, the other two's heat being played.
                assert "Byes (through without playing): ada" in shown
                second = page.inner_text("[data-round='2'] [data-heat='1']")
                assert "playing" in second and "grace" in second and "edsger" in second
                assert "Champion" not in shown
                rounds = _boxes(page, ".bracket-round")
                assert len(rounds) == 2
                if width == "desktop":  # a column a round, side by side
                    assert rounds[0]["y"] == rounds[1]["y"] and rounds[0]["x"] < rounds[1]["x"]
                else:  # one under another, each the width of the page
                    assert rounds[0]["x"] == rounds[1]["x"] and rounds[0]["y"] < rounds[1]["y"]
                    assert rounds[0]["w"] <= 390
                results = page.inner_text("#results")
                assert "ada" in results and "ken" in results

                page.click("#entrants a >> nth=0")
                page.wait_for_selector("body[data-ready]")
                assert page.url.endswith("/bots/ada")

                # A divisions event: a section a division, with its own anchor.
                league = visit(
                    page, f"{ladder.http}/events/winter-league#division-1-2", f"divisions-{width}"
                )
                assert "Season 2 (playing)" in league and "Season 1" in league
                first = page.inner_text("#division-1-1")
                assert first.split()[:2] == ["Division", "1"]
                assert "alan" in first and "emmy" in first and "relegated" in first
                lower = page.inner_text("#division-1-2")
                assert "margaret" in lower and "promoted" in lower
                assert page.inner_text("#division-1-2 tbody tr >> nth=0").split()[:2] == [
                    "1",
                    "margaret",
                ]
                assert "margaret" in page.inner_text("#division-2-1")  # went up
                assert "emmy" in page.inner_text("#division-2-2")  # went down
                # margaret's page: her seasons, place and move.
                bot = visit(page, f"{ladder.http}/bots/margaret", f"bot-divisions-{width}")
                assert "Divisions" in bot
                history = page.inner_text("#division-history")
                rows = [line.split("\t") for line in history.strip().splitlines()[1:]]
                assert rows[0][:5] == ["winter-league", "1", "2 of 2", "1 of 4", "6"]
                assert rows[0][5].strip() == "promoted"
                assert rows[1][:4] == ["winter-league", "2", "1 of 2", "4 of 4 so far"]
                assert rows[1][5].strip() == "playing"

                missing = visit(page, f"{ladder.http}/events/nobody-cup")
                assert "No such event" in missing
                assert not problems, problems
                page.context.close()
            # Live: the open page moves on by itself as round two's heat is played.
            page, problems = open_tab(browser, "desktop")
            visit(page, f"{ladder.http}/events/spring-cup?refresh=0.5")
            assert page.locator("[data-round='2'] [data-heat='1'][data-state='playing']").count()
            _finish_the_second_round(database_url)
            page.wait_for_selector("[data-round='2'] [data-heat='1'][data-state='finished']")
            done = page.inner_text("[data-round='2'] [data-heat='1']")
            assert "grace through" in done
            final = page.inner_text("[data-round='3']")
            assert "the final" in final and "ada" in final and "grace" in final
            assert not problems, problems
            page.context.close()
        finally:
            ladder.stop()
