"""`premiere-bot bundle check DIR`: the arena's rules and a match per claimed game, played in
the real sandbox, before an author uploads."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.integration.services import BIN, ROOT

HOSTED = ROOT / "clients" / "python" / "hosted"


def bundle_check(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "premiere-bot"), "bundle", "check", str(folder)],
        capture_output=True,
        text=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
    )


def test_the_example_bundle_plays_every_game_it_claims_in_its_sandbox() -> None:
    done = bundle_check(HOSTED)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "started in its sandbox and connected" in done.stdout
    for game in ("magic-trick", "movie-tricks"):
        assert f"{game}: rank" in done.stdout and "faults: none" in done.stdout
    assert done.stdout.rstrip().endswith("premiere-bot upload DIR --bot NAME`")


def test_a_bot_that_answers_illegally_is_reported(tmp_path: Path) -> None:
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "premiere-bot.toml").write_text(
        'name = "bad"\nlanguage = "python"\nentry = "bad:Bad"\ngames = ["magic-trick"]\n'
    )
    (folder / "bad.py").write_text(
        "from premiere_bot import Bot\n\n\nclass Bad(Bot):\n"
        "    def decide(self, observation, legal_moves):\n        return 999\n"
    )
    done = bundle_check(folder)
    assert done.returncode == 1, done.stdout
    assert "magic-trick: rank" in done.stdout and "illegal" in done.stdout


def test_a_bundle_the_arena_would_refuse_is_refused_before_it_runs(tmp_path: Path) -> None:
    folder = tmp_path / "linked"
    folder.mkdir()
    (folder / "premiere-bot.toml").write_text(
        'name = "linked"\nlanguage = "python"\nentry = "bot:Bot"\n'
    )
    (folder / "bot.py").symlink_to("/etc/passwd")
    done = bundle_check(folder)
    assert done.returncode == 1
    assert "refused" in done.stdout and "is a link" in done.stdout
    assert "started in its sandbox" not in done.stdout
