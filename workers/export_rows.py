"""One exported match: the record of the bulk export (``premiere export``, the monthly files,
the web process's export stream), shaped from a row of the ``ended_match_records`` view.

Pure functions, no I/O: ``record`` makes the record every format shares (the NDJSON line is it,
as JSON), ``parquet_row`` the same record with each game's own values (options, moves, forced
moves, tie-breaks) as JSON text, for the fixed columns of ``PARQUET_COLUMNS``. What a record
holds is what the replay of an ended match shows, nothing more (docs/research.md, "Export"):
the view has no running match and no match whose deal a duplicate table still plays.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping, Sequence
from typing import Any

SCHEMA_VERSION = 1
"""Bumped whenever a field is added, removed or changes meaning (docs/research.md lists each
field with the version it came in)."""

FORMATS = ("parquet", "ndjson.zst")
"""The file formats, by their file name ending."""

PARQUET_COLUMNS: tuple[tuple[str, str], ...] = (
    ("schema_version", "int16"),
    ("match_id", "string"),
    ("game", "string"),
    ("ended_at", "timestamp[us, UTC]"),
    ("options", "string: JSON object"),
    ("players", "list<struct<seat: int32, name: string, bot: string, version: string>>"),
    ("seed", "string"),
    (
        "moves",
        "list<struct<ply: int32, seat: int32, move: string (JSON), defaulted: bool,"
        " forced: string (JSON, null: not kept), note: string>>",
    ),
    ("forced_at_start", "string (JSON, null: not kept)"),
    (
        "result",
        "struct<scores: list<int32>, ranks: list<int32>, forfeited: list<int32>,"
        " tiebreaks: string (JSON)>, null for a match voided before its end",
    ),
    ("rated", "bool"),
    ("rating_changes", "list<struct<seat: int32, before: double, after: double, delta: double>>"),
    ("voided", "bool"),
    ("void_reason", "string"),
)
"""The Parquet columns and their types, as ``workers.exports.arrow_schema`` builds them."""


def record(row: Mapping[str, Any]) -> dict[str, Any]:
    """The export record of one ``ended_match_records`` row (with ``ratings``, the match's
    ``rating_changes`` rows as a JSON array)."""
    outcome = row["outcome"]
    ratings = sorted(row.get("ratings") or [], key=lambda change: int(change["seat"]))
    return {
        "schema_version": SCHEMA_VERSION,
        "match_id": str(row["id"]),
        "game": row["game"],
        "ended_at": _utc(row["ended_at"]).isoformat(),
        "options": dict(row["options"] or {}),
        "players": [
            {
                "seat": int(seat["seat"]),
                "name": seat["name"],
                "bot": seat["bot"],
                "version": seat.get("version"),
            }
            for seat in sorted(row["seats"] or [], key=lambda seat: int(seat["seat"]))
        ],
        "seed": row["seed"],
        "moves": [_move(logged) for logged in row["moves"] or []],
        "forced_at_start": row["forced_at_start"],
        "result": _result(outcome),
        "rated": bool(ratings),
        "rating_changes": [
            {
                "seat": int(change["seat"]),
                "before": float(change["before"]),
                "after": float(change["after"]),
                "delta": float(change["delta"]),
            }
            for change in ratings
        ],
        "voided": row["status"] == "void",
        "void_reason": (row["void_reason"] or "voided") if row["status"] == "void" else None,
    }


def _move(logged: Sequence[Any]) -> dict[str, Any]:
    """A logged move, ``[ply, seat, move, defaulted, forced, note]``, in the engine's own
    notation (``Game.encode_move``, which ``Game.decode_move`` reads back), with the note as
    an ended replay shows it (an empty note is none)."""
    ply, seat, move, defaulted, forced, note = logged
    return {
        "ply": int(ply),
        "seat": int(seat),
        "move": move,
        "defaulted": bool(defaulted),
        "forced": forced,
        "note": note or None,
    }


def _result(outcome: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not outcome:
        return None
    return {
        "scores": [int(score) for score in outcome.get("scores") or []],
        "ranks": [int(rank) for rank in outcome.get("ranks") or []],
        "forfeited": [int(seat) for seat in outcome.get("forfeited") or []],
        "tiebreaks": list(outcome.get("tiebreaks") or []),
    }


def _utc(value: datetime.datetime) -> datetime.datetime:
    return value.astimezone(datetime.UTC)


def json_line(exported: Mapping[str, Any]) -> bytes:
    """The record as one NDJSON line (compact, keys in record order, UTF-8)."""
    return json.dumps(exported, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def _text(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"), sort_keys=True)


def parquet_row(exported: Mapping[str, Any]) -> dict[str, Any]:
    """The record for the Parquet columns: each game's own values as JSON text."""
    result = exported["result"]
    return {
        **exported,
        "ended_at": datetime.datetime.fromisoformat(exported["ended_at"]),
        "options": _text(exported["options"]),
        "moves": [
            {**move, "move": _text(move["move"]), "forced": _text(move["forced"])}
            for move in exported["moves"]
        ],
        "forced_at_start": _text(exported["forced_at_start"]),
        "result": None if result is None else {**result, "tiebreaks": _text(result["tiebreaks"])},
    }


def month_span(month: str) -> tuple[datetime.datetime, datetime.datetime]:
    """``"2026-11"`` -> its first instant and the next month's, in UTC."""
    try:
        start = datetime.datetime.strptime(month, "%Y-%m").replace(tzinfo=datetime.UTC)
    except ValueError:
        raise ValueError(f"not a month (YYYY-MM): {month!r}") from None
    return start, _next_month(start)


def _next_month(start: datetime.datetime) -> datetime.datetime:
    return start.replace(year=start.year + start.month // 12, month=start.month % 12 + 1)


def previous_month(now: datetime.datetime) -> str:
    """The last month that has ended at ``now``, as ``YYYY-MM``."""
    now = _utc(now)
    first = now.replace(day=1)
    last = first - datetime.timedelta(days=1)
    return f"{last.year:04d}-{last.month:02d}"


def file_name(game: str, month: str, fmt: str) -> str:
    """A monthly file's name: ``premiere_<game>_<YYYY-MM>.<format>``."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}; choose from {', '.join(FORMATS)}")
    return f"premiere_{game}_{month}.{fmt}"


def parse_instant(text: str) -> datetime.datetime:
    """A date (``2026-11-01``: its midnight) or an ISO 8601 time, in UTC when it names no
    zone."""
    try:
        found = datetime.datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"not an ISO date or time: {text[:64]!r}") from None
    if found.tzinfo is None:
        found = found.replace(tzinfo=datetime.UTC)
    return found.astimezone(datetime.UTC)
