"""The Node bot's hand-written wire path (clients/node/bot.js) against protobuf itself, over the
decision requests of random games of every game as the arbiter encodes them: the fields it
reads are the request's, its pick is the Python RandomBot's (so it is deterministic from what
the seat sees), its answer bytes are protobuf's, and any other message is left to
proto-loader."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from typing import Any

import pytest

import games
from games.rng import Rng
from premiere_bot.bot import answer_request
from premiere_bot.examples.random_bot import RandomBot
from premiere_wire import bot_gateway_pb2
from server.codec import decision_request
from tests.integration.services import ROOT

NODE_CLIENT = ROOT / "clients" / "node"

SCRIPT = """
const { chooseMove, decodeDecision, encodeAnswer, loadGateway } = require(process.argv[1]);
loadGateway();
const lines = require("node:fs").readFileSync(0, "utf8").split("\\n").filter(Boolean);
for (const line of lines) {
  const decoded = decodeDecision(Buffer.from(line, "base64"));
  if (decoded === null) { console.log("null"); continue; }
  const request = decoded.decision;
  const index = chooseMove(request);
  const reply = { request_id: request.request_id, legal_move_index: index };
  const answer = encodeAnswer({ answer: reply });
  console.log(JSON.stringify({
    request_id: request.request_id, match_id: request.match_id, game: request.game,
    seat: request.seat, decision_number: request.decision_number,
    legal_move_count: request.legal_move_count, observation: request.observation.toString("hex"),
    index, answer: answer.toString("hex"),
  }));
}
"""


def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.fail("node is not on PATH: install Node.js 20 to test clients/node")
    if not (NODE_CLIENT / "node_modules" / "@grpc" / "proto-loader" / "package.json").is_file():
        pytest.fail("run `cd clients/node && npm ci` (make test does it for you)")
    return found


def decision_requests(per_game: int = 3) -> list[bot_gateway_pb2.DecisionRequest]:
    made = []
    for game_id in games.ids():
        game = games.get(game_id)
        for number in range(per_game):
            players = game.player_counts[number % len(game.player_counts)]
            state = game.new(players, f"wire-{number}")
            rng = Rng(f"wire-{number}".encode())
            decided = 0
            while not state.is_over() and decided < 400:
                seat = state.to_move()[0]
                legal = state.legal_moves(seat)
                made.append(
                    decision_request(
                        game,
                        state.observe(seat),
                        legal,
                        request_id=f"{game_id}-{number}:{decided}",
                        match_id=f"{game_id}-{number}-ü",
                        game=game.id,
                        seat=seat,
                        decision_number=decided * 977,
                        deadline_unix_ms=1_790_000_000_000 + decided,
                        move_time_ms=500,
                        last_round_trip_us=decided * 131,
                    )
                )
                state.apply(seat, rng.choice(legal))
                decided += 1
    return made


def run_node(messages: list[bytes]) -> list[Any]:
    out = subprocess.run(
        [node(), "-e", SCRIPT, str(NODE_CLIENT / "bot.js")],
        input="\n".join(base64.b64encode(m).decode() for m in messages) + "\n",
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    return [json.loads(line) for line in out.splitlines()]


def test_node_reads_picks_and_answers_exactly_as_protobuf_and_random_bot_do() -> None:
    requests = decision_requests()
    assert {r.game for r in requests} == set(games.ids())
    assert len(requests) > 1000
    messages = [
        bot_gateway_pb2.ConnectResponse(decision=request).SerializeToString()
        for request in requests
    ]
    bot = RandomBot()
    for request, seen in zip(requests, run_node(messages), strict=True):
        assert seen["request_id"] == request.request_id
        assert seen["match_id"] == request.match_id
        assert seen["game"] == request.game
        assert seen["seat"] == request.seat
        assert seen["decision_number"] == request.decision_number
        assert seen["legal_move_count"] == len(request.legal_moves)
        observation = request.observation.SerializeToString(deterministic=True)
        assert seen["observation"] == observation.hex()
        assert seen["index"] == bot.decide_raw(request)
        reply = answer_request(request, seen["index"]).SerializeToString()
        assert seen["answer"] == reply.hex()


def test_node_leaves_every_other_message_to_proto_loader() -> None:
    others = [
        bot_gateway_pb2.ConnectResponse(welcome=bot_gateway_pb2.Welcome(bot_name="n")),
        bot_gateway_pb2.ConnectResponse(
            match_started=bot_gateway_pb2.MatchStarted(match_id="m", game="magic-trick")
        ),
        bot_gateway_pb2.ConnectResponse(match_ended=bot_gateway_pb2.MatchEnded(match_id="m")),
        bot_gateway_pb2.ConnectResponse(
            refused=bot_gateway_pb2.AnswerRefused(request_id="m:1", reason="late")
        ),
    ]
    assert run_node([m.SerializeToString() for m in others]) == [None] * len(others)


BATCH_SCRIPT = """
const { chooseMove, decodeDecision, encodeAnswer, loadGateway } = require(process.argv[1]);
loadGateway();
const lines = require("node:fs").readFileSync(0, "utf8").split("\\n").filter(Boolean);
for (const line of lines) {
  const decoded = decodeDecision(Buffer.from(line, "base64"));
  const requests = decoded.decisions.requests;
  const answers = requests.map(
    (r) => ({ request_id: r.request_id, legal_move_index: chooseMove(r) }));
  console.log(JSON.stringify({
    kind: decoded.message,
    ids: requests.map((r) => r.request_id),
    answer: encodeAnswer({ answers: { answers } }).toString("hex"),
  }));
}
"""


def test_node_reads_a_decision_batch_and_answers_it_in_one_answer_batch() -> None:
    requests = decision_requests(per_game=1)
    batches = [requests[i : i + 1 + i % 5] for i in range(0, 200, 5)]
    messages = []
    for batch in batches:
        message = bot_gateway_pb2.ConnectResponse()
        message.decisions.requests.extend(batch)
        messages.append(message.SerializeToString())
    out = subprocess.run(
        [node(), "-e", BATCH_SCRIPT, str(NODE_CLIENT / "bot.js")],
        input="\n".join(base64.b64encode(m).decode() for m in messages) + "\n",
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    bot = RandomBot()
    for batch, line in zip(batches, out.splitlines(), strict=True):
        seen = json.loads(line)
        assert seen["kind"] == "decisions"
        assert seen["ids"] == [r.request_id for r in batch]
        expected = bot_gateway_pb2.ConnectRequest()
        for request in batch:
            expected.answers.answers.add(
                request_id=request.request_id, legal_move_index=bot.decide_raw(request)
            )
        assert seen["answer"] == expected.SerializeToString().hex()


NOTE_SCRIPT = """
const { answerFor, encodeAnswer, loadGateway } = require(process.argv[1]);
loadGateway();
const request = { request_id: "m:7" };
const note = "plan: lead trumps, 2 left \\u2014 \\u00e9t\\u00e9";
const noted = answerFor(request, { index: 3, note });
const plain = answerFor(request, 2);
let refused = "";
try {
  answerFor(request, { index: 0, note: "x".repeat(513) });
} catch (error) {
  refused = error.message;
}
let nul = "";
try {
  answerFor(request, { index: 0, note: "a\\u0000b" });
} catch (error) {
  nul = error.message;
}
console.log(JSON.stringify({
  noted: encodeAnswer({ answer: noted }).toString("hex"),
  batch: encodeAnswer({ answers: { answers: [noted, plain] } }).toString("hex"),
  refused,
  nul,
}));
"""


def test_node_attaches_a_note_exactly_as_protobuf_does() -> None:
    """A strategy may return { index, note }: the answer carries DecisionAnswer.note, encoded
    on the hand-written path byte for byte as protobuf does; a note past 512 bytes, or with a NUL
    character (PostgreSQL's text holds none), is refused."""
    out = subprocess.run(
        [node(), "-e", NOTE_SCRIPT, str(NODE_CLIENT / "bot.js")],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    seen = json.loads(out)
    note = "plan: lead trumps, 2 left \u2014 \u00e9t\u00e9"
    single = bot_gateway_pb2.ConnectRequest()
    single.answer.request_id = "m:7"
    single.answer.legal_move_index = 3
    single.answer.note = note
    assert seen["noted"] == single.SerializeToString().hex()
    batch = bot_gateway_pb2.ConnectRequest()
    batch.answers.answers.add(request_id="m:7", legal_move_index=3, note=note)
    batch.answers.answers.add(request_id="m:7", legal_move_index=2)
    assert seen["batch"] == batch.SerializeToString().hex()
    assert "513 bytes" in seen["refused"]
    assert "NUL character" in seen["nul"]
