"""`premiere` loads a subcommand's module when that command runs (or is listed), so a light
command does not pay for every game, the leagues' formats, the events' rules and what starting
a local stack needs: a third of a second of CPU on every call, hundreds of calls in a test run
and in an operator's scripts."""

from __future__ import annotations

import json
import subprocess
import sys

import click
from click.testing import CliRunner

from premiere.cli import COMMANDS, main

LOADED = """
import json, sys
from click.testing import CliRunner
from premiere.cli import main
result = CliRunner().invoke(main, sys.argv[1:])
assert result.exit_code == 0, result.output
print(json.dumps(sorted(sys.modules)))
"""

OTHERS = {
    "premiere.stack",
    "premiere.config",
    "premiere.commands.events",
    "premiere.commands.leagues",
    "premiere.commands.services",
}
"""Modules a light command has no use for: starting a stack, the settings, other commands."""


def loaded(*args: str) -> set[str]:
    """The modules a fresh interpreter holds after `premiere ARGS`."""
    done = subprocess.run(
        [sys.executable, "-c", LOADED, *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout))


def test_a_light_command_loads_no_game_and_no_other_command() -> None:
    modules = loaded("bots", "--help")
    assert "premiere.commands.bots" in modules
    heavy = {
        name
        for name in modules
        if name == "games" or name.startswith(("games.", "workers.", "server.")) or name in OTHERS
    }
    assert not heavy, sorted(heavy)


def test_every_command_is_listed_and_resolves_to_itself() -> None:
    listed = CliRunner().invoke(main, ["--help"])
    assert listed.exit_code == 0, listed.output
    ctx = click.Context(main)
    for name in COMMANDS:
        assert f"  {name} " in listed.output, name
        command = main.get_command(ctx, name)
        assert command is not None and command.name == name
    assert main.get_command(ctx, "no-such-command") is None
