"""WatchMatch and GetReplay tell each move in words, through a real arbiter: the spectator's
text, the moves the engine applied on its own, who moves next, every seat's clock and score."""

from __future__ import annotations

import asyncio
import gzip
import json
from typing import Any

import grpc
import psycopg
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from psycopg_pool import ConnectionPool

import games
from games.interface import EVERYONE, SPECTATOR
from games.play import replay
from games.values import to_plain
from premiere_bot.report import Reporter
from premiere_wire import match_pb2, match_pb2_grpc
from server.codec import move_from_wire
from spectator import live, replays
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


async def _read_events(arbiter: Arbiter, match_id: str, gzipped: bool) -> tuple[str, bytes, str]:
    pool: ConnectionPool[Any] = ConnectionPool(arbiter.database_url, min_size=1, open=True)
    channel = grpc.aio.insecure_channel(arbiter.address)
    stub = match_pb2_grpc.MatchServiceStub(channel)
    hub = live.LiveHub(pool, lambda: stub, max_matches=4, max_viewers=4, omniscient_delay=0)
    app = web.Application()
    live.add_routes(app, hub)
    try:
        async with TestClient(TestServer(app)) as client:
            encoding = "gzip" if gzipped else "identity"
            reply = await client.get(
                f"/api/live/{match_id}/events",
                headers={"Accept-Encoding": encoding},
                auto_decompress=False,
            )
            assert reply.status == 200
            raw = await reply.read()
            return reply.headers.get("Content-Encoding", ""), raw, reply.headers["Vary"]
    finally:
        await channel.close(None)
        pool.close()


def _parse(text: str) -> list[tuple[str, dict[str, Any]]]:
    events = []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in lines:
            events.append((lines["event"], json.loads(lines["data"])))
    return events


def test_the_live_stream_tells_moves_in_words_in_a_compact_gzipped_backlog(
    arbiter: Arbiter,
) -> None:
    stub = arbiter.matches()
    game = games.get("movie-tricks")
    seats = ["builtin:heuristic", "builtin:random", "builtin:random"]
    match_id = create_match(stub, seats, "live-words", game=game.id)
    match = wait_ended(stub, match_id)
    assert match.status == match_pb2.MATCH_STATUS_FINISHED, arbiter.log()

    encoding, packed, vary = asyncio.run(_read_events(arbiter, match_id, gzipped=True))
    plain_encoding, plain, _ = asyncio.run(_read_events(arbiter, match_id, gzipped=False))
    assert (encoding, plain_encoding, vary) == ("gzip", "", "Accept-Encoding")
    assert len(packed) < len(plain) / 3, (len(packed), len(plain))
    events = _parse(gzip.decompress(packed).decode())
    assert events == _parse(plain.decode())

    names = [name for name, _ in events]
    assert names == ["match", "backlog", "end"], names
    header, history, end = (data for _, data in events)
    assert header["labels"] == {kind: dict(v) for kind, v in game.labels().items()}
    moves = history["moves"]
    assert [m["ply"] for m in moves] == list(range(match.decisions))
    full = stub.GetReplay(match_pb2.GetReplayRequest(match_id=match_id), timeout=10)
    state = game.new(full.players, full.seed, {})
    for told, step in zip(moves, full.steps, strict=True):
        move = move_from_wire(game, step.move)
        words = game.describe(state, step.seat, move, SPECTATOR)
        assert told["text"] == f"{seats[step.seat]} {words}" and "{" not in told["text"]
        state.apply(step.seat, move)
    assert history["scores"] == list(match.outcome.scores) and history["to_move"] == []
    assert len(history["clocks"]) == len(seats) and history["spectator"] is not None
    result = end["result"]
    outcome = state.outcome()
    assert outcome is not None
    assert result["winners"] == list(outcome.winners)
    assert result["scores"] == list(outcome.scores)
    assert seats[outcome.winners[0]] in result["text"]
    # The backlog holds one view, not one per move: far smaller than the views it stands for.
    assert len(json.dumps(history)) < 30 * len(json.dumps(history["spectator"]))


def test_premiere_bot_prints_its_moves_in_words_after_a_match(arbiter: Arbiter) -> None:
    stub = arbiter.matches()
    game = games.get("magic-trick")
    match_id = create_match(stub, ["builtin:random"] * 3, "report-words", game=game.id)
    assert wait_ended(stub, match_id).status == match_pb2.MATCH_STATUS_FINISHED
    full = stub.GetReplay(match_pb2.GetReplayRequest(match_id=match_id), timeout=10)
    state = game.new(full.players, full.seed, {})
    expected = [f"match {match_id}: your moves"]
    for step in full.steps:
        move = move_from_wire(game, step.move)
        if step.seat == 1:
            told = game.describe(state, 1, move, 1)
            expected.append(f"  {game.group(state)}: {told}")
        state.apply(step.seat, move)

    async def report() -> list[str]:
        reporter = Reporter(arbiter.address, "", moves=True)
        try:
            return await reporter.moves_in_words(match_id, 1)
        finally:
            for channel in reporter.channels.values():
                await channel.close(None)

    lines = asyncio.run(report())
    assert lines == expected and len(lines) > 10
    assert all("{" not in line for line in lines)


def test_the_live_list_shows_each_running_table_kept_up_to_date(arbiter: Arbiter) -> None:
    """``/api/live``'s tables: the spectator's view, scores and seats to move after the
    decisions made so far, each match re-executed once and then advanced."""
    stub = arbiter.matches()
    game = games.get("motion-pictures")
    match_id = create_match(stub, ["builtin:random"] * 2, "live-list", game=game.id)
    assert wait_ended(stub, match_id).status == match_pb2.MATCH_STATUS_FINISHED
    full = stub.GetReplay(match_pb2.GetReplayRequest(match_id=match_id), timeout=10)
    cache: dict[str, replays.Replica] = {}
    with psycopg.connect(arbiter.database_url) as conn:
        for decisions in (10, 25, 25, 40):
            state = game.new(full.players, full.seed, {})
            for step in full.steps[:decisions]:
                state.apply(step.seat, move_from_wire(game, step.move))
            table = replays.tables(conn, [(match_id, game.id, decisions)], cache)[match_id]
            assert table == {
                "spectator": to_plain(state.spectate()),
                "scores": list(state.current_scores()),
                "to_move": sorted(state.to_move()),
            }
            assert cache[match_id].applied == decisions
        assert replays.tables(conn, [], cache) == {} and cache == {}


def test_a_match_waiting_for_its_host_or_bots_is_told_from_one_being_played(
    arbiter: Arbiter,
) -> None:
    """Played to its end by one arbiter: it never waited. Taken over (a higher fencing number,
    nothing written under it yet) it waits for its bots; its lease lapsed, for a host."""
    stub = arbiter.matches()
    match_id = create_match(stub, ["builtin:random"] * 3, "waiting", game="magic-trick")
    assert wait_ended(stub, match_id).status == match_pb2.MATCH_STATUS_FINISHED
    with psycopg.connect(arbiter.database_url, autocommit=True) as conn:
        assert replays.waiting(conn, [match_id]) == set()
        conn.execute(
            "UPDATE match_leases SET fence = fence + 1, expires_at = now() + interval '1 hour'"
            " WHERE match_id = %s",
            (match_id,),
        )
        assert replays.waiting(conn, [match_id]) == {match_id}
        conn.execute(
            "UPDATE match_leases SET fence = fence - 1, expires_at = now() - interval '1 second'"
            " WHERE match_id = %s",
            (match_id,),
        )
        assert replays.waiting(conn, [match_id]) == {match_id}
        assert replays.waiting(conn, []) == set()
