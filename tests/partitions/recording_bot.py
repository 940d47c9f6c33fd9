"""The bot of the partition scenarios: the deterministic random bot, which also writes down
what it was asked and what it answered, one JSON line per event, for the history checker.

Records: `request` (match, decision number, seat, request id, the answer's index, when the
host sent it), `started`
(match, seat, resumed/resent) and `ended` (match, seat, void reason). Each line is flushed as
it is written, so a bot killed mid-run leaves every earlier record.

It answers after PARTITIONS_ANSWER_S seconds (0 by default): paced like a bot that thinks, a
league's matches last long enough for a scenario's faults to fall inside them. With
PARTITIONS_LATE_S it answers one decision of each match that late (`LATE_FROM`).
"""

from __future__ import annotations

import json
import os
import time
from typing import IO, Any

from premiere_bot import Decision
from premiere_bot.examples.random_bot import RandomBot
from premiere_wire import bot_gateway_pb2

LATE_FROM = 10
"""With PARTITIONS_LATE_S, the bot's first decision of each match from this decision number on
is answered that late (past the move time): its answer arrives after the host gave up on it,
while the bot's next request of the stream waits."""


def sent_at(request: bot_gateway_pb2.DecisionRequest) -> float:
    """When the host sent the request, by its own clock: the deadline it set less the time it
    gave. A request can reach the bot long after (held in a cut link until it heals)."""
    given_ms = request.move_time_ms + request.time_bank_ms
    return (request.deadline_unix_ms - given_ms) / 1000


class RecordingBot(RandomBot):
    max_matches = 8
    inline = True

    def __init__(self) -> None:
        super().__init__()
        self._out: IO[str] = open(os.environ["PARTITIONS_RECORD"], "a", encoding="utf-8")  # noqa: SIM115
        self._name = os.environ.get("PARTITIONS_BOT", "")
        self._pause = float(os.environ.get("PARTITIONS_ANSWER_S", "0"))
        self._late = float(os.environ.get("PARTITIONS_LATE_S", "0"))
        self._late_in: set[str] = set()

    def _record(self, kind: str, **fields: Any) -> None:
        line = {"kind": kind, "bot": self._name, "pid": os.getpid(), "t": time.time(), **fields}
        self._out.write(json.dumps(line) + "\n")
        self._out.flush()

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Decision:
        index = super().decide_raw(request)
        pause = self._pause
        if self._late and self._first_late(request):
            pause = self._late
        if pause:
            time.sleep(pause)
        self._record(
            "request",
            match=request.match_id,
            decision=request.decision_number,
            seat=request.seat,
            request_id=request.request_id,
            index=int(index),
            legal=len(request.legal_moves),
            sent=sent_at(request),
        )
        return index

    def _first_late(self, request: bot_gateway_pb2.DecisionRequest) -> bool:
        """Whether this is the match's decision to answer late (and note that it was)."""
        if request.decision_number < LATE_FROM or request.match_id in self._late_in:
            return False
        self._late_in.add(request.match_id)
        return True

    def match_started(self, event: bot_gateway_pb2.MatchStarted) -> None:
        self._record(
            "started", match=event.match_id, seat=event.seat, resumed=event.resumed,
            resent=event.resent,
        )  # fmt: skip

    def match_ended(self, event: bot_gateway_pb2.MatchEnded) -> None:
        self._record("ended", match=event.match_id, seat=event.seat, void=event.void_reason)
