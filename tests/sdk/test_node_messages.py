"""The Node client (clients/node) reads every game's messages, moves and data: for every game of
the registry, each observation and legal move of a played match decodes from the client's own
.proto files to what Python protobuf reads, and its GameData lookup finds every entry of every
table of the game's data by its number or id. Nothing here names a game: a new game is checked
as soon as it is registered."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.integration.services import ROOT
from tests.sdk.client_messages import Case, cases
from tests.sdk.test_node_wire import node

NODE_CLIENT = ROOT / "clients" / "node"

SCRIPT = """
const path = require("node:path");
const dir = process.argv[1];
const protoLoader = require(path.join(dir, "node_modules", "@grpc", "proto-loader"));
const { GameData, loadService } = require(path.join(dir, "game_data.js"));
const plain = {
  keepCase: true, longs: String, enums: String, bytes: String, defaults: false, oneofs: false,
  includeDirs: [path.join(dir, "proto")],
};
const connect = protoLoader.loadSync("premiere/v1/bot_gateway.proto", plain)[
  "premiere.v1.BotGatewayService"].Connect;
const getData = protoLoader.loadSync("premiere/v1/game_data.proto", plain)[
  "premiere.v1.GameDataService"].GetGameData;
const asClient = loadService().service.GetGameData;
const lines = require("node:fs").readFileSync(0, "utf8").split("\\n").filter(Boolean);
for (const line of lines) {
  const [kind, encoded] = line.split(" ");
  const bytes = Buffer.from(encoded, "base64");
  if (kind === "request") {
    const request = connect.responseDeserialize(bytes).decision;
    console.log(JSON.stringify({
      observation: request.observation, legal_moves: request.legal_moves || [] }));
    continue;
  }
  const data = new GameData(asClient.responseDeserialize(bytes).data);
  const tables = {};
  for (const table of data.tables()) {
    const entries = data.own[table];
    const key = "number" in entries[0] ? "number" : "id";
    tables[table] = entries.map((entry) => entry[key]);
    if (!entries.every((entry) => data.entry(table, entry[key]) === entry)) {
      tables[table] = `entry("${table}", key) is not the entry of that key`;
    }
  }
  console.log(JSON.stringify({ data: getData.responseDeserialize(bytes).data, tables }));
}
"""


@pytest.fixture(scope="module")
def checked() -> list[tuple[Case, object]]:
    made = cases()
    out = subprocess.run(
        [node(), "-e", SCRIPT, str(NODE_CLIENT)],
        input="\n".join(case.line for case in made) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    seen = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(seen) == len(made)
    return list(zip(made, seen, strict=True))


def test_node_reads_every_observation_and_move_of_every_game(
    checked: list[tuple[Case, object]],
) -> None:
    requests = [(case, seen) for case, seen in checked if case.kind == "request"]
    assert {case.game for case, _ in requests} == {case.game for case, _ in checked}
    for case, seen in requests:
        assert seen == case.expected, f"{case.game}: Node read a request differently"


def test_node_finds_every_entry_of_every_game_data(checked: list[tuple[Case, object]]) -> None:
    data = [(case, seen) for case, seen in checked if case.kind == "data"]
    assert data
    for case, seen in data:
        assert seen == case.expected, f"{case.game}: Node read its data differently"
    assert any(case.expected["tables"] for case, _ in data), "no game has a keyed table"
