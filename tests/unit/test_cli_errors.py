"""Commands that need the database say so in one line when it cannot be reached."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from premiere.cli import _redacted, main
from premiere.services import free_port


@pytest.mark.parametrize("args", [["league", "list"], ["bots", "add", "x"], ["db", "upgrade"]])
def test_unreachable_database_is_one_clear_error(
    args: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    url = f"postgresql://premiere:secret@127.0.0.1:{free_port()}/premiere"
    monkeypatch.setenv("PREMIERE_DATABASE_URL", url)
    monkeypatch.setenv("PREMIERE_STATE_DIR", str(tmp_path))
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1
    assert "cannot use the database" in result.output
    assert "premiere:***@127.0.0.1" in result.output
    assert "secret" not in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://u:pw@h:1/db", "postgresql://u:***@h:1/db"),
        ("postgresql://u@h:1/db", "postgresql://u@h:1/db"),
        ("postgresql://h/db", "postgresql://h/db"),
    ],
)
def test_passwords_are_redacted(url: str, shown: str) -> None:
    assert _redacted(url) == shown
