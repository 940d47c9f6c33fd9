"""The leak test: for every registered game and player count, a rated match is played while
every public surface is read (GetMatch and WatchMatch without credentials, the ladder's JSON
API and page (the spectator pages' live list, bot page and live replay included), both
/metrics, the arbiter's and the ladder's logs at INFO). Then, from the
replay:

- every WatchMatch view is exactly the engine's spectator view at that moment, and that view
  is unchanged when any seat's hidden cards are re-dealt (so it carries no hidden card);
- the seed (which deals every hidden card) and the live match appear on no surface, and no
  fault detail, while the match runs.

It iterates games.all_games(), so each new engine is covered as soon as it is registered.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import games
from games.rng import Rng, derive_seed
from games.values import to_plain
from premiere_wire import match_pb2
from server.codec import move_from_wire, observation_to_wire
from spectator.replays import expand
from tests.integration.services import Arbiter, free_port, scratch_database, start_bot, wait_ended
from tests.ladder.test_api import Ladder

BOT = "patient"
CASES = [(game.id, players) for game in games.all_games() for players in game.player_counts]


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Arbiter, Ladder, Path]]:
    """The arbiter, the ladder, and the folder where a file named after a match releases the
    patient bot's first decision in it."""
    folder = tmp_path_factory.mktemp("leaks")
    release = folder / "release"
    release.mkdir()
    with scratch_database() as url, contextlib.ExitStack() as cleanup:
        arbiter = Arbiter(url, free_port(), free_port())
        arbiter.start(folder / "arbiter.log")
        cleanup.callback(arbiter.stop)
        ladder = Ladder(url, folder / "ladder.log")
        cleanup.callback(ladder.stop)
        token = arbiter.add_bot(BOT)
        bot = start_bot(
            arbiter,
            "tests.security.bots:PatientBot",
            token,
            folder / "bot.log",
            environment={"PREMIERE_TEST_RELEASE_DIR": str(release)},
        )
        cleanup.callback(bot.wait, 10)
        cleanup.callback(bot.kill)
        ladder.wait_serving()
        yield arbiter, ladder, release


def http_text(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return str(reply.read().decode())


def public_surfaces(
    arbiter: Arbiter, ladder: Ladder, game: str, match_id: str, bot: str
) -> tuple[str, str, str]:
    """Everything anybody may read now: the arbiter's record of the match, the surfaces that
    name no running match, and the spectator pages' data, which list and show running matches
    (as WatchMatch does: spectator views only)."""
    record = arbiter.anonymous().GetMatch(match_pb2.GetMatchRequest(match_id=match_id), timeout=10)
    parts = []
    for path in (
        "/api/games",
        f"/api/games/{game}/leaderboard",
        f"/api/games/{game}/matches",
        f"/api/games/{game}/seats",
        f"/api/games/{game}/leagues",
        "/api/bots/patient/versions",
        "/api/bots/patient/standing",
        "/",
        "/metrics",
        "/api/leagues",
        f"/api/games/{game}/export",
        "/api/exports",
        "/exports",
    ):
        parts.append(http_text(ladder.http + path))
    parts.append(http_text(f"http://127.0.0.1:{arbiter.metrics_port}/metrics"))
    spectating = [
        http_text(ladder.http + path)
        for path in ("/api/live", f"/api/bots/{bot}", f"/api/matches/{match_id}/views")
    ]
    return (
        str(record) + record.SerializeToString().hex(),
        "\n".join(parts),
        "\n".join(spectating),
    )


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_no_hidden_card_reaches_a_public_surface(
    stack: tuple[Arbiter, Ladder, Path], game_id: str, players: int
) -> None:
    arbiter, ladder, release = stack
    bot = BOT
    game = games.get(game_id)
    request = match_pb2.CreateMatchRequest(game=game_id, rated=True)
    request.seats.add(bot=bot)
    for _ in range(players - 1):
        request.seats.add(builtin="random")
    match_id = arbiter.matches().CreateMatch(request, timeout=10).match_id

    events: list[match_pb2.WatchMatchResponse] = []
    watch = arbiter.anonymous().WatchMatch(match_pb2.WatchMatchRequest(match_id=match_id))
    reader = threading.Thread(target=lambda: events.extend(watch), daemon=True)
    reader.start()
    live: list[tuple[str, str, str]] = []
    get = match_pb2.GetMatchRequest(match_id=match_id)
    try:
        while True:
            status = arbiter.anonymous().GetMatch(get, timeout=10).match.status
            if status in (match_pb2.MATCH_STATUS_FINISHED, match_pb2.MATCH_STATUS_VOID):
                break
            if status == match_pb2.MATCH_STATUS_RUNNING and len(live) < 4:
                surfaces = public_surfaces(arbiter, ladder, game_id, match_id, bot)
                after = arbiter.anonymous().GetMatch(get, timeout=10).match.status
                if after == match_pb2.MATCH_STATUS_RUNNING:  # all of it was read while it ran
                    live.append(surfaces)
                # The bot held its first decision until now: the first reading was live.
                (release / match_id).touch()
            time.sleep(0.1)
    finally:
        (release / match_id).touch()
    ended = wait_ended(arbiter.matches(), match_id)
    assert ended.status == match_pb2.MATCH_STATUS_FINISHED, arbiter.log()
    reader.join(30)
    assert live, "the match ended before any surface could be read while it ran"
    spectated: dict[int, Any] = {}

    replay = arbiter.anonymous().GetReplay(
        match_pb2.GetReplayRequest(match_id=match_id), timeout=10
    )
    seed = replay.seed
    assert len(seed) == 64 and replay.rated
    for record, elsewhere, spectating in live:
        assert seed not in record and seed not in elsewhere and seed not in spectating
        assert match_id not in elsewhere, "a ladder surface other than the live pages names it"
        assert "detail:" not in record
        # The live replay while it ran: spectator views only, no move, no seat's view.
        views = expand(json.loads(spectating.rsplit("\n", 1)[-1]))
        assert views["status"] == "running" and not views["seat_views"]
        assert all(f["move"] is None and f["seats"] is None for f in views["frames"])
        for frame in views["frames"][1:]:
            spectated[frame["ply"]] = frame["spectator"]

    state = game.new(players, seed, game.resolve_options({}))
    rng = Rng(derive_seed("leak-test", game_id, players))
    moves = [(step.seat, move_from_wire(game, step.move)) for step in replay.steps]
    views = [e.move for e in events if e.WhichOneof("event") == "move"]
    assert len(views) == len(moves)
    # A forced move is told to the watcher in words only: the move itself may name a card.
    assert not any(forced.HasField("move") for view in views for forced in view.forced)
    for ply, ((seat, move), view) in enumerate(zip(moves, views, strict=True)):
        state.apply(seat, move)
        assert view.view == observation_to_wire(game, state.spectate())
        if ply in spectated:  # what the ladder's replay showed while the match ran
            assert spectated[ply] == to_plain(state.spectate())
        for other in range(players):
            if not state.is_over():
                twin = state.indistinguishable(other, rng)
                assert observation_to_wire(game, twin.spectate()) == view.view

    time.sleep(0.3)
    logs = (arbiter.log_path.read_text() if arbiter.log_path else "") + ladder.log()
    assert seed not in logs
