"""One test per promise of docs/protocol.md about the bot stream that no other test pins: each
speaks the wire by hand, as a bot author with only `proto/` would."""

from __future__ import annotations

import json
import queue
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import json_format

import games
from premiere.game_data import game_data
from premiere_wire import (
    bot_gateway_pb2,
    bot_gateway_pb2_grpc,
    game_data_pb2,
    game_data_pb2_grpc,
    match_pb2,
)
from tests.integration.services import Arbiter, Workers, create_match, wait_ended

SEATS = ["author", "builtin:random", "builtin:heuristic"]
Message = bot_gateway_pb2.ConnectResponse


class Stream:
    """One Connect stream: what the arbiter sends lands in `inbox`; `error` holds how it ended."""

    def __init__(
        self, arbiter: Arbiter, token: str, max_matches: int = 1, batches: bool = False
    ) -> None:
        self.outbox: queue.Queue[bot_gateway_pb2.ConnectRequest | None] = queue.Queue()
        self.inbox: queue.Queue[Message | None] = queue.Queue()
        self.error: grpc.RpcError | None = None
        hello = bot_gateway_pb2.Hello(max_matches=max_matches, batches=batches)
        self.send(bot_gateway_pb2.ConnectRequest(hello=hello))
        self.channel = arbiter.channel()
        stub = bot_gateway_pb2_grpc.BotGatewayServiceStub(self.channel)
        self.call = stub.Connect(
            iter(self.outbox.get, None), metadata=(("authorization", f"Bearer {token}"),)
        )
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        try:
            for message in self.call:
                self.inbox.put(message)
        except grpc.RpcError as error:
            self.error = error
        self.inbox.put(None)

    def send(self, message: bot_gateway_pb2.ConnectRequest) -> None:
        self.outbox.put(message)

    def answer(self, request: bot_gateway_pb2.DecisionRequest, index: int = 0) -> None:
        answer = bot_gateway_pb2.DecisionAnswer(request_id=request.request_id)
        answer.legal_move_index = index
        self.send(bot_gateway_pb2.ConnectRequest(answer=answer))

    def next(self, kind: str, timeout: float = 30) -> Message:
        """The next message of `kind`, skipping others; fails if the stream ends first."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.inbox.get(timeout=max(0.01, deadline - time.monotonic()))
            if message is None:
                pytest.fail(f"the stream ended while waiting for {kind}: {self.error}")
            if message.WhichOneof("message") == kind:
                return message

    def ended(self, timeout: float = 30) -> grpc.RpcError:
        self.reader.join(timeout)
        assert self.error is not None, "the stream did not end with an error status"
        return self.error

    def close(self) -> None:
        self.outbox.put(None)
        self.call.cancel()
        self.reader.join(10)
        self.channel.close()


def test_max_matches_zero_is_refused(arbiter: Arbiter) -> None:
    stream = Stream(arbiter, arbiter.add_bot("author"), max_matches=0)
    error = stream.ended()
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "max_matches must be at least 1" in str(error.details())


def test_a_second_hello_ends_the_stream_with_a_clear_error(arbiter: Arbiter) -> None:
    stream = Stream(arbiter, arbiter.add_bot("author"))
    stream.next("welcome")
    stream.send(bot_gateway_pb2.ConnectRequest(hello=bot_gateway_pb2.Hello(max_matches=2)))
    error = stream.ended()
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "one Hello" in str(error.details())


def test_round_trips_below_a_millisecond_do_not_read_as_none(arbiter: Arbiter) -> None:
    stream = Stream(arbiter, arbiter.add_bot("author"))
    try:
        stream.next("welcome")
        create_match(arbiter.matches(), SEATS, "round-trip", move_time_ms=5000)
        first = stream.next("decision").decision
        assert (first.last_round_trip_ms, first.last_round_trip_us) == (0, 0)
        stream.answer(first)
        second = stream.next("decision").decision
        assert second.last_round_trip_us > 0
        assert second.last_round_trip_ms == -(-second.last_round_trip_us // 1000) >= 1
    finally:
        stream.close()


def test_request_ids_are_unique_across_arbiter_restarts(arbiter: Arbiter, tmp_path: Path) -> None:
    token = arbiter.add_bot("author")
    stream = Stream(arbiter, token)
    stream.next("welcome")
    create_match(arbiter.matches(), SEATS, "restart-ids", move_time_ms=5000)
    seen = set()
    for _ in range(3):
        request = stream.next("decision").decision
        seen.add(request.request_id)
        stream.answer(request)
    pending = stream.next("decision").decision
    seen.add(pending.request_id)
    arbiter.kill()
    stream.close()
    arbiter.start(tmp_path / "arbiter-2.log")
    again = Stream(arbiter, token)
    try:
        started = again.next("match_started").match_started
        assert started.resumed
        resent = again.next("decision").decision
        assert resent.decision_number == pending.decision_number
        assert resent.request_id not in seen
        record = arbiter.matches().GetMatch(match_pb2.GetMatchRequest(match_id=started.match_id))
        restarts = [f for f in record.match.faults if f.kind == "restart"]
        assert [(f.seat, f.blame) for f in restarts] == [(-1, "infrastructure")]
    finally:
        again.close()


def test_a_reconnecting_stream_is_told_again_which_matches_run(arbiter: Arbiter) -> None:
    token = arbiter.add_bot("author")
    first = Stream(arbiter, token)
    first.next("welcome")
    match_id = create_match(arbiter.matches(), SEATS, "resent", move_time_ms=5000)
    original = first.next("match_started").match_started
    assert not original.resent
    stream_request = first.next("decision").decision
    first.answer(stream_request)
    first.next("decision")
    first.close()
    second = Stream(arbiter, token)
    try:
        second.next("welcome")
        again = second.next("match_started").match_started
        assert again.match_id == match_id and again.resent and not again.resumed
        assert list(again.seat_names) == list(original.seat_names)
        assert again.seat == original.seat
    finally:
        second.close()


def test_a_request_with_no_stream_open_waits_for_one_until_its_deadline(arbiter: Arbiter) -> None:
    token = arbiter.add_bot("author")
    first = Stream(arbiter, token)
    first.next("welcome")
    match_id = create_match(arbiter.matches(), SEATS, "waits", move_time_ms=3000, time_bank_ms=1000)
    first.answer(first.next("decision").decision)
    dropped = first.next("decision").decision  # open when the stream drops: a disconnect fault
    first.close()
    time.sleep(1.0)  # the next request is asked with no stream open: it waits, clock running
    second = Stream(arbiter, token)
    try:
        waited = second.next("decision").decision
        assert waited.decision_number > dropped.decision_number
        assert waited.deadline_unix_ms - time.time() * 1000 < 4000 - 900
        second.answer(waited)
        match = arbiter.matches().GetMatch(match_pb2.GetMatchRequest(match_id=match_id)).match
        seat_faults = [(f.decision_number, f.kind) for f in match.faults if f.seat == 0]
        assert seat_faults == [(dropped.decision_number, "disconnect")]
    finally:
        second.close()


def test_a_match_that_ends_while_no_stream_is_open_is_reported_on_the_next(
    arbiter: Arbiter,
) -> None:
    token = arbiter.add_bot("author")
    first = Stream(arbiter, token)
    first.next("welcome")
    match_id = create_match(
        arbiter.matches(), SEATS, "ended", move_time_ms=50, time_bank_ms=1, strike_limit=1
    )
    first.next("decision")
    first.close()  # every later request times out: two strikes forfeit, the match runs out
    match = wait_ended(arbiter.matches(), match_id, timeout=60)
    assert match.status == match_pb2.MATCH_STATUS_FINISHED
    second = Stream(arbiter, token)
    try:
        second.next("welcome")
        ended = second.next("match_ended").match_ended
        assert ended.match_id == match_id and ended.seat == 0
        assert list(ended.outcome.forfeited) == [0]
        # The seat's faults come with the end, as the match record counts them.
        recorded = Counter(f.kind for f in match.faults if f.seat == 0)
        assert ended.HasField("faults") and dict(ended.faults.by_kind) == recorded
        assert recorded == {"disconnect": 2}
    finally:
        second.close()


def _ladder(arbiter: Arbiter, folder: Path) -> Workers:
    """`premiere ladder` on the arbiter's database, serving HTTP once this returns."""
    workers = Workers(arbiter, folder)
    workers.start_ladder()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            _get(workers, "/healthz")
            return workers
        except OSError:
            time.sleep(0.2)
    workers.stop()
    raise TimeoutError((folder / "ladder.log").read_text()[-4000:])


