"""Celery tasks. Each takes ids, re-reads state, and is safe to run twice or concurrently.

`tick` (from beat) is the reconciler: it opens due rounds and enqueues whatever step is
missing, so a task lost with a killed worker is simply done again a tick later. The workers never
rate a match: the ladder rates every finished match from its own queue, in finish order.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import grpc
from celery import signals

from games.interface import options_as_text
from premiere.admission import SeatStanding, judge
from premiere_wire import match_pb2
from workers import database, gate, leagues
from workers.app import TICK_SECONDS, app
from workers.client import matches
from workers.config import WorkerSettings
from workers.metrics import DISPATCHED, ROUND_SECONDS, TASKS
from workers.standing import Policy

log = logging.getLogger("premiere.workers")

RETRY = {
    "autoretry_for": (Exception,),
    "retry_backoff": 1,
    "retry_backoff_max": 30,
    "retry_jitter": True,
    "max_retries": 20,
}


def _settings() -> WorkerSettings:
    return WorkerSettings()


def _policy(settings: WorkerSettings) -> Policy:
    return Policy(
        matches=settings.validation_matches,
        window=settings.probation_window,
        threshold=settings.probation_threshold,
        recover=settings.probation_recover,
    )


@app.task(name="workers.tasks.tick", expires=max(TICK_SECONDS * 2, 5), **RETRY)
def tick() -> None:
    settings = _settings()
    now = datetime.now(UTC)
    with database.connection(settings.database_url) as conn:
        for league in leagues.list_leagues(conn, active_only=True):
            number = leagues.open_round(conn, league.id, now)
            if number is not None:
                log.info("league %s: round %d opened", league.name, number)
        for league_id, number in leagues.rounds_to_plan(conn):
            open_round.delay(league_id, number)
        for league_id, number, table_no in leagues.tables_to_dispatch(conn):
            dispatch_table.delay(league_id, number, table_no)
        collect.delay()
    standing.delay()


@app.task(name="workers.tasks.standing", expires=max(TICK_SECONDS * 2, 5), **RETRY)
def standing() -> None:
    """The validation gate and probation: admit new bots, plan and dispatch their validation
    matches, notice ended ones, and settle what can be settled."""
    settings = _settings()
    policy = _policy(settings)
    with database.connection(settings.database_url) as conn:
        for bot in gate.admit_new(conn, policy):
            log.info("bot %s admitted", bot)
        gate.plan_validation(conn, policy)
        for bot, game, number in gate.validation_to_dispatch(conn):
            dispatch_validation.delay(bot, game, number)
        gate.collect_validation(conn)
        for bot, change in gate.decide(conn, policy):
            log.info("bot %s: %s", bot, change.kind)


def _unknown(name: str) -> SeatStanding:
    """A seat nobody is registered under: the arbiter refuses the table itself."""
    return SeatStanding(name, name, None)


def _create_match(settings: WorkerSettings, request: match_pb2.CreateMatchRequest) -> str:
    credentials = (("authorization", f"Bearer {settings.operator_token or ''}"),)
    reply = matches(settings).CreateMatch(request, timeout=30, metadata=credentials)
    return str(reply.match_id)


def _add_seats(request: match_pb2.CreateMatchRequest, seats: list[str]) -> None:
    for seat in seats:
        if seat.startswith("builtin:"):
            request.seats.add(builtin=seat.removeprefix("builtin:"))
        else:
            request.seats.add(bot=seat)


@app.task(name="workers.tasks.dispatch_validation", **RETRY)
def dispatch_validation(bot: str, game: str, number: int) -> None:
    """Create one unrated validation match on a seed the arbiter draws; the idempotency key
    makes a retry harmless."""
    settings = _settings()
    with database.connection(settings.database_url) as conn:
        seats = gate.validation_request(conn, bot, game, number)
        if seats is None:
            return
        request = match_pb2.CreateMatchRequest(
            game=game,
            idempotency_key=f"validation:{bot}:{game}:{number}",
            rated=False,
            validation=True,
        )
        _add_seats(request, seats)
        try:
            match_id: str | None = _create_match(settings, request)
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.INVALID_ARGUMENT:
                raise
            log.error("validation of %s in %s refused: %s", bot, game, error.details())
            match_id = None
        gate.mark_validation_dispatched(conn, bot, game, number, match_id)


@app.task(name="workers.tasks.open_round", **RETRY)
def open_round(league_id: int, number: int) -> None:
    """Plan the round's tables (once) and dispatch each."""
    with database.connection(_settings().database_url) as conn:
        tables = leagues.plan_round(conn, league_id, number)
    for table_no in range(len(tables)):
        dispatch_table.delay(league_id, number, table_no)


