"""Matches of a bot against the built-in bots in this process: Premiere's own engines
(`games`, from the `local` extra), the arbiter's clock and fault rules, and the very wire
messages the arbiter would send, so what passes here passes on the ladder.

This and `premiere_bot.openspiel` (OpenSpiel policies) are the SDK modules that import the
engines.
"""

from __future__ import annotations

import asyncio
import inspect
import statistics
import time
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

try:
    import games
    from games.bots import bot_names, builtin_choice
    from games.interface import Game, parse_options
    from games.play import step
    from premiere.game_data import game_data
except ImportError as error:  # pragma: no cover - exercised without the extra installed
    raise ImportError(
        "premiere-bot try and check play Premiere's engines in-process: install them with"
        " `pip install 'premiere-bot[local]'`"
    ) from error

from premiere_bot import entries
from premiere_bot.bot import Bot, answer
from premiere_bot.local_defaults import MOVE_TIME_MS, STRIKE_LIMIT, TIME_BANK_MS
from premiere_wire import bot_gateway_pb2, game_pb2
from premiere_wire.convert import ConversionError, build, fill

FAULTS = ("timeout", "illegal", "malformed", "error")
"""What costs a strike: the arbiter's three, plus `error` (decide raised: the SDK then answers
the first legal move, which costs nothing on the ladder but is worth knowing about)."""


@dataclass(frozen=True)
class Clock:
    move_time_ms: int = MOVE_TIME_MS
    time_bank_ms: int = TIME_BANK_MS
    strike_limit: int = STRIKE_LIMIT


@dataclass
class MatchResult:
    game: str
    players: int
    seat: int
    seed: str
    options: dict[str, Any]
    rank: int
    score: int
    forfeited: bool
    faults: Counter[str] = field(default_factory=Counter)
    details: list[str] = field(default_factory=list)
    decision_ms: list[float] = field(default_factory=list)
    single_legal: int = 0
    simultaneous: int = 0


def game_ids() -> tuple[str, ...]:
    return tuple(games.ids())


def game_options(game_id: str, pairs: Sequence[str]) -> dict[str, Any]:
    """`name=value` strings read against the game's options (ValueError when one is wrong)."""
    return parse_options(games.get(game_id), pairs)


def default_opponents(game_id: str) -> list[str]:
    """Random bots filling the game's smallest table (none when that table is one seat)."""
    return ["random"] * (min(games.get(game_id).player_counts) - 1)


def _field(game_id: str) -> str:
    return game_id.replace("-", "_")


def observation_to_wire(game: Game, observation: Any) -> game_pb2.Observation:
    envelope = game_pb2.Observation()
    fill(getattr(envelope, _field(game.id)), observation)
    return envelope


def move_to_wire(game: Game, move: Any) -> game_pb2.Move:
    envelope = game_pb2.Move()
    fill(getattr(getattr(envelope, _field(game.id)), _field(move.kind)), move)
    return envelope


def move_from_wire(game: Game, envelope: game_pb2.Move) -> Any:
    """The engine move a wire move names, or ValueError saying why it is malformed."""
    if envelope.WhichOneof("game") != _field(game.id):
        raise ValueError(f"not a {game.id} move")
    typed = getattr(envelope, _field(game.id))
    kind = typed.WhichOneof("kind")
    classes = {_field(cls.kind): cls for cls in game.move_types}
    if kind not in classes:
        raise ValueError("no move kind set")
    try:
        return build(classes[kind], getattr(typed, kind))
    except (ConversionError, TypeError) as error:
        raise ValueError(str(error)) from None


class _Seat:
    def __init__(self, clock: Clock) -> None:
        self.bank_ms = clock.time_bank_ms
        self.strikes = 0
        self.forfeited = False
        self.round_trip_us = 0


