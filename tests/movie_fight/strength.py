"""The heuristic's strength figures in docs/rules/movie-fight.md.

`python -m tests.movie_fight.strength 300` (several minutes): one heuristic seat against random
seats at 2, 3 and 5 players (seats rotating, sides A and B alternating), then each bot alone
against the automa at every level.
"""

from __future__ import annotations

import sys

from games import get
from games.play import play_match


def mean_ranks(players: int, matches: int) -> tuple[float, float]:
    game = get("movie-fight")
    mine = theirs = 0.0
    for index in range(matches):
        seat = index % players
        bots = ["random"] * players
        bots[seat] = "heuristic"
        record = play_match(game, players, f"s/{index}", bots, {"side": "AB"[index % 2]})
        mine += record.outcome.ranks[seat]
        theirs += sum(r for s, r in enumerate(record.outcome.ranks) if s != seat) / (players - 1)
    return mine / matches, theirs / matches


def solo_wins(bot: str, level: int, matches: int) -> int:
    game = get("movie-fight")
    wins = 0
    for index in range(matches):
        options = {"level": level, "side": "AB"[index % 2]}
        record = play_match(game, 1, f"solo/{index}", [bot], options)
        automa = record.outcome.detail["automa"]
        assert isinstance(automa, dict)
        wins += automa["result"] == "win"
    return wins


def main(matches: int) -> None:
    for players in (2, 3, 5):
        heuristic, random = mean_ranks(players, matches)
        print(f"{players} players: heuristic mean rank {heuristic:.2f}, random {random:.2f}")
    for level in (1, 2, 3, 4):
        wins = {bot: solo_wins(bot, level, matches) for bot in ("heuristic", "random")}
        print(f"level {level}: wins of {matches}: {wins}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
