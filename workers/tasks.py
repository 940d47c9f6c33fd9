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

from premiere_wire import match_pb2
from workers import database, events, exports, gate, leagues
from workers.app import TICK_SECONDS, app
from workers.client import matches
from workers.config import WorkerSettings
from workers.dispatch import add_seats, by_round, dispatch, operator_metadata
from workers.metrics import ROUND_SECONDS, TASKS
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
        for event, happened in events.advance(conn, now):
            log.info("event %s: %s", event, happened)
        for league in leagues.list_leagues(conn, active_only=True):
            number = leagues.open_round(conn, league.id, now)
            if number is not None:
                log.info("league %s: round %d opened", league.name, number)
        for league_id, number in leagues.rounds_to_plan(conn):
            open_round.delay(league_id, number)
        for (league_id, number), table_nos in by_round(leagues.tables_to_dispatch(conn)).items():
            dispatch_round.delay(league_id, number, table_nos)
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


def _create_match(settings: WorkerSettings, request: match_pb2.CreateMatchRequest) -> str:
    reply = matches(settings).CreateMatch(request, timeout=30, metadata=operator_metadata(settings))
    return str(reply.match_id)


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
        add_seats(request, seats)
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
    """Plan the round's tables (once) and dispatch them together, in this task: queued as a
    task of its own, the dispatch would wait behind whatever the tick queued meanwhile."""
    settings = _settings()
    with database.connection(settings.database_url) as conn:
        tables = leagues.plan_round(conn, league_id, number)
        dispatch(conn, settings, _policy(settings), league_id, number, range(len(tables)))


@app.task(name="workers.tasks.dispatch_round", **RETRY)
def dispatch_round(league_id: int, number: int, table_nos: list[int]) -> None:
    """Create the matches of those of the round's tables that still wait for one, in one call
    to the arbiter (``workers.dispatch``); the tables' idempotency keys make a retry harmless."""
    settings = _settings()
    with database.connection(settings.database_url) as conn:
        dispatch(conn, settings, _policy(settings), league_id, number, table_nos)


@app.task(name="workers.tasks.dispatch_table", **RETRY)
def dispatch_table(league_id: int, number: int, table_no: int) -> None:
    """One table, as ``dispatch_round`` dispatches a round's (for messages queued by name)."""
    dispatch_round(league_id, number, [table_no])


@app.task(name="workers.tasks.collect", expires=max(TICK_SECONDS * 2, 5), **RETRY)
def collect() -> None:
    """Notice ended matches (nothing waits on a running match) and close finished rounds."""
    with database.connection(_settings().database_url) as conn:
        if leagues.collect(conn):
            # A duplicate group's next table may start now that its sibling ended.
            tables = by_round(leagues.tables_to_dispatch(conn))
            for (league_id, number), table_nos in tables.items():
                dispatch_round.delay(league_id, number, table_nos)
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


@app.task(name="workers.tasks.export_month", expires=600, time_limit=3600, soft_time_limit=3500)
def export_month(month: str | None = None) -> list[str]:
    """Write each game's export files of ``month`` (default: the last month that has ended)
    into PREMIERE_EXPORT_DIR, once (``workers.exports``); returns the files written."""
    from pathlib import Path

    import games

    settings = _settings()
    now = datetime.now(UTC)
    folder = Path(settings.export_dir)
    with database.connection(settings.database_url) as conn:
        if month is None:
            written = exports.export_previous_month(conn, folder, games.ids(), now)
        else:
            written = exports.export_month(conn, folder, games.ids(), month, now)
    for item in written:
        log.info("export %s: %d matches, %d bytes", item.file, item.matches, item.bytes)
    return [item.file for item in written]


@signals.task_postrun.connect
def _count_task(task: Any = None, state: str | None = None, **_: Any) -> None:
    if task is not None:
        TASKS.labels(task.name.rsplit(".", 1)[-1], state or "UNKNOWN").inc()


@signals.task_retry.connect
def _count_retry(sender: Any = None, **_: Any) -> None:
    if sender is not None:
        TASKS.labels(sender.name.rsplit(".", 1)[-1], "RETRY").inc()
