"""The bulk export's reading and writing: a game's ended matches streamed from PostgreSQL over a
server-side (named) cursor, written as Parquet or zstd-compressed NDJSON, and the monthly files
with their manifest (docs/research.md, "Export").

Memory stays flat whatever the ladder's size: the cursor brings ``FETCH`` rows at a time, the
NDJSON writer compresses line by line, the Parquet writer holds one row group
(``ROW_GROUP`` matches). Everything is read through the views the arbiter and the ladder
publish for it (``premiere/migrations/0045.exports.sql``): no running match, no sealed deal.

A month's files are written once: when the month has ended, no match that ended in it still
waits for the ladder's rating or for sibling tables of its deal, and the manifest has no entry
for it yet. Files are written under a temporary name and renamed; the manifest is replaced
whole. A PostgreSQL advisory lock keeps two workers from writing at once.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import uuid
from collections.abc import Iterable, Iterator
from contextlib import suppress
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

import psycopg
from psycopg.rows import dict_row

from workers.export_rows import (
    FORMATS,
    SCHEMA_VERSION,
    file_name,
    json_line,
    month_span,
    parquet_row,
    previous_month,
    record,
)

Connection = psycopg.Connection[Any]

FETCH = 200
"""Rows the server-side cursor brings per round trip."""
ROW_GROUP = 1000
"""Matches per Parquet row group: what the Parquet writer holds at most."""
MANIFEST = "manifest.json"
_LOCK = "premiere:exports"

_QUERY = (
    "SELECT e.id, e.game, e.options, e.seed, e.status, e.void_reason, e.outcome, e.ended_at,"
    " e.forced_at_start, e.seats, e.moves,"
    " (SELECT jsonb_agg(jsonb_build_object('seat', r.seat, 'before', r.before,"
    "  'after', r.after, 'delta', r.delta)) FROM rating_changes r WHERE r.match_id = e.id)"
    " AS ratings"
    " FROM ended_match_records e"
    " WHERE e.game = %s AND e.ended_at >= %s AND e.ended_at < %s"
    " ORDER BY e.ended_at, e.id"
)


def records(
    conn: Connection,
    game: str,
    since: datetime.datetime | None = None,
    until: datetime.datetime | None = None,
) -> Iterator[dict[str, Any]]:
    """The export records of ``game``'s ended matches that ended in [since, until), oldest
    first, read over a named cursor in a transaction of their own (close the iterator to end
    it early)."""
    low = since or datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
    high = until or datetime.datetime(9999, 1, 1, tzinfo=datetime.UTC)
    with (
        conn.transaction(),
        conn.cursor(name=f"export_{uuid.uuid4().hex[:12]}", row_factory=dict_row) as cur,
    ):
        cur.itersize = FETCH
        cur.execute(_QUERY, (game, low, high))
        for row in cur:
            yield record(row)


def arrow_schema() -> Any:
    """The Parquet file's schema (``workers.export_rows.PARQUET_COLUMNS`` in words)."""
    import pyarrow as pa

    metadata = {"premiere.schema_version": str(SCHEMA_VERSION)}
    return pa.schema(
        [
            ("schema_version", pa.int16()),
            ("match_id", pa.string()),
            ("game", pa.string()),
            ("ended_at", pa.timestamp("us", tz="UTC")),
            ("options", pa.string()),
            (
                "players",
                pa.list_(
                    pa.struct(
                        [
                            ("seat", pa.int32()),
                            ("name", pa.string()),
                            ("bot", pa.string()),
                            ("version", pa.string()),
                        ]
                    )
                ),
            ),
            ("seed", pa.string()),
            (
                "moves",
                pa.list_(
                    pa.struct(
                        [
                            ("ply", pa.int32()),
                            ("seat", pa.int32()),
                            ("move", pa.string()),
                            ("defaulted", pa.bool_()),
                            ("forced", pa.string()),
                            ("note", pa.string()),
                        ]
                    )
                ),
            ),
            ("forced_at_start", pa.string()),
            (
                "result",
                pa.struct(
                    [
                        ("scores", pa.list_(pa.int32())),
                        ("ranks", pa.list_(pa.int32())),
                        ("forfeited", pa.list_(pa.int32())),
                        ("tiebreaks", pa.string()),
                    ]
                ),
            ),
            ("rated", pa.bool_()),
            (
                "rating_changes",
                pa.list_(
                    pa.struct(
                        [
                            ("seat", pa.int32()),
                            ("before", pa.float64()),
                            ("after", pa.float64()),
                            ("delta", pa.float64()),
                        ]
                    )
                ),
            ),
            ("voided", pa.bool_()),
            ("void_reason", pa.string()),
        ],
        metadata=metadata,
    )