def _get(workers: Workers, path: str) -> Any:
    with urllib.request.urlopen(workers.ladder_http + path, timeout=10) as reply:
        return json.loads(reply.read())


def test_game_data_is_served_without_a_token_and_named_by_its_digest_in_match_started(
    arbiter: Arbiter, tmp_path: Path
) -> None:
    """Point 1: each game's data by RPC with no token and as the ladder's JSON, the engine's
    own (tests/wire/test_game_data.py holds that to the data files), its digest in
    MatchStarted."""
    channel = arbiter.channel()
    stub = game_data_pb2_grpc.GameDataServiceStub(channel)
    listed = stub.ListGameData(game_data_pb2.ListGameDataRequest(), timeout=10)
    assert {g.game: g.digest for g in listed.games} == {g: game_data(g).digest for g in games.ids()}
    for game_id in games.ids():
        reply = stub.GetGameData(game_data_pb2.GetGameDataRequest(game=game_id), timeout=10)
        assert reply.data == game_data(game_id)
    with pytest.raises(grpc.RpcError) as unknown:
        stub.GetGameData(game_data_pb2.GetGameDataRequest(game="chess"), timeout=10)
    assert unknown.value.code() == grpc.StatusCode.NOT_FOUND
    channel.close()

    workers = _ladder(arbiter, tmp_path)
    try:
        for game_id in games.ids():
            served = _get(workers, f"/api/games/{game_id}/data")
            assert json_format.ParseDict(served, game_data_pb2.GameData()) == game_data(game_id)
    finally:
        workers.stop()

    stream = Stream(arbiter, arbiter.add_bot("author"))
    try:
        stream.next("welcome")
        create_match(arbiter.matches(), SEATS, "digest", move_time_ms=5000)
        started = stream.next("match_started").match_started
        assert started.game_data_digest == game_data("magic-trick").digest
    finally:
        stream.close()


