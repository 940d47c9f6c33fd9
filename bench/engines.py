"""Each engine's random playout and observation path next to OpenSpiel's oh_hell.

The observation path is what the arbiter does for every decision it asks a remote bot: the
seat's observation, its legal moves, both encoded as the wire's `DecisionRequest` and
serialized. OpenSpiel's counterpart is the information-state tensor an agent fetches per
decision. Both sides play random moves, chosen the same way (`random.Random.randrange`: the
chooser is the harness, not the engine; the engines' own chance still comes from their `Rng`).

The machine is shared, so figures are decisions per second of the process's own CPU time,
and every subject runs in short slices taking turns with the others (the same load falls on
each side of a ratio).
"""

from __future__ import annotations

import itertools
import random
import time

from bench import openspiel
from bench.openspiel import Slice
from bench.rows import Row, quick, row
from games import all_games, get
from server.codec import decision_request_bytes

GAMES = tuple(game.id for game in all_games() if game.openspiel_peer == openspiel.GAME)
"""The games whose engines are measured against OpenSpiel's (`Game.openspiel_peer`)."""
PLAYERS = 3


def playout(game_id: str, players: int, observe: bool) -> Slice:
    """Random playouts, with the observation path per decision when ``observe``."""
    game = get(game_id)
    game.new(players, "bench/warm-up")
    games = itertools.count()
    chooser = random.Random(1)

    def run(seconds: float) -> tuple[int, float]:
        decisions = 0
        started = time.process_time()
        while time.process_time() - started < seconds:
            index = next(games)
            state = game.new(players, f"bench/{index}")
            while not state.is_over():
                answers = []
                for seat in state.to_move():
                    legal = state.legal_moves(seat)
                    if observe:
                        decision_request_bytes(
                            game,
                            state.observe(seat),
                            legal,
                            request_id=f"m:b00t:{decisions}",
                            match_id="m",
                            game=game_id,
                            seat=seat,
                            decision_number=decisions,
                            deadline_unix_ms=1_800_000_000_000,
                            move_time_ms=1000,
                            time_bank_ms=60_000,
                            last_round_trip_ms=1,
                            last_round_trip_us=420,
                        )
                    answers.append((seat, legal[chooser.randrange(len(legal))]))
                for seat, move in answers:
                    state.apply(seat, move)
                decisions += len(answers)
        return decisions, time.process_time() - started

    return run


def interleaved(subjects: dict[str, Slice | None], rounds: int, seconds: float) -> dict[str, float]:
    """Decisions per CPU second of each subject, run in turns of `seconds`."""
    totals = {name: [0, 0.0] for name, run in subjects.items() if run is not None}
    for _ in range(rounds):
        for name, run in subjects.items():
            if run is not None:
                decisions, cpu = run(seconds)
                totals[name][0] += decisions
                totals[name][1] += cpu
    return {name: decisions / cpu for name, (decisions, cpu) in totals.items()}


def run() -> list[Row]:
    subjects: dict[str, Slice | None] = {
        "spiel": openspiel.playout(tensor=False),
        "spiel-tensor": openspiel.playout(tensor=True),
    }
    for game_id in GAMES:
        subjects[game_id] = playout(game_id, PLAYERS, observe=False)
        subjects[f"{game_id}/observe"] = playout(game_id, PLAYERS, observe=True)
    rates = interleaved(subjects, *((1, 0.1) if quick() else (8, 0.4)))
    missing = "OpenSpiel not installed (pip install -e '.[bench]'): no reference"
    spiel = f"OpenSpiel {openspiel.GAME}, {openspiel.PLAYERS} players"
    rows: list[Row] = []
    for game_id in GAMES:
        rows.append(
            row(
                f"{game_id} random playout, {PLAYERS} players (engine only)",
                rates[game_id],
                "decisions/CPU-s",
                f"{spiel}, random playout" if "spiel" in rates else missing,
                rates.get("spiel", 0.0),
                goal="playout",
            )
        )
        rows.append(
            row(
                f"{game_id} observation path per decision (observe + legal moves + "
                f"DecisionRequest encoded and serialized), {PLAYERS} players",
                rates[f"{game_id}/observe"],
                "decisions/CPU-s",
                f"{spiel}, random playout with the information-state tensor per decision"
                if "spiel-tensor" in rates
                else missing,
                rates.get("spiel-tensor", 0.0),
                goal="observation",
            )
        )
    return rows


if __name__ == "__main__":
    from bench.rows import print_rows

    print_rows(run())
