"""Adding a game takes its folder, one line of proto/games.toml and one .proto file: a throwaway
sixth game (Last Token, tests/house/tiny_game/) gets its oneof fields from the generator, with
every other game's numbers where they were, and plays a match through a real arbiter over gRPC
against a bot process. Adding a league format takes its module: a throwaway format (Rotation,
tests/house/tiny_format.py) runs a league of the sixth game to its end through a real worker,
beat and ladder.

The processes run on the protocol generated with the sixth game (a wire package of their own,
first on PYTHONPATH), register the game at start-up (`games.registry.register`, from a
sitecustomize module) and find the format among the formats' modules (a folder of the test's
added to the formats package's path by the same module): no product file is edited for
either."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from premiere_wire import game_data_pb2, game_data_pb2_grpc, match_pb2
from tests.integration.services import (
    ROOT,
    Arbiter,
    Workers,
    create_match,
    free_port,
    scratch_database,
    start_bot,
    wait_ended,
)
from tests.integration.test_leagues import query, wait_finished, wait_rated
from tests.wire.test_proto_lint import PROTO_ROOT, load_generator

TINY = Path(__file__).parent / "tiny_game"
TABLE = PROTO_ROOT / "games.toml"
LINE = '\n[[game]]\nid = "tiny-game"\ntitle = "Last Token"\nnumber = 6\ndata_number = 15\n'
"""The sixth game's line of the table: the next free numbers."""

REGISTER = """import os

import games.registry
import workers.formats
from tests.house.tiny_game import TinyGame

games.registry.register(TinyGame())
workers.formats.__path__.append(os.path.join(os.path.dirname(__file__), "formats"))
"""

NUMBERS = """
import json
from premiere_wire import game_data_pb2, game_pb2

def oneof(message, name):
    return {f.name: f.number for f in message.DESCRIPTOR.oneofs_by_name[name].fields}

print(json.dumps({
    "observation": oneof(game_pb2.Observation, "game"),
    "move": oneof(game_pb2.Move, "game"),
    "data": oneof(game_data_pb2.GameData, "game_data"),
    "wire": game_pb2.__file__,
}))
"""


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[Path, str]]:
    """The repository's protocol plus tiny_game.proto and the table plus one line, generated;
    the wire package written to a folder of its own with a sitecustomize registering the game.
    Returns that folder (for PYTHONPATH) and every generated file."""
    base = tmp_path_factory.mktemp("sixth-game")
    sources = base / "proto" / "premiere" / "v1"
    shutil.copytree(PROTO_ROOT / "premiere" / "v1", sources)
    shutil.copy(TINY / "tiny_game.proto", sources / "tiny_game.proto")
    table = base / "games.toml"
    table.write_text(TABLE.read_text() + LINE)
    files: dict[Path, str] = load_generator().generate(sources, table)
    site = base / "site"
    package = site / "premiere_wire"
    package.mkdir(parents=True)
    for path in (ROOT / "wire" / "premiere_wire").iterdir():
        if path.is_file() and "_pb2" not in path.name:
            shutil.copy(path, package / path.name)
    for name, text in files.items():
        if name.parent == Path("wire/premiere_wire"):
            (package / name.name).write_text(text)
    (site / "sitecustomize.py").write_text(REGISTER)
    (site / "formats").mkdir()
    shutil.copy(Path(__file__).parent / "tiny_format.py", site / "formats" / "tiny_format.py")
    return site, files


def pythonpath(site: Path) -> str:
    return os.pathsep.join([str(site), str(ROOT)])