def test_a_solo_outcome_says_won_or_lost_with_the_automas_score_and_ranks_one_of_one(
    arbiter: Arbiter, tmp_path: Path
) -> None:
    """Point 4: a solo Movie Fight match carries Outcome.solo, and rating history ranks the
    seat 1 of its 1 seat whether it won or lost against the automa."""
    levels = {
        level.level: level.points for level in game_data("movie-fight").movie_fight.automa_levels
    }
    stub = arbiter.matches()
    ids = []
    for level, player in ((1, "heuristic"), (4, "random"), (1, "random")):
        request = match_pb2.CreateMatchRequest(game="movie-fight", rated=True)
        request.options["level"] = str(level)
        request.seats.add(builtin=player)
        ids.append((level, stub.CreateMatch(request, timeout=10).match_id))
    results = []
    for level, match_id in ids:
        match = wait_ended(stub, match_id)
        assert match.status == match_pb2.MATCH_STATUS_FINISHED and match.rated
        solo = match.outcome.solo
        assert solo.opponent == f"automa:{level}"
        assert solo.opponent_score >= levels[level]
        score = match.outcome.scores[0]
        assert (solo.won, solo.tied) == (score > solo.opponent_score, score == solo.opponent_score)
        assert list(match.outcome.ranks) == [1]
        results.append(solo.won)
    assert False in results, "some solo match should be a loss (random against level 4)"

    workers = _ladder(arbiter, tmp_path)
    try:
        deadline = time.monotonic() + 60
        points: list[Any] = []
        while time.monotonic() < deadline and len(points) < len(ids):
            time.sleep(0.3)
            try:
                history = [
                    _get(workers, f"/api/bots/builtin:{player}/history?game=movie-fight")
                    for player in ("heuristic", "random")
                ]
            except urllib.error.HTTPError:  # 404 until the player is first rated
                continue
            points = [p for h in history for p in h["points"]]
    finally:
        workers.stop()
    assert sorted(p["match_id"] for p in points) == sorted(match_id for _, match_id in ids)
    assert [(p["rank"], p["seats"]) for p in points] == [(1, 1)] * len(ids)


