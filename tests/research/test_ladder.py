"""From the lab to the ladder: an OpenSpiel policy reads over the wire exactly what it read in
OpenSpiel, and plays through a real arbiter."""

from __future__ import annotations

import random
from pathlib import Path
from typing import ClassVar

import numpy as np
import pyspiel

from games import registry
from premiere_bot.openspiel import OpenSpielBot, SeatState
from premiere_wire import bot_gateway_pb2, match_pb2
from research.openspiel import PremiereState, short_name
from server.codec import move_to_wire, observation_to_wire
from tests.integration.services import Arbiter, create_match, start_bot, wait_ended
from tests.research.conftest import EDGES, tables

DECISIONS = 40


class Recorder(OpenSpielBot):
    """Keeps the `SeatState` of every request and plays the lowest legal action."""

    parameters: ClassVar[dict[str, int]] = {"tensor_size": 256}

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[SeatState] = []

    def make_policy(self, game: pyspiel.Game) -> object:
        def decide(state: SeatState) -> int:
            self.seen.append(state)
            return min(state.legal_actions())

        return decide


@tables(EDGES)
def test_a_request_reads_as_the_openspiel_state(table: tuple[str, int]) -> None:
    game_id, players = table
    engine = registry.get(game_id)
    game = pyspiel.load_game(f"{short_name(engine)}(players={players},tensor_size=256)")
    bot = Recorder()
    bot.match_started(
        bot_gateway_pb2.MatchStarted(match_id="m", game=game_id, seat=0, players=players)
    )
    rng = random.Random(3)
    state = game.new_initial_state()
    assert isinstance(state, PremiereState)
    for _ in range(DECISIONS):
        if state.is_terminal():
            break
        seat = state.current_player()
        legal = state.table.legal_moves(seat)
        request = bot_gateway_pb2.DecisionRequest(
            request_id="r", match_id="m", game=game_id, seat=seat
        )
        request.observation.CopyFrom(observation_to_wire(engine, state.table.observe(seat)))
        for move in legal:
            request.legal_moves.add().CopyFrom(move_to_wire(engine, move))
        index = bot.decide_raw(request)
        seen = bot.seen[-1]
        assert seen.legal_actions() == state.legal_actions()
        assert seen.observation_string() == state.observation_string(seat)
        assert np.array_equal(seen.observation_tensor(), state.observation_tensor(seat))
        assert state.get_game().actions.id(legal[index]) == min(state.legal_actions())
        state.apply_action(rng.choice(state.legal_actions()))


def test_openspiel_policies_play_through_an_arbiter(arbiter: Arbiter, tmp_path: Path) -> None:
    stub = arbiter.matches()
    bots = []
    try:
        for name, spec in (("uniform", "UniformBot"), ("highest", "HighestActionBot")):
            token = arbiter.add_bot(name)
            bots.append(
                start_bot(arbiter, f"tests.research.bots:{spec}", token, tmp_path / f"{name}.log")
            )
        match_ids = [
            create_match(stub, ["uniform", "highest", "builtin:random"], f"lab-{n}", game)
            for n, game in enumerate(("movie-tricks", "magic-trick"))
        ]
        for match_id in match_ids:
            match = wait_ended(stub, match_id, timeout=180)
            assert match.status == match_pb2.MATCH_STATUS_FINISHED, match.void_reason
            assert not match.faults
            assert not match.outcome.forfeited
    finally:
        for bot in bots:
            bot.terminate()
            bot.wait(10)