def test_the_generator_gives_the_sixth_game_its_oneof_fields(
    generated: tuple[Path, dict[Path, str]],
) -> None:
    site, files = generated
    out = subprocess.run(
        [sys.executable, "-c", NUMBERS],
        env=os.environ | {"PYTHONPATH": pythonpath(site)},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    seen = json.loads(out)
    assert Path(seen["wire"]).is_relative_to(site)
    pinned = tomllib.loads(TABLE.read_text())["game"]
    numbers = {g["id"].replace("-", "_"): g["number"] for g in pinned}
    data_numbers = {g["id"].replace("-", "_"): g["data_number"] for g in pinned}
    assert seen["observation"] == numbers | {"tiny_game": 6}
    assert seen["move"] == numbers | {"tiny_game": 6}
    assert seen["data"] == data_numbers | {"tiny_game": 15}
    made = {str(name) for name in files}
    assert "clients/python/premiere_bot/tiny_game.py" in made
    assert "clients/node/proto/premiere/v1/tiny_game.proto" in made
    assert "TinyGameObservation tiny_game = 6;" in files[Path("proto/premiere/v1/game.proto")]


def test_without_its_table_line_the_game_gets_no_field(
    generated: tuple[Path, dict[Path, str]],
) -> None:
    """The table, not the presence of a .proto file, decides which games the oneofs carry."""
    site, _ = generated
    sources = site.parent / "proto" / "premiere" / "v1"
    files = load_generator().generate(sources, TABLE)
    assert "tiny_game" not in files[Path("proto/premiere/v1/game.proto")]


@pytest.fixture
def arbiter(generated: tuple[Path, dict[Path, str]], tmp_path: Path) -> Iterator[Arbiter]:
    site, _ = generated
    with scratch_database() as database_url:
        server = Arbiter(
            database_url,
            free_port(),
            free_port(),
            settings={"PYTHONPATH": pythonpath(site)},
        )
        server.start(tmp_path / "arbiter.log")
        try:
            yield server
        finally:
            server.stop()


def test_the_sixth_game_plays_through_the_arbiter(
    generated: tuple[Path, dict[Path, str]], arbiter: Arbiter, tmp_path: Path
) -> None:
    site, _ = generated
    token = arbiter.add_bot("taker")
    bot = start_bot(
        arbiter,
        "premiere_bot.examples.random_bot:RandomBot",
        token,
        tmp_path / "bot.log",
        environment={"PYTHONPATH": str(site)},
    )
    try:
        stub = arbiter.matches()
        match_id = create_match(stub, ["taker", "builtin:random"], "sixth", game="tiny-game")
        match = wait_ended(stub, match_id, timeout=120)
    finally:
        bot.terminate()
        bot.wait(10)
    log = (tmp_path / "bot.log").read_text()
    assert match.status == match_pb2.MATCH_STATUS_FINISHED, arbiter.log() + log
    assert not [f for f in match.faults if f.blame == "bot"], match.faults
    assert sorted(match.outcome.ranks) == [1, 2]
    assert sorted(match.outcome.scores) == [0, 1]
    with arbiter.channel() as channel:
        served = game_data_pb2_grpc.GameDataServiceStub(channel)
        listed = served.ListGameData(game_data_pb2.ListGameDataRequest(), timeout=10)
        data = served.GetGameData(game_data_pb2.GetGameDataRequest(game="tiny-game"), timeout=10)
    assert "tiny-game" in [g.game for g in listed.games]
    assert data.data.title == "Last Token" and data.data.digest


def test_a_throwaway_format_runs_a_league_of_the_sixth_game(
    generated: tuple[Path, dict[Path, str]], arbiter: Arbiter, tmp_path: Path
) -> None:
    site, _ = generated
    token = arbiter.add_bot("taker")
    bot = start_bot(
        arbiter,
        "premiere_bot.examples.random_bot:RandomBot",
        token,
        tmp_path / "bot.log",
        environment={"PYTHONPATH": str(site)},
    )
    workers = Workers(arbiter, tmp_path)
    workers.start_worker()
    workers.start_beat()
    workers.start_ladder()
    try:
        formats = workers.cli("league", "create", "--help")
        assert "rotation" in formats
        workers.cli(
            "league",
            "create",
            "--name",
            "turns",
            "--game",
            "tiny-game",
            "--format",
            "rotation",
            "--bots",
            "taker,builtin:random",
            "--players",
            "2",
        )
        wait_finished(arbiter, workers, "turns")
        wait_rated(arbiter, "turns")
        tables = query(
            arbiter,
            "SELECT t.seats, m.game, m.status FROM league_tables t"
            " JOIN leagues l ON l.id = t.league_id JOIN matches m ON m.id = t.match_id"
            " WHERE l.name = 'turns' ORDER BY t.round, t.table_no",
        )
        shown = workers.cli("league", "show", "turns")
    finally:
        workers.stop()
        bot.terminate()
        bot.wait(10)
    # Two bots, two rounds: the rotation's tables, each a match of the sixth game, finished.
    assert [t["seats"] for t in tables] == [
        ["taker", "builtin:random"],
        ["builtin:random", "taker"],
    ], tables
    assert all(t["game"] == "tiny-game" and t["status"] == "finished" for t in tables)
    assert "finished after 2 rounds" in shown and "taker" in shown