def test_an_illegal_answer_is_refused_with_one_illegal_prefix(arbiter: Arbiter) -> None:
    """Point 4: the refusal reason reads "illegal: index ...", not "illegal: illegal: ..."."""
    stream = Stream(arbiter, arbiter.add_bot("author"))
    try:
        stream.next("welcome")
        create_match(arbiter.matches(), SEATS, "illegal", move_time_ms=5000)
        request = stream.next("decision").decision
        stream.answer(request, index=len(request.legal_moves) + 5)
        refused = stream.next("refused").refused
        assert refused.request_id == request.request_id
        assert refused.reason.startswith("illegal: index ")
        assert "illegal: illegal" not in refused.reason
    finally:
        stream.close()


def test_an_illegal_move_with_a_huge_text_field_is_quoted_short(arbiter: Arbiter) -> None:
    """A typed move's text is the bot's, as long as a message allows: the refusal sent back
    and the fault stored quote at most 300 characters of it."""
    stream = Stream(arbiter, arbiter.add_bot("author"))
    try:
        stream.next("welcome")
        match_id = create_match(arbiter.matches(), SEATS, "huge", move_time_ms=5000)
        request = stream.next("decision").decision
        typed = bot_gateway_pb2.DecisionAnswer(request_id=request.request_id)
        typed.move.magic_trick.sort.suit = "x" * 200_000
        stream.send(bot_gateway_pb2.ConnectRequest(answer=typed))
        refused = stream.next("refused").refused
        assert refused.reason.startswith("illegal: ") and refused.reason.endswith("…")
        assert len(refused.reason) <= len("illegal: ") + 300
        stub = arbiter.matches()
        deadline = time.monotonic() + 30
        while not (
            match := stub.GetMatch(match_pb2.GetMatchRequest(match_id=match_id)).match
        ).faults:
            assert time.monotonic() < deadline, "the fault was not recorded"
            time.sleep(0.05)
        assert [len(f.detail) <= 300 and f.kind == "illegal" for f in match.faults] == [True]
    finally:
        stream.close()


def test_answers_at_the_edges_of_the_legal_moves(arbiter: Arbiter) -> None:
    """An index of exactly len(legal), or a typed move that is legal only for another seat, is
    a strike and a default move, never a voided match; the last legal index is a plain move.
    (A negative index cannot be sent: the field is uint32.)"""
    stream = Stream(arbiter, arbiter.add_bot("author"), max_matches=3)
    try:
        stream.next("welcome")
        match_id = create_match(
            arbiter.matches(), ["author", "author", "author"], "edges", move_time_ms=5000
        )
        step = {r.seat: r for r in (stream.next("decision").decision for _ in range(3))}
        assert sorted(step) == [0, 1, 2]
        own = {m.SerializeToString() for m in step[0].legal_moves}
        others = [m for m in step[1].legal_moves if m.SerializeToString() not in own]
        assert others, "seats 0 and 1 were dealt the same legal moves; pick another seed"
        typed = bot_gateway_pb2.DecisionAnswer(request_id=step[0].request_id)
        typed.move.CopyFrom(others[0])
        stream.send(bot_gateway_pb2.ConnectRequest(answer=typed))
        stream.answer(step[1], index=len(step[1].legal_moves))
        stream.answer(step[2], index=len(step[2].legal_moves) - 1)
        reasons = {}
        for _ in range(2):
            refusal = stream.next("refused").refused
            reasons[refusal.request_id] = refusal.reason
        assert set(reasons) == {step[0].request_id, step[1].request_id}
        assert reasons[step[0].request_id].endswith("is not legal now")
        count = len(step[1].legal_moves)
        assert reasons[step[1].request_id] == f"illegal: index {count} of {count} moves"
        stub = arbiter.matches()
        deadline = time.monotonic() + 30
        while (
            match := stub.GetMatch(match_pb2.GetMatchRequest(match_id=match_id)).match
        ).decisions < 3:
            assert time.monotonic() < deadline, "the step's three answers were not applied"
            time.sleep(0.05)
        assert match.status == match_pb2.MATCH_STATUS_RUNNING
        faults = sorted((f.seat, f.kind) for f in match.faults)
        assert faults == [(0, "illegal"), (1, "illegal")]
        stream.next("decision")
    finally:
        stream.close()