@app.task(name="workers.tasks.dispatch_table", **RETRY)
def dispatch_table(league_id: int, number: int, table_no: int) -> None:
    """Create the table's match on the arbiter; the idempotency key makes a retry harmless."""
    settings = _settings()
    with database.connection(settings.database_url) as conn:
        found = leagues.table_request(conn, league_id, number, table_no)
        if found is None:
            return
        league, table = found
        policy = _policy(settings)
        if any(state is None for state in gate.resolve_seats(conn, table["seats"]).values()):
            gate.admit_new(conn, policy)
        # The one gate (premiere.admission): refused tables are not played; a rated league's
        # table is rated only if every registered seat is in rated play in this game and no
        # owner sits twice (docs/ratings.md, "Validation and probation").
        standings = gate.seat_standings(conn, table["seats"])
        verdict = judge(
            league.game,
            [
                None if seat.startswith("builtin:") else standings.get(seat, _unknown(seat))
                for seat in table["seats"]
            ],
            rated=league.rated,
            allow_same_owner=league.allow_same_owner,
        )
        if verdict.refused is not None:
            log.info(
                "league %s round %d table %d not played: %s",
                league.name,
                number,
                table_no,
                verdict.refused,
            )
            leagues.record_refusal(conn, league_id, number, table_no)
            return
        rated = verdict.rated
        request = match_pb2.CreateMatchRequest(
            game=league.game,
            options=options_as_text(league.options),
            seed=table["seed"],
            idempotency_key=leagues.idempotency_key(league_id, number, table_no),
            rated=rated,
            unrated_reason=verdict.unrated_reason or "",
        )
        _add_seats(request, list(table["seats"]))
        request.deal_tables = max(1, int(table["deal_tables"] or 1))
        request.time_control.move_time_ms = league.move_time_ms
        request.time_control.time_bank_ms = league.time_bank_ms
        try:
            match_id = _create_match(settings, request)
        except grpc.RpcError as error:
            if error.code() == grpc.StatusCode.INVALID_ARGUMENT:
                log.error(
                    "league %s round %d table %d refused: %s",
                    league.name,
                    number,
                    table_no,
                    error.details(),
                )
                leagues.record_refusal(conn, league_id, number, table_no)
                return
            raise
        if leagues.record_dispatch(conn, league_id, number, table_no, match_id):
            DISPATCHED.inc()


@app.task(name="workers.tasks.collect", expires=max(TICK_SECONDS * 2, 5), **RETRY)
def collect() -> None:
    """Notice ended matches (nothing waits on a running match) and close finished rounds."""
    with database.connection(_settings().database_url) as conn:
        if leagues.collect(conn):
            # A duplicate group's next table may start now that its sibling ended.
            for league_id, number, table_no in leagues.tables_to_dispatch(conn):
                dispatch_table.delay(league_id, number, table_no)
        for league_id, number in leagues.rounds_to_close(conn):
            close_round.delay(league_id, number)


@app.task(name="workers.tasks.close_round", **RETRY)
def close_round(league_id: int, number: int) -> None:
    settings = _settings()
    with database.connection(settings.database_url) as conn:
        took = leagues.close_round(conn, league_id, number)
        if took is None:
            return
        ROUND_SECONDS.observe(took)
        league = leagues.get_league(conn, league_id)
        if league is not None and league.status == "active":
            next_number = leagues.open_round(conn, league_id, datetime.now(UTC))
            if next_number is not None:
                open_round.delay(league_id, next_number)


@signals.task_postrun.connect
def _count_task(task: Any = None, state: str | None = None, **_: Any) -> None:
    if task is not None:
        TASKS.labels(task.name.rsplit(".", 1)[-1], state or "UNKNOWN").inc()


@signals.task_retry.connect
def _count_retry(sender: Any = None, **_: Any) -> None:
    if sender is not None:
        TASKS.labels(sender.name.rsplit(".", 1)[-1], "RETRY").inc()
