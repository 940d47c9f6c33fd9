"""The export record's pure shaping (``workers.export_rows``): a database row in, the record
out; the months and instants the files and the stream are bounded by."""

from __future__ import annotations

import datetime
import json
import uuid

import pytest

from workers.export_rows import (
    SCHEMA_VERSION,
    file_name,
    json_line,
    month_span,
    parquet_row,
    parse_instant,
    previous_month,
    record,
)

UTC = datetime.UTC


def _row(**changes: object) -> dict[str, object]:
    row: dict[str, object] = {
        "id": uuid.UUID(int=7),
        "game": "movie-tricks",
        "options": {"family": True},
        "seed": "s33d",
        "status": "finished",
        "void_reason": None,
        "outcome": {"scores": [3, 5], "ranks": [2, 1], "forfeited": [], "tiebreaks": []},
        "ended_at": datetime.datetime(2026, 11, 30, 23, 59, tzinfo=datetime.timezone.max),
        "forced_at_start": None,
        "seats": [
            {"seat": 1, "name": "builtin:random", "bot": "builtin:random", "version": None},
            {"seat": 0, "name": "ada@2", "bot": "ada", "version": "2"},
        ],
        "moves": [
            [0, 0, {"kind": "play", "card": "a"}, False, None, ""],
            [1, 1, {"kind": "play", "card": "b"}, True, [{"seat": 0, "move": {}}], "plan 1"],
        ],
        "ratings": [
            {"seat": 1, "before": 1500, "after": 1490.5, "delta": -9.5},
            {"seat": 0, "before": 1500, "after": 1509.5, "delta": 9.5},
        ],
    }
    return row | changes


def test_a_rated_finished_match() -> None:
    shaped = record(_row())
    assert shaped["schema_version"] == SCHEMA_VERSION
    assert shaped["match_id"] == str(uuid.UUID(int=7))
    assert shaped["ended_at"] == "2026-11-30T00:00:00+00:00"
    assert [p["name"] for p in shaped["players"]] == ["ada@2", "builtin:random"]
    assert shaped["moves"][0]["note"] is None, "an empty note is none, as a replay shows it"
    assert shaped["moves"][1] == {
        "ply": 1,
        "seat": 1,
        "move": {"kind": "play", "card": "b"},
        "defaulted": True,
        "forced": [{"seat": 0, "move": {}}],
        "note": "plan 1",
    }
    assert shaped["result"] == {"scores": [3, 5], "ranks": [2, 1], "forfeited": [], "tiebreaks": []}
    assert shaped["rated"] and [c["seat"] for c in shaped["rating_changes"]] == [0, 1]
    assert not shaped["voided"] and shaped["void_reason"] is None
    assert json.loads(json_line(shaped)) == shaped


def test_a_match_voided_before_its_end() -> None:
    shaped = record(
        _row(status="void", void_reason="arbiter lost", outcome=None, ratings=None, moves=None)
    )
    assert shaped["voided"] and shaped["void_reason"] == "arbiter lost"
    assert shaped["result"] is None and shaped["moves"] == []
    assert not shaped["rated"] and shaped["rating_changes"] == []
    assert parquet_row(shaped)["result"] is None


def test_parquet_rows_hold_each_games_values_as_json_text() -> None:
    row = parquet_row(record(_row()))
    assert row["options"] == '{"family":true}'
    assert json.loads(row["moves"][1]["move"]) == {"kind": "play", "card": "b"}
    assert row["moves"][0]["forced"] is None and row["forced_at_start"] is None
    assert row["result"]["tiebreaks"] == "[]"
    assert row["ended_at"] == datetime.datetime(2026, 11, 30, tzinfo=UTC)


def test_months_and_instants() -> None:
    assert month_span("2026-12") == (
        datetime.datetime(2026, 12, 1, tzinfo=UTC),
        datetime.datetime(2027, 1, 1, tzinfo=UTC),
    )
    assert previous_month(datetime.datetime(2027, 1, 1, 0, 0, 1, tzinfo=UTC)) == "2026-12"
    assert previous_month(datetime.datetime(2026, 3, 31, 23, 0, tzinfo=UTC)) == "2026-02"
    assert parse_instant("2026-11-05") == datetime.datetime(2026, 11, 5, tzinfo=UTC)
    assert parse_instant("2026-11-05T02:00+02:00") == datetime.datetime(2026, 11, 5, tzinfo=UTC)
    assert (
        file_name("magic-trick", "2026-11", "ndjson.zst")
        == "premiere_magic-trick_2026-11.ndjson.zst"
    )
    for bad in ("yesterday", "2026-13-01", ""):
        with pytest.raises(ValueError):
            parse_instant(bad)
    with pytest.raises(ValueError):
        month_span("2026-1x")
    with pytest.raises(ValueError):
        file_name("magic-trick", "2026-11", "csv")
