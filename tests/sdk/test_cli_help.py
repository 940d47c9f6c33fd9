"""Every command and option of `premiere-bot` says what it does."""

from __future__ import annotations

import argparse

import pytest

from premiere_bot import cli


def parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    root = cli._parser()
    found = [("premiere-bot", root)]
    for action in root._actions:
        if isinstance(action, argparse._SubParsersAction):
            found += [(f"premiere-bot {name}", sub) for name, sub in action.choices.items()]
    return found


def test_every_command_and_option_has_help() -> None:
    commands = {name for name, _ in parsers()}
    assert {"premiere-bot run", "premiere-bot try", "premiere-bot check"} <= commands
    for name, parser in parsers():
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                assert all(choice.help for choice in action._choices_actions), name
                continue
            assert action.help, f"{name} {action.option_strings or action.dest} has no help"


def test_run_needs_a_token_and_says_where_it_comes_from(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("PREMIERE_BOT_TOKEN", raising=False)
    with pytest.raises(SystemExit):
        cli.main(["run", "premiere_bot.examples.random_bot:RandomBot"])
    assert "set PREMIERE_BOT_TOKEN" in capsys.readouterr().err


def test_a_bug_in_a_match_callback_is_logged_and_the_connection_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from premiere_bot.runner import _Session

    def match_started(event: object) -> None:
        raise RuntimeError("oops")

    _Session._callback(match_started, object())
    assert "match_started raised; the connection goes on" in caplog.text