def test_a_simultaneous_steps_requests_are_numbered_by_their_places_in_the_log(
    arbiter: Arbiter,
) -> None:
    """Point 4: the proto's decision_number: the requests of one simultaneous step come from
    one state and carry the places their answers take in the move log, in seat order."""
    stream = Stream(arbiter, arbiter.add_bot("author"), max_matches=3)
    try:
        stream.next("welcome")
        match_id = create_match(
            arbiter.matches(), ["author", "author", "author"], "numbers", move_time_ms=5000
        )
        first = [stream.next("decision").decision for _ in range(3)]
        assert sorted((r.decision_number, r.seat) for r in first) == [(0, 0), (1, 1), (2, 2)]
        observations = {r.observation.SerializeToString() for r in first}
        assert len(observations) == 3  # each seat's own view of the same state
        for request in first:
            stream.answer(request)
        stub = arbiter.matches()
        deadline = time.monotonic() + 30
        while stub.GetMatch(match_pb2.GetMatchRequest(match_id=match_id)).match.decisions < 3:
            assert time.monotonic() < deadline, "the step's three answers were not applied"
            time.sleep(0.05)
        # The next request is the fourth entry of the log.
        assert stream.next("decision").decision.decision_number == 3
    finally:
        stream.close()


DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_create_match_needs_the_operator_token_as_the_doc_says(arbiter: Arbiter) -> None:
    """Point 4: CreateMatch without the operator's token is UNAUTHENTICATED, and the doc says
    so and how `premiere up` hands the token over."""
    request = match_pb2.CreateMatchRequest(game="magic-trick")
    for _ in range(3):
        request.seats.add(builtin="random")
    with pytest.raises(grpc.RpcError) as refused:
        arbiter.anonymous().CreateMatch(request, timeout=10)
    assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert "PREMIERE_OPERATOR_TOKEN" in str(refused.value.details())
    doc = DOC.read_text()
    assert "operator token" in doc and "PREMIERE_OPERATOR_TOKEN" in doc
    assert "`premiere up`" in doc


def test_anyone_may_read_every_seats_replay_once_the_match_ends(arbiter: Arbiter) -> None:
    """Point 4: with no token at all, a running match's seat replay is refused and an ended
    one's is given, for every seat."""
    stream = Stream(arbiter, arbiter.add_bot("author"))
    try:
        stream.next("welcome")
        match_id = create_match(arbiter.matches(), SEATS, "replays", move_time_ms=5000)
        request = stream.next("decision").decision
        with pytest.raises(grpc.RpcError) as refused:
            arbiter.anonymous().GetReplay(
                match_pb2.GetReplayRequest(match_id=match_id, seat=1), timeout=10
            )
        assert refused.value.code() in (
            grpc.StatusCode.PERMISSION_DENIED,
            grpc.StatusCode.UNAUTHENTICATED,
            grpc.StatusCode.FAILED_PRECONDITION,
        )
        stream.answer(request)
        while True:
            message = stream.inbox.get(timeout=60)
            assert message is not None, stream.error
            if message.WhichOneof("message") == "decision":
                stream.answer(message.decision)
            elif message.WhichOneof("message") == "match_ended":
                break
    finally:
        stream.close()
    for seat in range(len(SEATS)):
        replay = arbiter.anonymous().GetReplay(
            match_pb2.GetReplayRequest(match_id=match_id, seat=seat), timeout=10
        )
        assert replay.steps and {step.seat for step in replay.steps} == {seat}
        assert all(step.HasField("observation") for step in replay.steps)
    assert "anyone may read every seat's replay" in " ".join(DOC.read_text().split())


