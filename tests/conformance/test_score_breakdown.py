"""Every game explains its final score: per seat, parts in words whose points add up to the
seat's final score, for many seeded matches of every game, player count and variant; and a
sentence saying how the game's score works."""

from __future__ import annotations

import pytest

from games import all_games
from games.interface import Game
from games.play import play_match

CASES = [
    pytest.param(game, players, variant, id=f"{game.id}-{players}p-{i}")
    for game in all_games()
    for players in game.player_counts
    for i, variant in enumerate(game.variants())
]
MATCHES = 12


@pytest.mark.parametrize(("game", "players", "variant"), CASES)
def test_the_breakdown_adds_up_to_the_final_scores(
    game: Game, players: int, variant: dict[str, object]
) -> None:
    rules = game.score_rules(players, variant)  # type: ignore[arg-type]
    assert isinstance(rules, str) and len(rules) > 40 and "{" not in rules
    bots = ["heuristic" if "heuristic" in game.heuristic_bots() else "random"] + ["random"] * (
        players - 1
    )
    for number in range(MATCHES):
        record = play_match(game, players, f"breakdown-{number}", bots, variant)  # type: ignore[arg-type]
        state = game.new(players, f"breakdown-{number}", variant)  # type: ignore[arg-type]
        for seat, move in record.moves:
            state.apply(seat, move)
        outcome = state.outcome()
        assert outcome is not None
        breakdown = game.explain_score(state)
        assert len(breakdown) == players
        for seat, parts in enumerate(breakdown):
            assert parts, (seat, "no part")
            for part in parts:
                assert part.text.strip() and "{" not in part.text, part
                assert "None" not in part.text, part
            told = sum(part.points for part in parts)
            assert told == outcome.scores[seat], (game.id, number, seat, told, outcome, parts)
