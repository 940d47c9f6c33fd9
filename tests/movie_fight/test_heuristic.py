"""The Movie Fight heuristic: legal, deterministic, better than random, and a solo contender.

The figures over 300 matches are in docs/rules/movie-fight.md; these runs are small on purpose.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from games.play import play_match
from premiere.cli import main
from tests.movie_fight.helpers import GAME


@pytest.mark.parametrize("players", [2, 3, 5])
def test_heuristic_beats_random_on_mean_rank(players: int) -> None:
    matches = 10
    mine = theirs = 0.0
    for index in range(matches):
        seat = index % players
        bots = ["random"] * players
        bots[seat] = "heuristic"
        record = play_match(
            GAME, players, f"heuristic-test/{index}", bots, {"side": "AB"[index % 2]}
        )
        assert record.illegal == 0
        mine += record.outcome.ranks[seat]
        theirs += sum(r for s, r in enumerate(record.outcome.ranks) if s != seat) / (players - 1)
    assert mine / matches + 0.5 < theirs / matches


def test_heuristic_beats_the_level_1_automa_more_often_than_random() -> None:
    wins = {"heuristic": 0, "random": 0}
    for bot in wins:
        for index in range(10):
            record = play_match(GAME, 1, f"solo-test/{index}", [bot], {"level": 1})
            automa = record.outcome.detail["automa"]
            assert isinstance(automa, dict)
            wins[bot] += automa["result"] == "win"
    assert wins["heuristic"] >= wins["random"] + 5


def test_heuristic_matches_are_deterministic_by_seed() -> None:
    first = play_match(GAME, 3, "same", ["heuristic"] * 3)
    again = play_match(GAME, 3, "same", ["heuristic"] * 3)
    assert first.moves == again.moves
    assert first.outcome == again.outcome


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_selfplay_digest_is_the_same_twice(players: int) -> None:
    args = ["selfplay", "--game", "movie-fight", "--players", str(players), "--games", "4"]
    args += ["--seed", "1", "--json"]
    runs = [CliRunner().invoke(main, args) for _ in range(2)]
    assert all(run.exit_code == 0 for run in runs), runs[0].output
    reports = [json.loads(run.output) for run in runs]
    assert reports[0]["completed"] == 4
    assert reports[0]["digest"] == reports[1]["digest"]