def play(
    bot: Bot,
    game_id: str,
    opponents: Sequence[str],
    seat: int,
    seed: str,
    options: dict[str, Any] | None = None,
    clock: Clock = Clock(),
    before_decision: Callable[[int], None] | None = None,
) -> MatchResult:
    """One match: `bot` in `seat`, the built-ins named by `opponents` in the other seats in
    order. `before_decision(n)` runs before the bot's n-th decision (the checker uses it to
    announce a reconnect)."""
    game = games.get(game_id)
    players = len(opponents) + 1
    resolved = game.resolve_options(options)
    state = game.new(players, seed, resolved)
    names = list(opponents)
    names.insert(seat, "")
    for name in opponents:
        if name not in bot_names(game):
            raise ValueError(
                f"no built-in bot {name!r} for {game_id}; choose from {bot_names(game)}"
            )
    match_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"premiere-bot-try/{game_id}/{seed}"))
    mine = _Seat(clock)
    result = MatchResult(game_id, players, seat, seed, dict(resolved), 0, 0, False)
    bot.match_started(_started(match_id, game, seat, players, resolved, names, resent=False))
    ply = 0
    loop: asyncio.AbstractEventLoop | None = None
    try:
        while not state.is_over():
            asked = step(state)
            if len(asked) > 1:
                result.simultaneous += any(a.seat == seat for a in asked)
            moves = []
            for k, request in enumerate(asked):
                if request.seat != seat:
                    moves.append(
                        builtin_choice(
                            game,
                            names[request.seat],
                            seed,
                            request.seat,
                            ply + k,
                            request.observation,
                            request.legal,
                            state,
                        )
                    )
                    continue
                if mine.forfeited:
                    moves.append(request.legal[0])
                    continue
                if before_decision is not None:
                    before_decision(len(result.decision_ms))
                result.single_legal += len(request.legal) == 1
                if loop is None and _asynchronous(bot):
                    loop = asyncio.new_event_loop()
                moves.append(
                    _decide(bot, game, match_id, ply + k, request, mine, clock, result, loop)
                )
            for request, move in zip(asked, moves, strict=True):
                state.apply(request.seat, move)
            ply += len(asked)
    finally:
        if loop is not None:
            loop.close()
    outcome = state.outcome()
    assert outcome is not None
    if mine.forfeited:
        outcome = outcome.with_forfeits([seat])
    result.rank = outcome.ranks[seat]
    result.score = outcome.scores[seat]
    result.forfeited = mine.forfeited
    ended = bot_gateway_pb2.MatchEnded(match_id=match_id, seat=seat)
    ended.outcome.scores.extend(outcome.scores)
    ended.outcome.ranks.extend(outcome.ranks)
    ended.outcome.forfeited.extend(outcome.forfeited)
    bot.match_ended(ended)
    return result


def _asynchronous(bot: Bot) -> bool:
    return inspect.iscoroutinefunction(bot.decide_raw) or inspect.iscoroutinefunction(bot.decide)


def _started(
    match_id: str,
    game: Game,
    seat: int,
    players: int,
    options: dict[str, Any],
    names: list[str],
    resent: bool,
) -> bot_gateway_pb2.MatchStarted:
    data = game_data(game.id)
    entries.register(data)
    return bot_gateway_pb2.MatchStarted(
        match_id=match_id,
        game=game.id,
        game_data_digest=data.digest,
        seat=seat,
        players=players,
        options={k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in options.items()},
        seat_names=["you" if not name else f"builtin:{name}" for name in names],
        resent=resent,
    )