def write_parquet(out: IO[bytes], exported: Iterable[dict[str, Any]]) -> int:
    """Write the records as Parquet (zstd-compressed columns); returns how many."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = arrow_schema()
    count = 0
    with pq.ParquetWriter(out, schema, compression="zstd") as writer:
        batch: list[dict[str, Any]] = []
        for item in exported:
            batch.append(parquet_row(item))
            count += 1
            if len(batch) >= ROW_GROUP:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                batch = []
        if batch or count == 0:
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
    return count


def write_ndjson_zst(out: IO[bytes], exported: Iterable[dict[str, Any]]) -> int:
    """Write the records as zstd-compressed NDJSON, one match a line; returns how many."""
    import zstandard

    count = 0
    with zstandard.ZstdCompressor(level=10).stream_writer(out, closefd=False) as writer:
        for item in exported:
            writer.write(json_line(item))
            count += 1
    return count


def write(out: IO[bytes], fmt: str, exported: Iterable[dict[str, Any]]) -> int:
    if fmt == "parquet":
        return write_parquet(out, exported)
    if fmt == "ndjson.zst":
        return write_ndjson_zst(out, exported)
    raise ValueError(f"unknown export format {fmt!r}; choose from {', '.join(FORMATS)}")


def write_file(path: Path, fmt: str, exported: Iterable[dict[str, Any]]) -> tuple[int, int, str]:
    """Write ``path`` whole or not at all (a temporary file renamed over it); returns (matches,
    bytes, SHA-256 in hex)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        with partial.open("wb") as out:
            count = write(out, fmt, exported)
            out.flush()
            os.fsync(out.fileno())
        size, digest = _digest(partial)
        partial.replace(path)
    finally:
        with suppress(FileNotFoundError):
            partial.unlink()
    return count, size, digest


def _digest(path: Path) -> tuple[int, str]:
    sha = hashlib.sha256()
    size = 0
    with path.open("rb") as data:
        while chunk := data.read(1 << 20):
            sha.update(chunk)
            size += len(chunk)
    return size, sha.hexdigest()


# --- the monthly files ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ExportFile:
    """One file of the manifest."""

    file: str
    game: str
    month: str
    format: str
    schema_version: int
    matches: int
    bytes: int
    sha256: str
    written_at: str


def read_manifest(folder: Path) -> list[ExportFile]:
    """The manifest's files (none when there is no manifest yet)."""
    try:
        body = json.loads((folder / MANIFEST).read_text())
    except FileNotFoundError:
        return []
    return [ExportFile(**item) for item in body.get("files", [])]


def _write_manifest(folder: Path, files: list[ExportFile]) -> None:
    ordered = sorted(files, key=lambda f: (f.month, f.game, f.format), reverse=True)
    body = {"schema_version": SCHEMA_VERSION, "files": [asdict(f) for f in ordered]}
    partial = folder / f".{MANIFEST}.{os.getpid()}.partial"
    partial.write_text(json.dumps(body, indent=1) + "\n")
    partial.replace(folder / MANIFEST)


def month_ready(conn: Connection, game: str, month: str, now: datetime.datetime) -> bool:
    """Whether ``month`` has ended and none of ``game``'s matches that ended in it waits for
    the ladder's rating or for the sibling tables of its deal."""
    start, end = month_span(month)
    if now < end:
        return False
    waiting = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM sealed_ended_matches WHERE game = %s"
        "  AND ended_at >= %s AND ended_at < %s)"
        " OR EXISTS (SELECT 1 FROM rating_waiting w JOIN match_results r ON r.id = w.match_id"
        "  WHERE r.game = %s AND w.finished_at >= %s AND w.finished_at < %s)",
        (game, start, end, game, start, end),
    ).fetchone()
    assert waiting is not None
    return not _first(waiting)


def _first(row: Any) -> Any:
    return row[0] if isinstance(row, tuple | list) else next(iter(row.values()))


def _has_matches(
    conn: Connection, game: str, start: datetime.datetime, end: datetime.datetime
) -> bool:
    row = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM ended_match_records WHERE game = %s"
        " AND ended_at >= %s AND ended_at < %s)",
        (game, start, end),
    ).fetchone()
    assert row is not None
    return bool(_first(row))


def export_month(
    conn: Connection, folder: Path, games: Iterable[str], month: str, now: datetime.datetime
) -> list[ExportFile]:
    """Write each game's files of ``month`` that the manifest lacks, if the month is ready for
    that game and it has matches; returns the files written (none when another worker holds
    the lock)."""
    folder.mkdir(parents=True, exist_ok=True)
    locked = conn.execute("SELECT pg_try_advisory_lock(hashtext(%s))", (_LOCK,)).fetchone()
    assert locked is not None
    if not _first(locked):
        return []
    try:
        written: list[ExportFile] = []
        start, end = month_span(month)
        for game in games:
            have = {(f.game, f.month, f.format) for f in read_manifest(folder)}
            wanted = [fmt for fmt in FORMATS if (game, month, fmt) not in have]
            if not wanted or not month_ready(conn, game, month, now):
                continue
            if not _has_matches(conn, game, start, end):
                continue
            for fmt in wanted:
                name = file_name(game, month, fmt)
                count, size, digest = write_file(
                    folder / name, fmt, records(conn, game, start, end)
                )
                entry = ExportFile(
                    file=name,
                    game=game,
                    month=month,
                    format=fmt,
                    schema_version=SCHEMA_VERSION,
                    matches=count,
                    bytes=size,
                    sha256=digest,
                    written_at=datetime.datetime.now(datetime.UTC).isoformat(),
                )
                _write_manifest(folder, [*read_manifest(folder), entry])
                written.append(entry)
        return written
    finally:
        conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (_LOCK,))


def export_previous_month(
    conn: Connection, folder: Path, games: Iterable[str], now: datetime.datetime
) -> list[ExportFile]:
    """``export_month`` for the last month that has ended at ``now``."""
    return export_month(conn, folder, games, previous_month(now), now)
