"""Each engine's random playout and observation path next to OpenSpiel's oh_hell.

The observation path is what the arbiter does for every decision it asks a remote bot: the
seat's observation, its legal moves, both encoded as the wire's `DecisionRequest` and
serialized. OpenSpiel's counterpart is the information-state tensor an agent fetches per
decision. Both sides play random moves; the engines choose with the match's own `Rng`.
"""

from __future__ import annotations

import time

from bench import openspiel
from bench.rows import Row, quick, row
from games import get
from games.rng import Rng, derive_seed
from server.codec import decision_request

GAMES = ("magic-trick", "movie-tricks")
PLAYERS = 3


def _seconds() -> float:
    return 0.2 if quick() else 3.0


def playout(game_id: str, players: int, seconds: float, observe: bool) -> float:
    """Decisions per second of random playouts, with the observation path per decision when
    ``observe``."""
    game = get(game_id)
    game.new(players, "bench/warm-up")
    decisions = 0
    index = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.new(players, f"bench/{index}")
        rng = Rng(derive_seed("bench", index))
        while not state.is_over():
            answers = []
            for seat in state.to_move():
                legal = state.legal_moves(seat)
                if observe:
                    decision_request(
                        game, state.observe(seat), legal, seat=seat, match_id="m", request_id="r"
                    ).SerializeToString()
                answers.append((seat, rng.choice(legal)))
            for seat, move in answers:
                state.apply(seat, move)
            decisions += len(answers)
        index += 1
    return decisions / (time.perf_counter() - started)


def run() -> list[Row]:
    seconds = _seconds()
    missing = "OpenSpiel not installed (pip install -e '.[bench]'): no reference"
    spiel_playout = openspiel.decisions_per_second(seconds, tensor=False)
    spiel_tensor = openspiel.decisions_per_second(seconds, tensor=True)
    rows: list[Row] = []
    for game_id in GAMES:
        rows.append(
            row(
                f"{game_id} random playout, {PLAYERS} players (engine only)",
                playout(game_id, PLAYERS, seconds, observe=False),
                "decisions/s",
                f"OpenSpiel {openspiel.GAME} random playout, {openspiel.PLAYERS} players"
                if spiel_playout is not None
                else missing,
                spiel_playout or 0.0,
                goal="playout",
            )
        )
        rows.append(
            row(
                f"{game_id} observation path per decision (observe + legal moves + "
                f"DecisionRequest encoded and serialized), {PLAYERS} players",
                playout(game_id, PLAYERS, seconds, observe=True),
                "decisions/s",
                f"OpenSpiel {openspiel.GAME} random playout with the information-state tensor "
                "per decision"
                if spiel_tensor is not None
                else missing,
                spiel_tensor or 0.0,
                goal="observation",
            )
        )
    return rows


if __name__ == "__main__":
    from bench.rows import print_rows

    print_rows(run())
