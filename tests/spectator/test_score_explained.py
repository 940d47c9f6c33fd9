"""Every game explains its final score on the page (issue 42, item 1): a replay of each game
says once how the game scores, and its last move shows, per seat, the parts of its final score
in the game's words with their points, adding up to that seat's score; the live page shows the
same once its match has ended; the match API carries it. In a real browser on a real stack, at
1366 and 390 px."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

import games
from spectator.replays import expand
from tests.integration.services import wait_ended
from tests.ladder.stack import Stack, running_stack
from tests.spectator.test_rough_edges import BROKEN, WIDTHS, open_tab, visit
from tests.spectator.test_watching import SCREENSHOTS, browser, seats_for  # noqa: F401

MINUS = "\u2212"


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    with running_stack(tmp_path, workers=False) as running:
        yield running


def points(text: str) -> int:
    return int(text.replace(MINUS, "-").replace("+", ""))


def shown_breakdown(page: Page) -> list[dict[str, Any]]:
    return page.evaluate(
        """() => [...document.querySelectorAll('#breakdown .breakdown-seat')].map((seat) => ({
          visible: seat.offsetParent !== null,
          player: seat.querySelector('.who').innerText,
          score: seat.querySelector('h4 .score').innerText,
          parts: [...seat.querySelectorAll('li')].map((li) => ({
            points: li.querySelector('.points').innerText,
            text: li.innerText,
          })),
        }))"""
    )


def check_against(shown: list[dict[str, Any]], views: dict[str, Any]) -> None:
    breakdown = views["breakdown"]
    assert breakdown is not None and len(shown) == len(views["players"])
    for seat, (card, told) in enumerate(zip(shown, breakdown["seats"], strict=True)):
        assert card["visible"]
        assert card["player"] == views["players"][seat]
        assert int(card["score"]) == views["result"]["scores"][seat]
        assert sum(points(part["points"]) for part in card["parts"]) == int(card["score"])
        assert [p["points"] for p in told["parts"]] == [points(p["points"]) for p in card["parts"]]
        for part, words in zip(card["parts"], told["parts"], strict=True):
            assert words["text"].replace("*", "") in part["text"], (part, words)


def test_every_replay_ends_by_explaining_its_scores(stack: Stack, browser: Browser) -> None:  # noqa: F811
    matches = {game: stack.match(game, seats_for(game)) for game in games.ids()}
    for match_id in matches.values():
        wait_ended(stack.arbiter.matches(), match_id)
    for width in WIDTHS:
        page, problems = open_tab(browser, width)
        for game, match_id in matches.items():
            views = stack.get(f"/api/matches/{match_id}/views")
            rules = views["breakdown"]["rules"]
            assert rules == games.get(game).score_rules(len(views["players"]), views["options"])
            frames = len(views["frames"])
            # Before the end: the rule once, no breakdown yet.
            text = visit(page, f"{stack.http}/replay/{match_id}?ply=1")
            assert text.count(rules) == 1, (game, rules)
            assert page.locator("#breakdown").is_hidden()
            # The last move: every seat's parts, adding up to its final score.
            text = visit(
                page,
                f"{stack.http}/replay/{match_id}?ply={frames - 1}",
                f"breakdown-{game}-{width}",
            )
            assert text.count(rules) == 1, (game, rules)
            assert "How the scores were made" in page.inner_text("#banner")
            check_against(shown_breakdown(page), views)
            assert not BROKEN.search(page.inner_text("#banner"))
        # Magic Trick while the hands are sorted: the spectator's board says what happens,
        # not an empty table.
        magic = matches["magic-trick"]
        frames = expand(stack.get(f"/api/matches/{magic}/views"))["frames"]
        sorting = next(i for i, f in enumerate(frames) if f["spectator"]["phase"] == "sort")
        visit(page, f"{stack.http}/replay/{magic}?ply={sorting}&seen=spectator")
        assert "Sorting: every player puts its cards in order" in page.inner_text("#sort-note")
        notes = page.locator("#table .seat .sorting-note").all_inner_texts()
        assert len(notes) == len(frames[0]["scores"]) and all("in secret" in n for n in notes)
        # The live page of an ended match shows the same once it has ended.
        match_id = matches["magic-trick"]
        page.goto(f"{stack.http}/live/{match_id}")
        page.wait_for_selector("#breakdown .breakdown-seat")
        check_against(shown_breakdown(page), stack.get(f"/api/matches/{match_id}/views"))
        assert re.search(r"hand 1: the \w+ \d up the sleeve bid \d", page.inner_text("#breakdown"))
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"breakdown-live-{width}.png"), full_page=True)
        size = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert size[0] <= size[1], size
        page.context.close()
        assert problems == []