def _decide(
    bot: Bot,
    game: Game,
    match_id: str,
    ply: int,
    asked: Any,
    seat: _Seat,
    clock: Clock,
    result: MatchResult,
    loop: asyncio.AbstractEventLoop | None,
) -> Any:
    limit_ms = clock.move_time_ms + seat.bank_ms
    request = bot_gateway_pb2.DecisionRequest(
        request_id=f"{match_id}:local:{ply}",
        match_id=match_id,
        game=game.id,
        seat=asked.seat,
        decision_number=ply,
        deadline_unix_ms=int(time.time() * 1000) + limit_ms,
        move_time_ms=clock.move_time_ms,
        time_bank_ms=seat.bank_ms,
        last_round_trip_ms=-(-seat.round_trip_us // 1000),
        last_round_trip_us=seat.round_trip_us,
        observation=observation_to_wire(game, asked.observation),
        legal_moves=[move_to_wire(game, move) for move in asked.legal],
    )
    started = time.perf_counter()
    try:
        decision = bot.decide_raw(request)
        if inspect.isawaitable(decision):
            assert loop is not None
            decision = loop.run_until_complete(decision)
        reply = answer(request, decision)
    except Exception as error:
        reply = answer(request, 0)
        _fault(result, seat, clock, None, "error", f"decision {ply}: decide raised {error!r}")
    seconds = time.perf_counter() - started
    elapsed_ms = seconds * 1000
    result.decision_ms.append(elapsed_ms)
    seat.round_trip_us = max(1, int(seconds * 1_000_000))
    if elapsed_ms > limit_ms:
        seat.bank_ms = 0
        detail = f"decision {ply}: took {elapsed_ms:.0f} ms, the limit was {limit_ms} ms"
        return _fault(result, seat, clock, asked.legal[0], "timeout", detail)
    seat.bank_ms = max(0, seat.bank_ms - max(0, int(elapsed_ms) - clock.move_time_ms))
    choice = reply.WhichOneof("choice")
    if choice == "legal_move_index":
        if reply.legal_move_index < len(asked.legal):
            return asked.legal[reply.legal_move_index]
        detail = f"decision {ply}: index {reply.legal_move_index} of {len(asked.legal)} moves"
        return _fault(result, seat, clock, asked.legal[0], "illegal", detail)
    try:
        move = move_from_wire(game, reply.move)
    except ValueError as error:
        return _fault(result, seat, clock, asked.legal[0], "malformed", f"decision {ply}: {error}")
    if move not in asked.legal:
        detail = f"decision {ply}: {move} is not legal now"
        return _fault(result, seat, clock, asked.legal[0], "illegal", detail)
    return move


def _fault(
    result: MatchResult, seat: _Seat, clock: Clock, default: Any, kind: str, detail: str
) -> Any:
    result.faults[kind] += 1
    if len(result.details) < 20:
        result.details.append(f"{kind}: {detail}")
    if kind != "error":
        seat.strikes += 1
        if seat.strikes > clock.strike_limit:
            seat.forfeited = True
    return default


@dataclass
class Summary:
    results: list[MatchResult]
    seconds: float

    @property
    def decisions(self) -> list[float]:
        return [ms for r in self.results for ms in r.decision_ms]

    @property
    def faults(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for result in self.results:
            total.update(result.faults)
        return total

    def lines(self) -> list[str]:
        ranks = Counter(r.rank for r in self.results)
        mean_rank = statistics.fmean(r.rank for r in self.results)
        mean_score = statistics.fmean(r.score for r in self.results)
        times = sorted(self.decisions)
        faults = self.faults
        out = [
            f"mean rank {mean_rank:.2f} over {len(self.results)} matches ("
            + ", ".join(f"rank {rank}: {ranks[rank]}" for rank in sorted(ranks))
            + f"); mean score {mean_score:.1f}",
            "illegal moves: {illegal}, malformed answers: {malformed}, timeouts: {timeout},"
            " errors in decide: {error}, forfeits: {forfeits}".format(
                forfeits=sum(r.forfeited for r in self.results), **{k: faults[k] for k in FAULTS}
            ),
        ]
        if times:
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            mean, median = statistics.fmean(times), statistics.median(times)
            out.append(
                f"decision time over {len(times)} decisions: mean {mean:.2f} ms,"
                f" median {median:.2f} ms, p95 {p95:.2f} ms, max {times[-1]:.2f} ms"
            )
        out.append(f"played in {self.seconds:.1f} s")
        return out


def try_bot(
    bot: Bot,
    game_id: str,
    opponents: Sequence[str],
    matches: int,
    seed: str = "try",
    options: dict[str, Any] | None = None,
    clock: Clock = Clock(),
) -> Summary:
    """`matches` matches against `opponents`, the bot's seat rotating through every seat."""
    game = games.get(game_id)
    players = len(opponents) + 1
    if players not in game.player_counts:
        raise ValueError(f"{game_id} is played by {game.player_counts} players, not {players}")
    started = time.perf_counter()
    results = [
        play(bot, game_id, opponents, number % players, f"{seed}-{number}", options, clock)
        for number in range(matches)
    ]
    return Summary(results, time.perf_counter() - started)


@dataclass
class CheckReport:
    lines: list[str]
    problems: int


def check_bot(bot: Bot, seed: str = "check", clock: Clock = Clock()) -> CheckReport:
    """Every game and player count the bot claims against `random`, the bot in every seat and
    every option value played at each count; then a reconnect in mid-match. Reports what would
    cost strikes."""
    claimed = bot.games or tuple(games.ids())
    lines: list[str] = []
    problems = 0
    for game_id in claimed:
        if game_id not in games.ids():
            lines.append(f"{game_id}: unknown game; this version hosts {list(games.ids())}")
            problems += 1
            continue
        game = games.get(game_id)
        variants = _variants(game)
        for players in game.player_counts:
            opponents = ["random"] * (players - 1)
            results: list[MatchResult] = []
            for number in range(max(players, len(variants))):
                seat, options = number % players, variants[number % len(variants)]
                match_seed = f"{seed}-{players}-{number}"
                results.append(_checked(bot, game_id, opponents, seat, match_seed, options, clock))
            faults = Counter[str]()
            for result in results:
                faults.update(result.faults)
            single = sum(r.single_legal for r in results)
            together = sum(r.simultaneous for r in results)
            bad = sum(faults.values())
            problems += bad
            verdict = "ok" if not bad else ", ".join(f"{n} {k}" for k, n in sorted(faults.items()))
            lines.append(
                f"{game_id} {players} player{'s' if players > 1 else ''}: {len(results)} matches,"
                f" {sum(len(r.decision_ms) for r in results)} decisions ({single} with a single"
                f" legal move, {together} in simultaneous steps): {verdict}"
            )
            lines += [f"  {detail}" for r in results for detail in r.details][:5]
        reconnect = _reconnect(bot, game_id, game, clock, seed)
        problems += reconnect is not None
        lines.append(f"{game_id} reconnect in mid-match: {reconnect or 'ok'}")
    lines.append(
        "nothing here would cost a strike" if not problems else f"{problems} problem(s) found"
    )
    return CheckReport(lines, problems)


def _variants(game: Game) -> list[dict[str, Any]]:
    """The defaults, then each other value of each option once."""
    variants: list[dict[str, Any]] = [{}]
    for spec in game.options:
        variants += [{spec.name: value} for value in spec.choices if value != spec.default]
    return variants


def _checked(
    bot: Bot,
    game_id: str,
    opponents: list[str],
    seat: int,
    seed: str,
    options: dict[str, Any],
    clock: Clock,
) -> MatchResult:
    try:
        return play(bot, game_id, opponents, seat, seed, options, clock)
    except Exception as error:  # match_started or match_ended raised
        result = MatchResult(game_id, len(opponents) + 1, seat, seed, options, 0, 0, False)
        result.faults["error"] += 1
        result.details.append(f"error: a callback raised {error!r} (run logs it and goes on)")
        return result


def _reconnect(bot: Bot, game_id: str, game: Game, clock: Clock, seed: str) -> str | None:
    """Midway through a match, announce it again as a reconnect does (`resent`)."""
    players = min(game.player_counts)
    opponents = ["random"] * (players - 1)
    names = ["", *opponents]
    match_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"premiere-bot-try/{game_id}/{seed}-reconnect"))
    resolved = game.resolve_options(None)
    again = _started(match_id, game, 0, players, resolved, names, resent=True)

    def announce(decision: int) -> None:
        if decision == 3:
            bot.match_started(again)

    try:
        result = play(bot, game_id, opponents, 0, f"{seed}-reconnect", None, clock, announce)
    except Exception as error:
        return f"match_started(resent) raised {error!r} (run logs it and goes on)"
    if result.faults:
        return ", ".join(f"{n} {k}" for k, n in sorted(result.faults.items()))
    return None