def test_forced_moves_are_never_asked_and_in_a_seats_replay_only_as_it_may_know_them(
    arbiter: Arbiter,
) -> None:
    """Point 4: a Movie Fight seat with one legal move is never asked it: every request's
    decision_number is the number of moves logged so far, forced ones taking none. While the
    match runs, the seat's own replay lists the forced moves after each of its decisions (and at
    set-up), the move itself only for its own; the others' in words alone."""
    token = arbiter.add_bot("author")
    stream = Stream(arbiter, token)
    stub = arbiter.matches()
    seen_others = False
    try:
        stream.next("welcome")
        seats = ["author", "builtin:random", "builtin:heuristic"]
        match_id = create_match(stub, seats, "forced-asked", "movie-fight", move_time_ms=5000)
        while not seen_others:
            request = stream.next("decision").decision
            record = stub.GetMatch(match_pb2.GetMatchRequest(match_id=match_id), timeout=10)
            assert request.decision_number == record.match.decisions
            own = stub.GetReplay(
                match_pb2.GetReplayRequest(match_id=match_id, seat=0),
                metadata=(("authorization", f"Bearer {token}"),),
                timeout=10,
            )
            forced = [*own.forced_at_start, *(f for step in own.steps for f in step.forced)]
            assert forced, "Movie Fight forces the first seat's upgrade at set-up"
            assert [f.HasField("move") for f in forced] == [f.seat == 0 for f in forced]
            assert all(f.text for f in forced)
            seen_others = any(f.seat != 0 for f in forced)
            stream.answer(request)
    finally:
        stream.close()


def test_the_ladders_json_replay_names_moves_as_the_proto_does(
    arbiter: Arbiter, tmp_path: Path
) -> None:
    """Point 4: move kinds in /api/matches/<id>/replay are the proto's move fields
    ("pass_guess", "hire_any"), not the engine's ("pass-guess", "hire-any")."""
    from premiere_wire import game_pb2

    stub = arbiter.matches()
    played = {
        "movie-trailer": create_match(stub, ["builtin:random"] * 3, "names-1", "movie-trailer"),
        "motion-pictures": create_match(stub, ["builtin:random"] * 2, "names-2", "motion-pictures"),
    }
    for match_id in played.values():
        assert wait_ended(stub, match_id).status == match_pb2.MATCH_STATUS_FINISHED
    workers = _ladder(arbiter, tmp_path)
    every: set[str] = set()
    try:
        for game_id, match_id in played.items():
            replay = _get(workers, f"/api/matches/{match_id}/replay")
            kinds = {move["move"]["kind"] for move in replay["moves"]}
            field = game_pb2.Move.DESCRIPTOR.fields_by_name[game_id.replace("-", "_")]
            assert field.message_type is not None
            names = set(field.message_type.fields_by_name)
            assert kinds and kinds <= names, (kinds, names)
            every |= kinds
    finally:
        workers.stop()
    assert any("_" in kind for kind in every), every


def test_premiere_bot_try_fills_the_smallest_table_with_random_bots(tmp_path: Path) -> None:
    """Point 5: `premiere-bot try BOT --game magic-trick` plays at 3 (the least Magic Trick
    allows) against random bots, and the help says that is the default."""
    import subprocess
    import sys

    command = [str(Path(sys.executable).parent / "premiere-bot"), "try"]
    bot = "premiere_bot.examples.random_bot:RandomBot"
    result = subprocess.run(
        [*command, bot, "--game", "magic-trick", "--games", "3"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "at magic-trick, 3 players, vs random, random:" in result.stdout
    assert "over 3 matches" in result.stdout
    helped = subprocess.run([*command, "--help"], capture_output=True, text=True, timeout=60)
    assert "smallest table" in " ".join(helped.stdout.split())


def test_the_python_sdk_resolves_card_numbers_to_the_served_cards(
    arbiter: Arbiter, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Point 2: a `premiere-bot run` bot reads `observation.offer[0].genres`: the SDK fetched
    the game's data from the arbiter when the match started."""
    from tests.integration.services import start_bot

    cards = tmp_path / "cards.jsonl"
    monkeypatch.setenv("PREMIERE_TEST_CARDS", str(cards))
    token = arbiter.add_bot("reader")
    bot = start_bot(
        arbiter,
        "tests.integration.data_bots:CardReader",
        token,
        tmp_path / "bot.log",
    )
    try:
        match_id = create_match(
            arbiter.matches(), ["reader", "builtin:random"], "cards", "movie-fight"
        )
        match = wait_ended(arbiter.matches(), match_id)
    finally:
        bot.terminate()
        bot.wait(10)
    assert match.status == match_pb2.MATCH_STATUS_FINISHED
    assert not list(match.faults), match.faults
    served = {card.number: card for card in game_data("movie-fight").movie_fight.cards}
    lines = [json.loads(line) for line in cards.read_text().splitlines()]
    assert len(lines) > 5
    for line in lines:
        card = served[line["number"]]
        assert (line["genres"], line["viewer"]) == (list(card.genres), card.viewer)
