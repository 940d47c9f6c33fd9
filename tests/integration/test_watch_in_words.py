"""WatchMatch and GetReplay tell each move in words, through a real arbiter: the spectator's
text, the moves the engine applied on its own, who moves next, every seat's clock and score."""

from __future__ import annotations

import games
from games.interface import EVERYONE, SPECTATOR
from games.play import replay
from premiere_wire import match_pb2
from server.codec import move_from_wire
from tests.integration.services import Arbiter, create_match, wait_ended

MOVE_MS, BANK_MS = 2000, 30000


def test_watch_events_and_replay_steps_carry_the_moves_in_words(arbiter: Arbiter) -> None:
    stub = arbiter.matches()
    game = games.get("movie-fight")
    seats = ["builtin:random", "builtin:heuristic"]
    match_id = create_match(
        stub, seats, "words", game=game.id, move_time_ms=MOVE_MS, time_bank_ms=BANK_MS
    )
    match = wait_ended(stub, match_id)
    assert match.status == match_pb2.MATCH_STATUS_FINISHED, arbiter.log()

    full = stub.GetReplay(match_pb2.GetReplayRequest(match_id=match_id), timeout=10)
    moves = [(step.seat, move_from_wire(game, step.move)) for step in full.steps]
    events = list(stub.WatchMatch(match_pb2.WatchMatchRequest(match_id=match_id), timeout=30))
    applied = [e.move for e in events if e.WhichOneof("event") == "move"]
    assert len(applied) == len(moves) == match.decisions

    state = game.new(full.players, full.seed, {})
    forced = 0
    for event, step, (seat, move) in zip(applied, full.steps, moves, strict=True):
        before = state.clone()
        state.apply(seat, move)
        assert event.text == game.describe(before, seat, move, SPECTATOR)
        assert step.text == game.describe(before, seat, move, EVERYONE)
        assert event.group == game.group(before)
        assert [(f.seat, f.text) for f in event.forced] == [
            (s, game.describe(before, s, m, SPECTATOR)) for s, m in state.forced_moves()
        ]
        forced += len(event.forced)
        assert list(event.to_move) == sorted(state.to_move())
        assert list(event.scores) == list(state.current_scores())
        assert len(event.clocks) == full.players
        assert all(c.move_ms == MOVE_MS and 0 <= c.bank_ms <= BANK_MS for c in event.clocks)
    assert forced > 0
    assert list(applied[-1].to_move) == []
    assert list(applied[-1].scores) == list(match.outcome.scores)
    assert replay(game, full.players, full.seed, moves, {}).outcome() == state.outcome()

    view = stub.GetReplay(match_pb2.GetReplayRequest(match_id=match_id, seat=1), timeout=10)
    assert view.steps and all(step.seat == 1 and step.text for step in view.steps)
