"""Visual replays are the engine's own views, re-executed from seed and moves: pure logic, no
database (``ladder.replays.build_views`` and ``Replica``). The browser side is in
test_watching.py."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

import games
from games.errors import ForcedMismatch
from games.interface import EVERYONE, SPECTATOR
from games.play import play_match
from games.values import to_plain
from spectator.plain import plain
from spectator.replays import Logged, Replica, build_views, compact, expand

SEED = "5eed" * 16


def logged(game_id: str, status: str, kept_forced: bool = True) -> tuple[Logged, int]:
    """A match played by random bots, logged as the arbiter logs it: each decision with the
    forced moves after it (or, without `kept_forced`, as a log from before they were kept)."""
    game = games.get(game_id)
    players = max(2, min(game.player_counts))
    record = play_match(game, players, SEED, ["random"] * players)
    state = game.new(players, SEED, {})
    start = game.encode_forced(state.forced_moves()) if kept_forced else None
    moves = []
    for ply, (seat, move) in enumerate(record.moves):
        state.apply(seat, move)
        forced = game.encode_forced(state.forced_moves()) if kept_forced else None
        moves.append((ply, seat, game.encode_move(move), False, forced))
    match = Logged(
        match_id="00000000-0000-0000-0000-000000000001",
        game=game_id,
        status=status,
        options={},
        seed=SEED,
        outcome=to_plain(record.outcome) if status == "finished" else None,  # type: ignore[arg-type]
        players=players,
        rated=False,
        names=tuple(f"bot-{seat}" for seat in range(players)),
        moves=tuple(moves),
        truncated=False,
        forced_at_start=start,
    )
    return match, players


@pytest.mark.parametrize("game_id", games.ids())
def test_an_ended_match_shows_every_seat_and_move(game_id: str) -> None:
    match, players = logged(game_id, "finished")
    views = build_views(match)
    game = games.get(game_id)
    state = game.new(players, SEED, {})
    assert views.seat_views and views.outcome == match.outcome
    decisions = [frame for frame in views.frames[1:] if not frame.forced]
    assert len(decisions) == len(match.moves)
    first = views.frames[0]
    assert first.ply is None and first.spectator == to_plain(state.spectate())
    assert first.scores == state.current_scores() and first.text == ""
    for frame, (ply, seat, move, _, _) in zip(decisions, match.moves, strict=True):
        before = state.clone()
        state.apply(seat, game.decode_move(move, seat))
        assert (frame.ply, frame.seat, frame.move) == (ply, seat, move)
        assert frame.spectator == to_plain(state.spectate())
        assert frame.seats == tuple(to_plain(state.observe(s)) for s in range(players))
        told = game.describe(before, seat, game.decode_move(move, seat), EVERYONE)
        assert frame.text == f"bot-{seat} {told}"
        assert frame.scores == state.current_scores() and frame.group == game.group(before)
    assert state.is_over()
    outcome = state.outcome()
    assert outcome is not None and views.frames[-1].scores == outcome.scores
    assert views.labels == {kind: dict(names) for kind, names in game.labels().items()}
    assert views.result is not None and views.result["scores"] == list(outcome.scores)


@pytest.mark.parametrize("kept_forced", [True, False], ids=["logged", "unlogged"])
@pytest.mark.parametrize("game_id", games.ids())
def test_forced_moves_are_frames_of_their_own(game_id: str, kept_forced: bool) -> None:
    """A move the engine applied on its own follows the decision that led to it, marked
    forced, told in words, with that decision's ply and views: as the log records it, or as
    the engine applies it again for a log from before forced moves were kept."""
    match, players = logged(game_id, "finished", kept_forced)
    game = games.get(game_id)
    frames = build_views(match).frames
    state = game.new(players, SEED, {})
    expected: list[tuple[int | None, int, object]] = [
        (None, seat, game.encode_move(move)) for seat, move in state.forced_moves()
    ]
    for ply, seat, move, _, _ in match.moves:
        state.apply(seat, game.decode_move(move, seat))
        expected.extend((ply, s, game.encode_move(m)) for s, m in state.forced_moves())
    forced = [frame for frame in frames if frame.forced]
    assert [(f.ply, f.seat, f.move) for f in forced] == expected
    for index, frame in enumerate(frames):
        if frame.forced:
            previous = frames[index - 1]
            assert frame.spectator == previous.spectator and frame.ply == previous.ply
            assert frame.text.startswith(f"bot-{frame.seat} ") and "{" not in frame.text
            assert not frame.defaulted


@pytest.mark.parametrize("game_id", ["movie-fight", "movie-tricks"])
def test_a_log_whose_forced_moves_the_engine_does_not_apply_is_refused(game_id: str) -> None:
    """A forced move dropped from its decision's record (or one recorded at set-up that the
    engine does not apply): the replay refuses the log instead of drawing other moves than the
    ones it records."""
    match, _ = logged(game_id, "finished")
    ply = next(n for n, move in enumerate(match.moves) if move[4])
    dropped = list(match.moves)
    dropped[ply] = (*dropped[ply][:4], dropped[ply][4][1:])
    with pytest.raises(ForcedMismatch):
        build_views(replace(match, moves=tuple(dropped)))
    invented = [{"seat": 0, "move": match.moves[0][2]}]
    with pytest.raises(ForcedMismatch):
        build_views(replace(match, forced_at_start=(match.forced_at_start or []) + invented))


def test_some_games_force_moves() -> None:
    forcing = {
        game_id
        for game_id in games.ids()
        if any(frame.forced for frame in build_views(logged(game_id, "finished")[0]).frames)
    }
    assert {"movie-fight", "movie-tricks"} <= forcing


@pytest.mark.parametrize("game_id", games.ids())
def test_a_running_match_tells_its_moves_to_the_spectator(game_id: str) -> None:
    match, players = logged(game_id, "running")
    game = games.get(game_id)
    views = build_views(match)
    assert views.result is None
    state = game.new(players, SEED, {})
    decisions = [frame for frame in views.frames[1:] if not frame.forced]
    for frame, (_, seat, move, _, _) in zip(decisions, match.moves, strict=True):
        before = state.clone()
        state.apply(seat, game.decode_move(move, seat))
        told = game.describe(before, seat, game.decode_move(move, seat), SPECTATOR)
        assert frame.text == f"bot-{seat} {told}"


@pytest.mark.parametrize("game_id", games.ids())
def test_a_running_match_shows_the_spectator_only(game_id: str) -> None:
    match, _ = logged(game_id, "running")
    finished = build_views(logged(game_id, "finished")[0])
    views = build_views(match)
    assert not views.seat_views and views.outcome is None
    assert all(frame.move is None and frame.seats is None for frame in views.frames)
    assert [f.spectator for f in views.frames] == [f.spectator for f in finished.frames]
    assert [f.seat for f in views.frames] == [f.seat for f in finished.frames]


def test_the_live_replica_advances_in_order_only() -> None:
    match, players = logged("movie-tricks", "running")
    replica = Replica(match.game, players, SEED, {})
    full = build_views(logged("movie-tricks", "finished")[0])
    replica.advance([(p, s, m) for p, s, m, _, _ in match.moves[:10]])
    spectator, seats = replica.views()
    assert spectator == full.frames[10].spectator and seats == list(full.frames[10].seats or ())
    with pytest.raises(ValueError, match="move 12 where move 10 was expected"):
        replica.advance([(p, s, m) for p, s, m, _, _ in match.moves[12:13]])
    assert replica.applied == 10


@pytest.mark.parametrize("status", ["finished", "running"])
def test_the_compact_encoding_expands_to_the_same_views(status: str) -> None:
    views = build_views(logged("magic-trick", status)[0])
    body = json.loads(json.dumps(plain(compact(views))))
    whole = json.loads(json.dumps(plain(views)))
    assert body["encoding"] == "changes"
    assert len(json.dumps(body)) < 0.75 * len(json.dumps(whole))
    assert expand(body)["frames"] == whole["frames"]
    assert {k: v for k, v in body.items() if k not in ("frames", "encoding")} == {
        k: v for k, v in whole.items() if k != "frames"
    }
