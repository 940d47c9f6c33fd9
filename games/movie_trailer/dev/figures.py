"""Movie Trailer figures for docs/rules/movie-trailer.md: the catalog's ambiguity under the
heuristic Director, and on which scoring tile heuristic tables name the film.

python -m games.movie_trailer.dev.figures [MATCHES] [PLAYERS]
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict

from games import get
from games.movie_trailer.catalog import FACE_DOWN, catalog, consistent
from games.movie_trailer.state import MovieTrailerState
from games.play import play_match


def main(matches: int, players: int) -> None:
    game = get("movie-trailer")
    data = catalog()
    consistent_after: dict[int, list[int]] = defaultdict(list)
    found_on: Counter[str] = Counter()
    for index in range(matches):
        seed = f"figures/{index}"
        record = play_match(game, players, seed, ["heuristic"] * players)
        state = game.new(players, seed)
        assert isinstance(state, MovieTrailerState)
        for seat, move in record.moves:
            laid_before = sum(1 for p in state.placements if p.tile != FACE_DOWN)
            turn = state.turn
            state.apply(seat, move)
            face_up = [p for p in state.placements if p.tile != FACE_DOWN]
            if state.turn == turn and len(face_up) == laid_before + 1 <= 4:
                count = sum(
                    consistent(film, state.placements, data.slot_category) for film in data.films
                )
                consistent_after[len(face_up)].append(count)
        for past in state.past:
            tile = past.scoring_tile
            numeral = "none" if not past.guessed_by or tile is None else data.scoring[tile].numeral
            found_on[numeral] += 1
    print(f"{matches} matches of {players} heuristic seats, {len(data.films)} catalog films")
    for k in sorted(consistent_after):
        values = consistent_after[k]
        print(
            f"after {k} tile(s): {sum(values) / len(values):.1f} films on average ({len(values)})"
        )
    total = sum(found_on.values())
    for numeral in [*(t.numeral for t in data.scoring), "none"]:
        print(f"named on {numeral}: {found_on[numeral] / total:.0%}")


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 40, int(sys.argv[2]) if len(sys.argv) > 2 else 5
    )
