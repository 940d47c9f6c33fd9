// Typed access to a game's data (GameDataService.GetGameData, proto/premiere/v1/game_data.proto):
// what the numbers and ids of observations and moves name, for any game. Fetch it once per
// digest (MatchStarted.game_data_digest) and look entries up by table and key:
//
//   const data = await store.get("movie-fight", started.game_data_digest);
//   data.own.wild                                // a field of the game's data (MovieFightData)
//   data.entry("cards", observation.offer[0])    // a Movie Fight card, by its printed number
//   data.entry("films", "king-kong-1933").fits   // a Movie Trailer film, by id
//
// A field of an observation or a move that names such an entry says which table in its
// `data_entry` option (proto/premiere/v1/data_entry.proto).
"use strict";

const path = require("node:path");

const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const PROTO_ROOT = path.join(__dirname, "proto");

// One game's data: `raw` is the GameData message as proto-loader gives it (proto field names);
// `own` its game's part (MovieFightData, ...). Every repeated table of entries keyed by
// `number` or `id` has an index, read with `entry(table, key)` or the named accessors.
class GameData {
  constructor(raw) {
    this.raw = raw;
    this.game = raw.game;
    this.digest = raw.digest;
    this.own = raw[raw.game_data] || {};
    this.indexes = {};
    for (const [table, entries] of Object.entries(this.own)) {
      if (!Array.isArray(entries) || entries.length === 0 || typeof entries[0] !== "object") continue;
      const key = "number" in entries[0] ? "number" : "id" in entries[0] ? "id" : null;
      if (key) this.indexes[table] = new Map(entries.map((entry) => [entry[key], entry]));
    }
  }

  // The entry of `table` (a repeated field of the game's data) whose `number` or `id` is
  // `key`; undefined when there is none.
  entry(table, key) {
    const index = this.indexes[table];
    return index ? index.get(key) : undefined;
  }

  // The names of the tables `entry` looks in.
  tables() {
    return Object.keys(this.indexes);
  }
}

function loadService() {
  const definition = protoLoader.loadSync("premiere/v1/game_data.proto", {
    keepCase: true,
    longs: Number,
    enums: String,
    defaults: true,
    oneofs: true,
    includeDirs: [PROTO_ROOT],
  });
  return grpc.loadPackageDefinition(definition).premiere.v1.GameDataService;
}

// Fetches each game's data from the arbiter once per digest; needs no token.
class GameDataStore {
  constructor(address, credentials) {
    const Service = loadService();
    this.client = new Service(address, credentials);
    this.cache = new Map();
  }

  get(game, digest) {
    const known = this.cache.get(game);
    if (known && (!digest || known.digest === digest)) return Promise.resolve(known.data);
    return new Promise((resolve, reject) => {
      this.client.GetGameData({ game }, { deadline: Date.now() + 30000 }, (error, reply) => {
        if (error) return reject(error);
        const data = new GameData(reply.data);
        this.cache.set(game, { digest: data.digest, data });
        resolve(data);
      });
    });
  }

  close() {
    this.client.close();
  }
}

module.exports = { GameData, GameDataStore, loadService };
