"""`premiere-bot try` and `check`, in-process: the arbiter's clock and faults, the CLI's output
and errors, and the speed the issue asks for (100 Magic Trick matches in under 30 s)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from premiere_bot import local, local_defaults
from premiere_bot.examples.magic_trick import MagicTrickBot
from premiere_bot.examples.random_bot import RandomBot
from server.config import ArbiterSettings
from tests.sdk.bots import ClumsyBot

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parents[2]


def premiere_bot(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "premiere-bot"), *args], capture_output=True, text=True, cwd=ROOT, timeout=120
    )


def test_the_local_clock_is_the_arbiters() -> None:
    fields = ArbiterSettings.model_fields
    assert fields["move_time_ms"].default == local_defaults.MOVE_TIME_MS
    assert fields["time_bank_ms"].default == local_defaults.TIME_BANK_MS
    assert fields["strike_limit"].default == local_defaults.STRIKE_LIMIT


def test_try_plays_100_magic_trick_matches_in_under_30_seconds() -> None:
    started = time.monotonic()
    result = premiere_bot(
        "try",
        "premiere_bot.examples.magic_trick:MagicTrickBot",
        "--game",
        "magic-trick",
        "--vs",
        "heuristic,random",
        "--games",
        "100",
    )
    seconds = time.monotonic() - started
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "MagicTrickBot at magic-trick, 3 players, vs heuristic, random:" in out
    assert "mean rank " in out and "over 100 matches" in out
    assert "illegal moves: 0, malformed answers: 0, timeouts: 0" in out
    assert "decision time over " in out
    assert seconds < 30, f"100 matches took {seconds:.1f} s"


def test_try_seats_the_bot_everywhere_and_counts_what_the_arbiter_would() -> None:
    summary = local.try_bot(ClumsyBot(), "magic-trick", ["random", "random"], 3)
    assert [r.seat for r in summary.results] == [0, 1, 2]
    for result in summary.results:
        assert result.faults["illegal"] == 2 and result.faults["error"] == 1
        assert result.faults["timeout"] == 0
    strict = local.Clock(move_time_ms=10, time_bank_ms=10, strike_limit=2)
    (slow,) = local.try_bot(ClumsyBot(), "magic-trick", ["random"] * 2, 1, clock=strict).results
    assert slow.faults["timeout"] == 1 and slow.forfeited and slow.rank == 3


def test_the_same_seed_plays_the_same_matches() -> None:
    first = local.try_bot(MagicTrickBot(), "magic-trick", ["heuristic", "random"], 3, "same")
    again = local.try_bot(MagicTrickBot(), "magic-trick", ["heuristic", "random"], 3, "same")
    assert [(r.rank, r.score) for r in first.results] == [(r.rank, r.score) for r in again.results]


def test_try_plays_against_a_search_level() -> None:
    """`premiere-bot try --vs search:100`: the search seat decides from the match's state
    (through `indistinguishable`), which only the local match holds."""
    summary = local.try_bot(RandomBot(), "movie-fight", ["search:100"], 1, "vs-search")
    (result,) = summary.results
    assert result.rank in (1, 2) and sum(result.faults.values()) == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "chess"], "unknown game 'chess'"),
        (["--game", "magic-trick", "--vs", "heuristic"], "not 2"),
        (["--game", "magic-trick", "--vs", "genius,random"], "no built-in bot 'genius'"),
        (["--game", "magic-trick", "--option", "prestige=maybe"], "prestige"),
    ],
)
def test_try_refuses_bad_arguments_clearly(args: list[str], message: str) -> None:
    result = premiere_bot("try", "tests.sdk.bots:ClumsyBot", *args)
    assert result.returncode != 0
    assert message in result.stderr and "Traceback" not in result.stderr


def test_check_reports_what_would_cost_strikes() -> None:
    result = premiere_bot(
        "check", "tests.sdk.bots:ClumsyBot", "--move-time-ms", "20", "--time-bank-ms", "1"
    )
    assert result.returncode == 1, result.stdout + result.stderr
    out = result.stdout
    assert "magic-trick 3 players: " in out and "magic-trick 5 players: " in out
    assert "with a single legal move" in out and "in simultaneous steps" in out
    assert "illegal: decision" in out and "decide raised RuntimeError('oops')" in out
    assert "timeout: decision" in out
    assert "magic-trick reconnect in mid-match:" in out
    assert "problem(s) found" in out


def test_check_passes_a_sound_bot() -> None:
    result = premiere_bot("check", "premiere_bot.examples.magic_trick:MagicTrickBot")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith("nothing here would cost a strike")
    assert "magic-trick reconnect in mid-match: ok" in result.stdout
