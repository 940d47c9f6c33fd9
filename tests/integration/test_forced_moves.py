"""Moves with a single legal choice, which the engine applies without asking: the arbiter logs
them as forced, with the decision after which they happened (or with the match's start), and
`GetReplay` returns them so, in order; a match whose arbiter was killed mid-match resumes from
its log and logs the same ones as an uninterrupted run."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import psycopg

import games
from games.interface import EVERYONE, State, Viewer
from premiere_wire import match_pb2
from server.codec import move_to_wire
from tests.integration.services import Arbiter, create_match, start_bot, wait_ended

STEADY = "tests.integration.bad_bots:SteadyBot"
GAME = "movie-fight"
SEATS = ["alpha", "beta", "builtin:heuristic"]
"""Movie Fight skips a seat's upgrade on its own when it can afford none, at set-up too."""

Logged = tuple[Any, list[tuple[int, int, Any, Any, int]]]


def logged(database_url: str, match_id: str) -> Logged:
    """The match's set-up forced moves and its move log: (ply, seat, move, forced, fence)."""
    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT forced_at_start FROM matches WHERE id = %s", (match_id,)
        ).fetchone()
        moves = conn.execute(
            "SELECT ply, seat, move, forced, fence FROM match_moves WHERE match_id = %s"
            " ORDER BY ply",
            (match_id,),
        ).fetchall()
    assert row is not None
    return row[0], [tuple(move) for move in moves]


def engine_forced(seed: str, moves: list[tuple[int, int, Any, Any, int]]) -> Logged:
    """What the engine applies on its own, re-executing the seed and the asked moves alone."""
    game = games.get(GAME)
    state = game.new(len(SEATS), seed)
    start = game.encode_forced(state.forced_moves())
    after = []
    for ply, seat, move, _, fence in moves:
        state.apply(seat, game.decode_move(move, seat))
        after.append((ply, seat, move, game.encode_forced(state.forced_moves()), fence))
    return start, after


def decisions(arbiter: Arbiter, match_id: str) -> int:
    reply = arbiter.matches().GetMatch(match_pb2.GetMatchRequest(match_id=match_id), timeout=10)
    return int(reply.match.decisions)


def test_forced_moves_are_logged_replayed_and_resumed_after_a_kill(
    arbiter: Arbiter, database_url: str, tmp_path: Path
) -> None:
    tokens = {name: arbiter.add_bot(name) for name in ("alpha", "beta")}
    bots = [start_bot(arbiter, STEADY, tokens[n], tmp_path / f"{n}.log") for n in tokens]
    seed = "forced-resume"
    try:
        reference = create_match(arbiter.matches(), SEATS, seed, game=GAME)
        assert wait_ended(arbiter.matches(), reference).status == match_pb2.MATCH_STATUS_FINISHED
        match_id = create_match(arbiter.matches(), SEATS, seed, game=GAME)
        deadline = time.monotonic() + 60
        while decisions(arbiter, match_id) < 25:
            assert time.monotonic() < deadline, arbiter.log()
            time.sleep(0.05)
        arbiter.kill()
        arbiter.start(tmp_path / "arbiter-2.log")
        resumed = wait_ended(arbiter.matches(), match_id)
        assert resumed.status == match_pb2.MATCH_STATUS_FINISHED, arbiter.log()
    finally:
        for bot in bots:
            bot.terminate()
            bot.wait(10)

    start, moves = logged(database_url, match_id)
    assert (start, moves) == engine_forced(seed, moves)
    assert start and sum(len(forced) for _, _, _, forced, _ in moves) > 10
    assert {fence for *_, fence in moves} == {1, 2}
    assert any(forced for *_, forced, fence in moves if fence == 2)
    assert len(moves) == resumed.decisions
    reference_start, reference_moves = logged(database_url, reference)
    assert reference_start == start
    assert [m[:4] for m in reference_moves] == [m[:4] for m in moves]

    stub = arbiter.matches()
    full = stub.GetReplay(match_pb2.GetReplayRequest(match_id=match_id), timeout=10)
    assert len(full.steps) == len(moves)
    assert_replayed(full, seed, moves, EVERYONE)
    own = stub.GetReplay(match_pb2.GetReplayRequest(match_id=match_id, seat=0), timeout=10)
    assert len(own.steps) == sum(seat == 0 for _, seat, *_ in moves)
    assert_replayed(own, seed, moves, 0)
    assert any(f.seat != 0 for step in own.steps for f in step.forced)


def assert_replayed(
    replay: match_pb2.GetReplayResponse,
    seed: str,
    moves: list[tuple[int, int, Any, Any, int]],
    viewer: Viewer,
) -> None:
    """The replay's forced moves (the set-up's, and those after each step it shows) are the
    engine's, in order, told to ``viewer``, with the move itself only where the viewer may see
    it: everyone, or the seat that made it."""
    game = games.get(GAME)
    state = game.new(len(SEATS), seed)

    def expected(before: State) -> list[match_pb2.ForcedMove]:
        told = []
        for seat, move in state.forced_moves():
            text = game.describe(before, seat, move, viewer)
            message = match_pb2.ForcedMove(seat=seat, text=text)
            if viewer in (EVERYONE, seat):
                message.move.CopyFrom(move_to_wire(game, move))
            told.append(message)
        return told

    assert list(replay.forced_at_start) == expected(state)
    shown = iter(replay.steps)
    for _, seat, move, _, _ in moves:
        before = state.clone()
        state.apply(seat, game.decode_move(move, seat))
        if viewer in (EVERYONE, seat):
            step = next(shown)
            assert step.move == move_to_wire(game, game.decode_move(move, seat))
            assert list(step.forced) == expected(before)
    assert next(shown, None) is None and state.is_over()
