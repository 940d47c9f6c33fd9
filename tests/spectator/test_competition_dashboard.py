"""The dashboard's competition sections in a real browser (headless Chromium via Playwright,
`premiere ladder` on a scratch database): a game's seat advantage, its SPRT tests with their
log-likelihood ratio, and a bot's versions and standing. The data is written by the real
functions that write it in production (version announcement, standing changes, an SPRT
league's progress after its rounds); the matches are synthetic."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
from playwright.sync_api import Browser

from server.bots import announce_version
from tests.ladder.synthetic import Synthetic, add_bots, insert_matches
from tests.ladder.test_api import Ladder
from tests.spectator.test_dashboard import browser, database_url, eventually  # noqa: F401
from workers import gate, leagues
from workers.planning import progress_of
from workers.standing import Change

GAME = "movie-tricks"


def test_competition_sections(database_url: str, browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    with psycopg.connect(database_url) as conn:
        bots = add_bots(conn, ["ada", "grace"])
        # Seat 0 wins 3 of 4 two-player matches.
        matches = [
            Synthetic(("ada", "grace") if i % 2 else ("grace", "ada"), (1, 2) if i % 4 else (2, 1))
            for i in range(40)
        ]
        insert_matches(conn, matches, bots)
    announce_version(database_url, "ada", "1")
    announce_version(database_url, "ada", "2")
    with leagues.connect(database_url) as conn:
        conn.execute("UPDATE bots SET games = '{}' WHERE name LIKE 'ada%%'")
        gate.apply(conn, "ada@2", None, Change("validating", "validating", "validating: 2 matches"))
        gate.apply(conn, "ada@2", "validating", Change("rated", "validated", "validation passed"))
        gate.apply(conn, "ada@2", "rated", Change("probation", "probation", "on probation: 3 of 4"))
        league = leagues.create_league(
            conn,
            name="h2h",
            game=GAME,
            format="sprt",
            players=2,
            bots=["ada", "grace"],
            settings={"elo1": 100},
        )
        pairs = [
            (f"pair{k}", [(("ada", "grace"), (1, 2)), (("grace", "ada"), (1, 2))]) for k in range(6)
        ]
        state = progress_of("sprt", league.bots, pairs, league.settings)
        assert state is not None and state.verdict is None
        conn.execute(
            "UPDATE leagues SET progress = %s WHERE id = %s",
            (json.dumps(dict(state.state)), league.id),
        )

    ladder = Ladder(database_url, tmp_path / "ladder.log")
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    # ada@2 has played no rated match yet, so dashboard.js's rating-history request is a 404;
    # anything else failing is a problem.
    page.on(
        "response",
        lambda r: (
            problems.append(f"HTTP {r.status}: {r.url}")
            if r.status >= 400 and "/history" not in r.url
            else None
        ),
    )
    try:
        ladder.wait_serving()
        page.goto(f"{ladder.http}/?refresh=0.5#game={GAME}&player=ada@2")

        # Seat advantage: the first seat's 3-in-4 is shown with its interval and Elo.
        page.wait_for_selector("#seats tbody tr[data-seat='0']")
        first = page.inner_text("#seats tbody tr[data-seat='0']").split("\t")
        assert first[:3] == ["2", "1", "0.750"]
        low, high = (float(x) for x in first[3].split(" \N{EN DASH} "))
        assert low < 0.75 < high and first[4] == "+191"

        # The SPRT league, with its LLR inside the bounds (six even pairs: leaning to H0).
        page.wait_for_selector("#sprt-section:not([hidden]) tr[data-league='h2h']")
        row = page.inner_text("tr[data-league='h2h']")
        assert "ada vs grace" in row and "0 / 0 / 6 / 0 / 0" in row and "running" in row
        meter = page.eval_on_selector("tr[data-league='h2h'] meter", "m => [m.min, m.max, m.value]")
        assert meter[0] < meter[2] < 0 < meter[1]
        assert f"{state.state['llr']:.2f}" in row

        # The selected version: on probation, the history of its standing, and the lineage.
        page.wait_for_selector("#bot-section:not([hidden])")
        assert page.inner_text("#standing-state") == "probation"
        kinds = page.eval_on_selector_all(
            "#standing-events li", "ls => ls.map(l => l.dataset.kind)"
        )
        assert kinds == ["probation", "validated", "validating"]
        versions = page.eval_on_selector_all(
            "#versions tbody tr", "rs => rs.map(r => [r.dataset.version, r.className])"
        )
        assert versions == [["ada", ""], ["ada@2", "active"]]
        assert "Family ada" in page.inner_text("#versions-family")
        eventually(
            lambda: page.evaluate("Number(document.body.dataset.competitionRefreshes) >= 2"),
            "a second refresh",
        )
        assert not problems, problems
    finally:
        page.context.close()
        ladder.stop()
