"""One live match: the only owner of its state. It asks every awaited seat (all of them at once
in a simultaneous step), enforces the clock and the fault policy, and makes every move durable
before asking for the next step."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import games
from games.errors import IllegalMove, MalformedMove
from games.interface import Outcome, options_as_text
from games.play import step
from games.values import to_plain
from premiere.game_data import game_data
from premiere.outcome import outcome_to_wire
from premiere_wire import bot_gateway_pb2
from server import builtins, metrics
from server.codec import decision_request_bytes, move_from_wire
from server.events import EndEvent, EventHub, FaultEvent, MoveEvent
from server.router import Bots, Disconnected, Request
from server.store import FaultRecord, Fenced, MatchSpec, MoveRecord, Store

log = logging.getLogger("premiere.host")

BOT = "bot"
INFRASTRUCTURE = "infrastructure"


@dataclass
class SeatClock:
    """A seat's time bank, strikes and status, all derivable from the match's logs."""

    bank_ms: int
    strikes: int = 0
    forfeited: bool = False
    last_round_trip_us: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    """The seat's faults by kind, as its match's log holds them (every blame)."""


@dataclass(frozen=True)
class Decision:
    move: Any
    elapsed_ms: int
    defaulted: bool = False
    fault: FaultRecord | None = None
    result: str = "ok"
    note: str | None = None


MAX_NOTE_BYTES = 512
"""The longest note a bot may attach to an answer (`DecisionAnswer.note`), in UTF-8 bytes."""

MAX_REASON_CHARS = 300
"""A refused answer's reason quotes the move; a move's text fields are the bot's, as long as a
message allows, so the stored fault and the refusal sent back quote this much of it."""


def _capped(reason: str) -> str:
    return reason if len(reason) <= MAX_REASON_CHARS else reason[: MAX_REASON_CHARS - 1] + "…"


class MatchHost:
    """`fence` is the fencing number of the match's lease this arbiter holds; every write of
    the match carries it, and the database refuses it once another arbiter took over."""

    def __init__(
        self, spec: MatchSpec, store: Store, router: Bots, hub: EventHub, fence: int
    ) -> None:
        self.spec = spec
        self.fence = fence
        self.lost = False
        """Set once another arbiter holds the match: its bots' slots are the new host's now."""
        self.game = games.get(spec.game)
        self.store = store
        self.router = router
        self.hub = hub
        self.state = self.game.new(spec.players, spec.seed, spec.options)
        self.forced_at_start = self.game.encode_forced(self.state.forced_moves())
        """What the engine applied on its own at set-up, kept with the match when it starts."""
        self.clocks = [SeatClock(spec.time_bank_ms) for _ in spec.seats]
        self.ply = 0
        self._latency = metrics.DECISION_LATENCY.labels(self.game.id)
        self._decided: dict[str, Any] = {}
        """Metric children looked up once per match, not once per decision."""

    @property
    def remote_bots(self) -> list[int]:
        return [s.bot_id for s in self.spec.seats if s.bot_id is not None]

    def restore(self, moves: list[MoveRecord], faults: list[FaultRecord]) -> None:
        """Re-execute the logs: the state, the time banks and the strikes come back exactly,
        and every forced move the log records is the one the engine applies again."""
        for record in moves:
            self.state.apply(record.seat, self.game.decode_move(record.move, record.seat))
            self.game.checked_forced(self.state, record.forced)
            self._charge(record.seat, record.elapsed_ms)
        self.ply = len(moves)
        for fault in faults:
            self._count_fault(fault)
            if fault.blame == BOT and fault.seat >= 0:
                self._count_strike(fault.seat)

    async def _absent(self, grace_s: float) -> str:
        """Why the match could not start: who never connected, who does not play this game."""
        seen: set[int] = set()
        away: list[str] = []
        elsewhere: list[str] = []
        for seat in self.spec.seats:
            if seat.bot_id is None or seat.bot_id in seen:
                continue
            seen.add(seat.bot_id)
            if not await self.router.reachable(seat.bot_id):
                away.append(seat.label)
            elif not await self.router.can_play(seat.bot_id, self.game.id):
                elsewhere.append(seat.label)
        reasons = []
        if elsewhere:
            verb = "does" if len(elsewhere) == 1 else "do"
            reasons.append(f"{', '.join(elsewhere)} connected but {verb} not play {self.game.id}")
        if away:
            reasons.append(f"{', '.join(away)} did not connect within {grace_s:g} s")
        return "; ".join(reasons) or f"its bots had no free capacity within {grace_s:g} s"

    def _charge(self, seat: int, elapsed_ms: int) -> None:
        clock = self.clocks[seat]
        clock.bank_ms = max(0, clock.bank_ms - max(0, elapsed_ms - self.spec.move_time_ms))

    def _count_fault(self, fault: FaultRecord) -> None:
        if 0 <= fault.seat < len(self.clocks):
            self.clocks[fault.seat].faults[fault.kind] += 1

    def _count_strike(self, seat: int) -> bool:
        """Returns True when this strike makes the seat forfeit."""
        clock = self.clocks[seat]
        clock.strikes += 1
        if clock.strikes > self.spec.strike_limit and not clock.forfeited:
            clock.forfeited = True
            return True
        return False

    # --- the match -----------------------------------------------------------------------

    async def run(self, resumed: bool, grace_s: float) -> None:
        self.hub.open(self.spec.id)
        if self.state.is_over():
            # Every move is logged; only the finish was lost: it needs no bot.
            await self.store.mark_running(self.spec.id, self.fence, self.forced_at_start)
            await self._finish()
            return
        remote = self.remote_bots
        if remote and not await self.router.lease(
            remote, self.game.id, grace_s, holder=self.spec.id
        ):
            await self._void(await self._absent(grace_s))
            return
        metrics.LIVE_MATCHES.inc()
        try:
            await self.store.mark_running(self.spec.id, self.fence, self.forced_at_start)
            if resumed:
                await self._record_fault(
                    FaultRecord(
                        self.ply,
                        -1,
                        "restart",
                        INFRASTRUCTURE,
                        f"hosted again (fencing number {self.fence}) after its arbiter stopped;"
                        f" resumed from its log at decision {self.ply}",
                    )
                )
            self._announce_start(resumed)
            while not self.state.is_over():
                await self._step()
            await self._finish()
        except Fenced:
            self.lost = True
            raise
        finally:
            metrics.LIVE_MATCHES.dec()
            if remote and not self.lost:
                await self.router.release(remote, holder=self.spec.id)

    async def _step(self) -> None:
        """One step: every awaited seat is asked at once from the same state (a simultaneous
        step really is simultaneous: each seat under its own clock, no request carrying
        another's answer), then the answers are applied and logged in seat order."""
        asked = step(self.state)
        if len(asked) == 1:  # the usual step: no task or gather for a single seat
            (only,) = asked
            decisions = [await self._decide(only.seat, only.observation, only.legal, self.ply)]
        else:
            decisions = await asyncio.gather(
                *(
                    self._decide(a.seat, a.observation, a.legal, self.ply + k)
                    for k, a in enumerate(asked)
                )
            )
        records = [
            await self._apply(a.seat, decision)
            for a, decision in zip(asked, decisions, strict=True)
        ]
        await self.store.append_step(self.spec.id, self.fence, records)
        for record, decision in zip(records, decisions, strict=True):
            await self.hub.publish(
                self.spec.id,
                MoveEvent(
                    record.ply,
                    record.seat,
                    decision.move,
                    decision.defaulted,
                    decision.elapsed_ms,
                    record.forced,
                ),
            )

    async def _apply(self, seat: int, decision: Decision) -> MoveRecord:
        """Count, charge and apply one decision (recording its fault); its log record."""
        counter = self._decided.get(decision.result)
        if counter is None:
            counter = self._decided[decision.result] = metrics.DECISIONS.labels(
                self.game.id, decision.result
            )
        counter.inc()
        self._charge(seat, decision.elapsed_ms)
        if decision.fault is not None:
            await self._record_fault(decision.fault)
        self.state.apply(seat, decision.move)
        record = MoveRecord(
            self.ply,
            seat,
            self.game.encode_move(decision.move),
            decision.defaulted,
            decision.elapsed_ms,
            self.game.encode_forced(self.state.forced_moves()),
            decision.note,
        )
        self.ply += 1
        return record

    async def _decide(
        self, seat: int, observation: Any, legal: tuple[Any, ...], ply: int
    ) -> Decision:
        player = self.spec.seats[seat]
        if self.clocks[seat].forfeited:
            return Decision(legal[0], 0, defaulted=True, result="forfeited")
        if player.builtin is not None:
            move = await builtins.choose(
                self.game.id,
                player.builtin,
                self.spec.seed,
                seat,
                ply,
                observation,
                legal,
                self.state,
            )
            return Decision(move, 0, result="builtin")
        assert player.bot_id is not None
        return await self._ask(seat, player.bot_id, observation, legal, ply)

    async def _ask(
        self, seat: int, bot_id: int, observation: Any, legal: tuple[Any, ...], ply: int
    ) -> Decision:
        clock = self.clocks[seat]
        limit_ms = self.spec.move_time_ms + clock.bank_ms
        request_id = self.router.new_request_id(self.spec.id)
        request = decision_request_bytes(
            self.game,
            observation,
            legal,
            request_id=request_id,
            match_id=self.spec.id,
            game=self.game.id,
            seat=seat,
            decision_number=ply,
            deadline_unix_ms=int(time.time() * 1000) + limit_ms,
            move_time_ms=self.spec.move_time_ms,
            time_bank_ms=clock.bank_ms,
            last_round_trip_ms=-(-clock.last_round_trip_us // 1000),
            last_round_trip_us=clock.last_round_trip_us,
        )
        started = time.monotonic()
        outgoing = Request(request_id, request)
        try:
            answer = await self.router.ask(bot_id, self.game.id, outgoing, limit_ms / 1000)
        except TimeoutError:
            metrics.TIMEOUTS.labels(self.game.id).inc()
            detail = f"no answer within {limit_ms} ms"
            return self._fault(seat, legal, ply, limit_ms, "timeout", detail)
        except Disconnected as error:
            if error.infrastructure:
                return self._infrastructure_fault(seat, legal, ply, str(error))
            elapsed = int((time.monotonic() - started) * 1000)
            return self._fault(seat, legal, ply, elapsed, "disconnect", str(error))
        # From the request's write on this arbiter's stream (the clock's start, docs/protocol.md),
        # or from the ask where another arbiter holds the stream.
        seconds = time.monotonic() - (outgoing.sent_at or started)
        elapsed = int(seconds * 1000)
        self._latency.observe(seconds)
        clock.last_round_trip_us = max(1, int(seconds * 1_000_000))
        try:
            move = self._read_answer(seat, answer, legal)
            size = len(answer.note.encode())
            if size > MAX_NOTE_BYTES:
                raise MalformedMove(seat, None, f"a note of {size} bytes; at most {MAX_NOTE_BYTES}")
            if "\x00" in answer.note:
                # PostgreSQL's text holds no NUL: stored, it would fail the move's write.
                raise MalformedMove(seat, None, "a note with a NUL character")
        except (IllegalMove, MalformedMove) as error:
            metrics.ILLEGAL.labels(self.game.id).inc()
            kind = "illegal" if isinstance(error, IllegalMove) else "malformed"
            reason = _capped(error.reason)
            self._refuse(bot_id, answer.request_id, f"{kind}: {reason}")
            return self._fault(seat, legal, ply, elapsed, kind, reason)
        return Decision(move, elapsed, note=answer.note or None)

    def _read_answer(
        self, seat: int, answer: bot_gateway_pb2.DecisionAnswer, legal: tuple[Any, ...]
    ) -> Any:
        choice = answer.WhichOneof("choice")
        if choice == "legal_move_index":
            index = answer.legal_move_index
            if index >= len(legal):
                raise IllegalMove(seat, index, f"index {index} of {len(legal)} moves")
            return legal[index]
        if choice == "move":
            move = move_from_wire(self.game, answer.move, seat)
            if move not in legal:
                raise IllegalMove(seat, move, f"{to_plain(move)} is not legal now")
            return move
        raise MalformedMove(seat, None, "the answer has neither an index nor a move")

    def _fault(
        self, seat: int, legal: tuple[Any, ...], ply: int, elapsed_ms: int, kind: str, detail: str
    ) -> Decision:
        """The seat's default move, with a strike against the bot."""
        fault = FaultRecord(ply, seat, kind, BOT, detail)
        return Decision(legal[0], elapsed_ms, defaulted=True, fault=fault, result=kind)

    @staticmethod
    def _infrastructure_fault(seat: int, legal: tuple[Any, ...], ply: int, detail: str) -> Decision:
        """The seat's default move when Premiere itself failed to reach the bot: recorded as
        the infrastructure's fault, with no strike and no time charged to the seat."""
        fault = FaultRecord(ply, seat, "unreachable", INFRASTRUCTURE, detail)
        return Decision(legal[0], 0, defaulted=True, fault=fault, result="unreachable")

    def _refuse(self, bot_id: int, request_id: str, reason: str) -> None:
        refused = bot_gateway_pb2.AnswerRefused(request_id=request_id, reason=reason)
        self.router.broadcast(bot_id, bot_gateway_pb2.ConnectResponse(refused=refused))

    async def _record_fault(self, fault: FaultRecord) -> None:
        await self.store.append_fault(self.spec.id, self.fence, fault)
        self._count_fault(fault)
        if fault.blame == BOT and fault.seat >= 0:
            metrics.STRIKES.labels(fault.kind).inc()
            if self._count_strike(fault.seat):
                metrics.FORFEITS.labels(self.game.id).inc()
        await self.hub.publish(self.spec.id, FaultEvent(fault))

    # --- start and end -------------------------------------------------------------------

    def _announce_start(self, resumed: bool) -> None:
        names = [seat.label for seat in self.spec.seats]
        for seat, player in enumerate(self.spec.seats):
            if player.bot_id is None:
                continue
            self.router.broadcast(
                player.bot_id,
                bot_gateway_pb2.ConnectResponse(
                    match_started=bot_gateway_pb2.MatchStarted(
                        match_id=self.spec.id,
                        game=self.game.id,
                        seat=seat,
                        players=self.spec.players,
                        options=options_as_text(self.spec.options),
                        seat_names=names,
                        resumed=resumed,
                        game_data_digest=game_data(self.game.id).digest,
                    )
                ),
            )

    def final_outcome(self) -> Outcome:
        outcome = self.state.outcome()
        assert outcome is not None
        gone = [seat for seat, clock in enumerate(self.clocks) if clock.forfeited]
        return outcome.with_forfeits(gone)

    async def _finish(self) -> None:
        outcome = to_plain(self.final_outcome())
        assert isinstance(outcome, dict)
        finished = await self.store.finish(
            self.spec.id,
            self.fence,
            outcome,
            [c.strikes for c in self.clocks],
            [c.forfeited for c in self.clocks],
        )
        if not finished:
            row = await self.store.match(self.spec.id)
            status = row["status"] if row is not None else "gone"
            if status != "finished":
                log.warning("match %s was %s before it could finish", self.spec.id, status)
                reason = (row or {}).get("void_reason") or f"the match is {status}"
                self._announce_end(void_reason=reason)
                await self._close_events(status)
                return
        metrics.MATCHES_FINISHED.labels(self.game.id, "finished").inc()
        self._announce_end(outcome=outcome_to_wire(outcome))
        await self._close_events("finished")

    async def void(self, reason: str) -> None:
        """End the match without a result, telling its bots and watchers why."""
        await self._void(reason)

    async def _void(self, reason: str) -> None:
        log.warning("voiding match %s: %s", self.spec.id, reason)
        await self.store.void(self.spec.id, reason, self.fence)
        metrics.MATCHES_FINISHED.labels(self.game.id, "void").inc()
        self._announce_end(void_reason=reason)
        await self._close_events("void")

    def _announce_end(self, **result: Any) -> None:
        """MatchEnded to every remote seat: with `outcome`, or with a `void_reason`; and the
        seat's own faults."""
        for seat, player in enumerate(self.spec.seats):
            if player.bot_id is not None:
                ended = bot_gateway_pb2.MatchEnded(
                    match_id=self.spec.id,
                    seat=seat,
                    faults=bot_gateway_pb2.SeatFaults(by_kind=self.clocks[seat].faults),
                    **result,
                )
                self.router.broadcast(
                    player.bot_id, bot_gateway_pb2.ConnectResponse(match_ended=ended)
                )

    async def _close_events(self, status: str) -> None:
        await self.hub.publish(self.spec.id, EndEvent(status))
        await self.hub.close(self.spec.id)
