"""The Go bot (clients/go) is built from proto/ with Debian's Go gRPC packages, as its README
says (once per test run: the go_bot_build fixture), and plays full matches against a real
arbiter as a real process."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from premiere_wire import match_pb2
from tests.integration.services import Arbiter, create_match, wait_ended


def test_the_go_bot_plays_full_matches(
    go_bot_build: Path, arbiter: Arbiter, tmp_path: Path
) -> None:
    token = arbiter.add_bot("gopher")
    log = tmp_path / "go-bot.log"
    process = subprocess.Popen(
        [str(go_bot_build), "-arbiter", arbiter.address, "-max-matches", "2"],
        env=os.environ | {"PREMIERE_BOT_TOKEN": token},
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        stub = arbiter.matches()
        ids = [
            create_match(stub, ["gopher", "builtin:random", "builtin:heuristic"], "go-1"),
            create_match(stub, ["builtin:random", "gopher"], "go-2", game="movie-tricks"),
        ]
        matches = [wait_ended(stub, match_id, timeout=120) for match_id in ids]
        deadline = time.monotonic() + 10
        while log.read_text().count(" finished: ") < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        process.terminate()
        process.wait(10)
    out = log.read_text()
    for match_id, match, game in zip(ids, matches, ("magic-trick", "movie-tricks"), strict=True):
        assert match.status == match_pb2.MATCH_STATUS_FINISHED, out
        assert not [f for f in match.faults if f.blame == "bot"], match.faults
        assert f"match {match_id} {game} started: " in out
        assert f"match {match_id} {game} finished: rank " in out
    assert "connected to" in out, out


def test_the_go_bot_stops_when_its_token_is_refused(go_bot_build: Path, arbiter: Arbiter) -> None:
    result = subprocess.run(
        [str(go_bot_build), "-arbiter", arbiter.address],
        env=os.environ | {"PREMIERE_BOT_TOKEN": "pmb_wrong"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "refused this bot" in result.stderr and "Unauthenticated" in result.stderr


def test_the_go_bot_notes_its_answers(go_bot_build: Path, arbiter: Arbiter, tmp_path: Path) -> None:
    """With -notes, every answer carries DecisionAnswer.note, stored with its move."""
    import psycopg

    token = arbiter.add_bot("noting-gopher")
    log = tmp_path / "go-bot.log"
    process = subprocess.Popen(
        [str(go_bot_build), "-arbiter", arbiter.address, "-notes"],
        env=os.environ | {"PREMIERE_BOT_TOKEN": token},
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        stub = arbiter.matches()
        match_id = create_match(
            stub, ["noting-gopher", "builtin:random"], "go-notes", game="movie-tricks"
        )
        match = wait_ended(stub, match_id, timeout=120)
    finally:
        process.terminate()
        process.wait(10)
    assert match.status == match_pb2.MATCH_STATUS_FINISHED, log.read_text()
    with psycopg.connect(arbiter.database_url) as conn:
        rows = conn.execute(
            "SELECT seat, note FROM match_moves WHERE match_id = %s", (match_id,)
        ).fetchall()
    mine = [note for seat, note in rows if seat == 0]
    assert mine and all(note.startswith("hashed pick of the position: move ") for note in mine)
    assert all(note is None for seat, note in rows if seat == 1)
