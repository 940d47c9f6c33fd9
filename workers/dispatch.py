"""A round's tables onto the arbiter in one call: each table through the one gate
(``premiere.admission.judge``), then every table it lets through in one
``MatchService.CreateMatches``, where each is created exactly as ``CreateMatch`` would create it.

A table the gate refuses, or the arbiter refuses, is recorded void (``leagues.record_refusal``)
so its round can close; a created one is recorded with its match. Each request carries its
table's idempotency key, so a redelivered or retried dispatch returns the matches the first one
created and creates none.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import psycopg

from games.interface import options_as_text
from premiere.admission import SeatStanding, judge
from premiere_wire import match_pb2
from workers import gate, leagues
from workers.client import matches
from workers.config import WorkerSettings
from workers.metrics import DISPATCHED
from workers.standing import Policy

__all__ = ["BATCH_TABLES", "add_seats", "by_round", "dispatch", "operator_metadata"]

log = logging.getLogger("premiere.workers")

Row = dict[str, Any]
Conn = psycopg.Connection[Row]

BATCH_TABLES = 64
"""Tables per CreateMatches call: a round of more goes in several (the arbiter takes 256 at
most, and a call stays far below the arbiter's message size limit)."""


def operator_metadata(settings: WorkerSettings) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {settings.operator_token or ''}"),)


def add_seats(request: match_pb2.CreateMatchRequest, seats: Sequence[str]) -> None:
    for seat in seats:
        if seat.startswith("builtin:"):
            request.seats.add(builtin=seat.removeprefix("builtin:"))
        else:
            request.seats.add(bot=seat)


def by_round(tables: Sequence[tuple[int, int, int]]) -> dict[tuple[int, int], list[int]]:
    """(league, round, table) triples grouped by round, tables in order."""
    grouped: dict[tuple[int, int], list[int]] = {}
    for league_id, number, table_no in tables:
        grouped.setdefault((league_id, number), []).append(table_no)
    return grouped


def _unknown(name: str) -> SeatStanding:
    """A seat nobody is registered under: the arbiter refuses the table itself."""
    return SeatStanding(name, name, None)


def _waiting(
    conn: Conn, league_id: int, number: int, table_nos: Sequence[int]
) -> list[tuple[leagues.League, Row]]:
    """The tables among ``table_nos`` that still wait for their match."""
    return [
        found
        for table_no in table_nos
        if (found := leagues.table_request(conn, league_id, number, table_no)) is not None
    ]


def _admit_unknown_seats(conn: Conn, tables: Sequence[Row], policy: Policy) -> None:
    seats = sorted({seat for table in tables for seat in table["seats"]})
    if any(state is None for state in gate.resolve_seats(conn, seats).values()):
        gate.admit_new(conn, policy)


def _request(conn: Conn, league: leagues.League, table: Row) -> match_pb2.CreateMatchRequest | None:
    """The table's match request, or None when the gate refuses the table (recorded: a rated
    league's table is rated only if every registered seat is in rated play in this game and no
    owner sits twice; docs/ratings.md, "Validation and probation")."""
    number, table_no = table["round"], table["table_no"]
    if league.hosted_only:
        dialling = leagues.not_hosted(conn, table["seats"])
        if dialling:
            # Its author made a dial-in version active since the league was made.
            log.info(
                "league %s round %d table %d not played: %s not hosted (a hosted-only league)",
                league.name,
                number,
                table_no,
                ", ".join(dialling),
            )
            leagues.record_refusal(conn, league.id, number, table_no)
            return None
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
        leagues.record_refusal(conn, league.id, number, table_no)
        return None
    request = match_pb2.CreateMatchRequest(
        game=league.game,
        options=options_as_text(league.options),
        seed=table["seed"],
        idempotency_key=leagues.idempotency_key(league.id, number, table_no),
        rated=verdict.rated,
        unrated_reason=verdict.unrated_reason or "",
        deal_tables=max(1, int(table["deal_tables"] or 1)),
    )
    add_seats(request, list(table["seats"]))
    request.time_control.move_time_ms = league.move_time_ms
    request.time_control.time_bank_ms = league.time_bank_ms
    return request


def _record(
    conn: Conn, league: leagues.League, table: Row, result: match_pb2.CreateMatchResult
) -> None:
    number, table_no = table["round"], table["table_no"]
    if result.WhichOneof("result") != "match_id":
        log.error(
            "league %s round %d table %d refused: %s",
            league.name,
            number,
            table_no,
            result.refused or "no answer for it",
        )
        leagues.record_refusal(conn, league.id, number, table_no)
        return
    if leagues.record_dispatch(conn, league.id, number, table_no, result.match_id):
        DISPATCHED.inc()


def dispatch(
    conn: Conn,
    settings: WorkerSettings,
    policy: Policy,
    league_id: int,
    number: int,
    table_nos: Sequence[int],
) -> int:
    """Create the matches of the round's tables ``table_nos`` that still wait for one, in one
    CreateMatches call per ``BATCH_TABLES`` tables; returns how many tables were sent. An
    error of a call as a whole (the arbiter unreachable, say) raises, for the task to retry."""
    waiting = _waiting(conn, league_id, number, table_nos)
    if not waiting:
        return 0
    _admit_unknown_seats(conn, [table for _, table in waiting], policy)
    sent = [
        (league, table, request)
        for league, table in waiting
        if (request := _request(conn, league, table)) is not None
    ]
    if not sent:
        return 0
    batch = match_pb2.CreateMatchesRequest(matches=[request for _, _, request in sent])
    reply = matches(settings).CreateMatches(batch, timeout=30, metadata=operator_metadata(settings))
    for (league, table, _), result in zip(sent, reply.results, strict=True):
        _record(conn, league, table, result)
    return len(sent)
