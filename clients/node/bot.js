#!/usr/bin/env node
// A Premiere bot in Node.js. It dials the arbiter, says Hello, and answers every decision
// request with the index of a legal move, so it plays every game the arbiter hosts.
//
//   PREMIERE_BOT_TOKEN=T node bot.js --arbiter arena.example.org:443 --tls [--ca ca.pem]
//
// The arbiter address may also come from PREMIERE_ARBITER. Pass the token by environment
// (PREMIERE_BOT_TOKEN): a --token on the command line is visible to every user of the machine.
// --tls (or PREMIERE_TLS=1) dials over TLS, trusting the system's roots or --ca FILE.
// --challenge GAME --vs builtin:random,builtin:heuristic [--rated] asks for a match once
// connected (BotGatewayService.Challenge); --accept-challenges lets other bots challenge it.
// --example plays by the worked example strategy (example.js, Movie Trailer's guesser), which
// reads the game's data (game_data.js, fetched once per digest from GameDataService); other
// games and decisions are played at random.
// The .proto files come with the package (./proto, copied from the repository's by `make proto`).
"use strict";

const crypto = require("node:crypto");
const path = require("node:path");
const { parseArgs } = require("node:util");

const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const { GameDataStore } = require("./game_data.js");
const example = require("./example.js");

const CLIENT = "premiere-bot-node/0.1";
const PROTO_ROOT = path.join(__dirname, "proto");
const PROTO_FILE = "premiere/v1/bot_gateway.proto";
const BACKOFF_INITIAL_MS = 200;
const BACKOFF_MAX_MS = 10000;

const USAGE = `usage: node bot.js --arbiter HOST:PORT [--tls [--ca FILE]] [--max-matches N] [--games a,b]
                   [--challenge GAME --vs OPPONENTS [--rated]] [--accept-challenges] [--example]
                   [--verbose]

  --arbiter      the arbiter's gRPC address (or env PREMIERE_ARBITER)
  --tls          dial over TLS (or env PREMIERE_TLS=1); needed for any arbiter off this machine
  --ca           PEM file of the CA to trust instead of the system's (or env PREMIERE_CA)
  --token        the bot's token; prefer env PREMIERE_BOT_TOKEN (a command line is public)
  --max-matches  how many matches to play at once (default 4, or env PREMIERE_MAX_MATCHES)
  --games        comma-separated game ids to play (default: every game, or env PREMIERE_BOT_GAMES)
  --challenge    once connected, ask for a match of this game (BotGatewayService.Challenge)
  --vs           the challenge's opponents in seat order: builtin:NAME or names of bots that
                 accept challenges, comma-separated
  --rated        ask for the challenge to be rated (where the operator allows it)
  --accept-challenges  let other bots challenge this one while it is connected
  --example      play by the example strategy in example.js where it has one, reading the
                 game's data (default: a pseudo-random legal move)
  --verbose      log every decision`;

function log(...parts) {
  console.log(new Date().toISOString(), ...parts);
}

function fail(message, code) {
  console.error(`error: ${message}`);
  process.exit(code);
}

function parseOptions(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        arbiter: { type: "string" },
        token: { type: "string" },
        tls: { type: "boolean", default: false },
        ca: { type: "string" },
        "max-matches": { type: "string" },
        games: { type: "string" },
        challenge: { type: "string" },
        vs: { type: "string" },
        rated: { type: "boolean", default: false },
        "accept-challenges": { type: "boolean", default: false },
        example: { type: "boolean", default: false },
        verbose: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    }));
  } catch (error) {
    fail(`${error.message}\n${USAGE}`, 2);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const arbiter = values.arbiter || process.env.PREMIERE_ARBITER;
  const token = values.token || process.env.PREMIERE_BOT_TOKEN;
  if (!arbiter) fail(`no arbiter address: pass --arbiter or set PREMIERE_ARBITER\n${USAGE}`, 2);
  if (!token) fail(`no token: pass --token or set PREMIERE_BOT_TOKEN\n${USAGE}`, 2);
  const maxMatches = Number(values["max-matches"] ?? process.env.PREMIERE_MAX_MATCHES ?? 4);
  if (!Number.isInteger(maxMatches) || maxMatches < 1) {
    fail(`--max-matches must be a whole number of at least 1, not ${values["max-matches"]}`, 2);
  }
  const games = (values.games || process.env.PREMIERE_BOT_GAMES || "").split(",").map((g) => g.trim()).filter(Boolean);
  const ca = values.ca || process.env.PREMIERE_CA || null;
  const tls = values.tls || Boolean(ca) || ["1", "true"].includes(process.env.PREMIERE_TLS || "");
  const opponents = (values.vs || "").split(",").map((o) => o.trim()).filter(Boolean);
  if (values.challenge && opponents.length === 0) {
    fail(`--challenge needs --vs with the opponents, e.g. builtin:random,builtin:heuristic\n${USAGE}`, 2);
  }
  const challenge = values.challenge
    ? { game: values.challenge, opponents, rated: values.rated }
    : null;
  return {
    arbiter, token, maxMatches, games, verbose: values.verbose, tls, ca, challenge,
    acceptChallenges: values["accept-challenges"], example: values.example,
  };
}

function channelCredentials({ tls, ca }) {
  if (!tls) return grpc.credentials.createInsecure();
  const fs = require("node:fs");
  return grpc.credentials.createSsl(ca ? fs.readFileSync(ca) : null);
}

// The stream's hot path skips protobuf reflection: a decision request is read straight from
// the wire (only the fields the bot uses; the observation stays as its bytes) and an answer by
// index is written straight to it. Every other message goes through proto-loader as before.
function loadGateway(fast = true) {
  const definition = protoLoader.loadSync(PROTO_FILE, {
    keepCase: true,
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
    includeDirs: [PROTO_ROOT],
  });
  if (!fast) return grpc.loadPackageDefinition(definition).premiere.v1.BotGatewayService;
  const connect = definition["premiere.v1.BotGatewayService"].Connect;
  const serialize = connect.requestSerialize;
  const deserialize = connect.responseDeserialize;
  connect.requestSerialize = (message) => encodeAnswer(message) ?? serialize(message);
  connect.responseDeserialize = (buffer) => decodeDecision(buffer) ?? deserialize(buffer);
  return grpc.loadPackageDefinition(definition).premiere.v1.BotGatewayService;
}

let cursor = 0;

function varint(buffer) {
  let value = 0;
  let scale = 1;
  let byte;
  do {
    byte = buffer[cursor++];
    value += (byte & 0x7f) * scale;
    scale *= 128;
  } while (byte & 0x80);
  return value;
}

function skip(buffer, wire) {
  if (wire === 0) varint(buffer);
  else if (wire === 1) cursor += 8;
  else if (wire === 2) {
    const length = varint(buffer);
    cursor += length;
  }
  else if (wire === 5) cursor += 4;
  else throw new Error(`unexpected protobuf wire type ${wire}`);
}

// A ConnectResponse carrying a DecisionRequest (field 2), as
// { message: "decision", decision: { request_id, match_id, game, seat, decision_number,
//   legal_move_count, observation } } with the observation's serialized bytes, or a
// DecisionBatch (field 6) as { message: "decisions", decisions: { requests: [...] } } of
// those; null otherwise.
function decodeDecision(buffer) {
  cursor = 0;
  while (cursor < buffer.length) {
    const tag = varint(buffer);
    if (tag === 0x12) {
      const length = varint(buffer);
      return { message: "decision", decision: decisionRequest(buffer, cursor + length) };
    }
    if (tag === 0x32) {
      const length = varint(buffer);
      return { message: "decisions", decisions: { requests: decisionBatch(buffer, cursor + length) } };
    }
    skip(buffer, tag & 7);
  }
  return null;
}

function decisionBatch(buffer, end) {
  const requests = [];
  while (cursor < end) {
    const tag = varint(buffer);
    if (tag === 0x0a) {
      const length = varint(buffer);
      requests.push(decisionRequest(buffer, cursor + length));
    } else {
      skip(buffer, tag & 7);
    }
  }
  return requests;
}

const NO_BYTES = Buffer.alloc(0);

function decisionRequest(buffer, end) {
  const request = {
    request_id: "", match_id: "", game: "", seat: 0, decision_number: 0,
    legal_move_count: 0, observation: NO_BYTES,
  };
  while (cursor < end) {
    const tag = varint(buffer);
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    if (wire === 2) {
      const length = varint(buffer);
      const from = cursor;
      cursor += length;
      if (field === 11) request.legal_move_count += 1;
      else if (field === 10) request.observation = buffer.subarray(from, cursor);
      else if (field === 1) request.request_id = buffer.toString("utf8", from, cursor);
      else if (field === 2) request.match_id = buffer.toString("utf8", from, cursor);
      else if (field === 3) request.game = buffer.toString("utf8", from, cursor);
    } else if (wire === 0 && (field === 4 || field === 5)) {
      const value = varint(buffer);
      if (field === 4) request.seat = value;
      else request.decision_number = value;
    } else {
      skip(buffer, wire);
    }
  }
  return request;
}

function pushVarint(value, into) {
  while (value > 0x7f) {
    into.push((value % 128) | 0x80);
    value = Math.floor(value / 128);
  }
  into.push(value);
}

function byIndex(answer) {
  return answer && answer.move === undefined && typeof answer.legal_move_index === "number";
}

// A DecisionAnswer { request_id, legal_move_index[, note] }, framed as field `tag` of its
// parent.
function framedAnswer(answer, tag) {
  const id = Buffer.from(answer.request_id, "utf8");
  const head = [0x0a];
  pushVarint(id.length, head);
  const tail = [0x10];
  pushVarint(answer.legal_move_index, tail);
  const note = answer.note ? Buffer.from(answer.note, "utf8") : Buffer.alloc(0);
  const noteHead = [];
  if (note.length) {
    noteHead.push(0x22);
    pushVarint(note.length, noteHead);
  }
  const outer = [tag];
  pushVarint(head.length + id.length + tail.length + noteHead.length + note.length, outer);
  return Buffer.concat([Buffer.from(outer.concat(head)), id, Buffer.from(tail), Buffer.from(noteHead), note]);
}

// The longest note the arbiter accepts on an answer, in UTF-8 bytes.
const MAX_NOTE_BYTES = 512;

// The answer to `request` for what a strategy chose: a legal move's index, or { index, note }
// to attach a short note (its plan, its estimate). The note is stored with the move and shown
// beside it in the replay once the match has ended, never while it runs.
function answerFor(request, choice) {
  const index = typeof choice === "number" ? choice : choice.index;
  const note = typeof choice === "number" ? "" : String(choice.note ?? "");
  if (Buffer.byteLength(note, "utf8") > MAX_NOTE_BYTES) {
    throw new Error(`a note of ${Buffer.byteLength(note, "utf8")} bytes; the arbiter takes ${MAX_NOTE_BYTES} at most`);
  }
  if (note.includes("\u0000")) {
    throw new Error("a note with a NUL character; the arbiter takes none");
  }
  return note ? { request_id: request.request_id, legal_move_index: index, note } : { request_id: request.request_id, legal_move_index: index };
}

// A ConnectRequest { answer: { request_id, legal_move_index } }, or { answers: { answers:
// [...] } } of those, encoded by hand; null for any other message (the Hello, or an answer
// with a typed move), which proto-loader encodes.
function encodeAnswer(message) {
  if (message.answers) {
    const answers = message.answers.answers;
    if (!answers.every(byIndex)) return null;
    const body = Buffer.concat(answers.map((answer) => framedAnswer(answer, 0x0a)));
    const outer = [0x1a];
    pushVarint(body.length, outer);
    return Buffer.concat([Buffer.from(outer), body]);
  }
  return byIndex(message.answer) ? framedAnswer(message.answer, 0x12) : null;
}

// Picks a legal move from what the seat sees, so the same position always gets the same move:
// a match replayed from its seed, or resumed after an arbiter restart, plays out identically.
// It is the Python SDK's RandomBot's pick: the first 8 bytes of sha256(the decision number as
// 4 big-endian bytes + the serialized observation), big-endian, modulo the number of moves.
function chooseMove(request) {
  const count = request.legal_move_count;
  if (count === 0) return 0;
  const number = Buffer.allocUnsafe(4);
  number.writeUInt32BE(request.decision_number >>> 0, 0);
  const digest = crypto.createHash("sha256").update(number).update(request.observation).digest();
  const high = digest.readUInt32BE(0) % count;
  const low = digest.readUInt32BE(4) % count;
  return (high * (2 ** 32 % count) + low) % count;
}

// A pseudo-random legal move of a request decoded by proto-loader (the example's path, where
// the observation is a message, not bytes), drawn from its match, seat and decision number.
function decodedPick(request) {
  const count = request.legal_moves.length;
  if (count === 0) return 0;
  const digest = crypto.createHash("sha256")
    .update(`${request.match_id}/${request.seat}/${request.decision_number}`).digest();
  return digest.readUInt32BE(0) % count;
}

function describeOutcome(ended) {
  if (!ended.outcome) return `voided (${ended.void_reason || "no reason given"})`;
  const { scores, ranks } = ended.outcome;
  return `seat ${ended.seat} ranked ${ranks[ended.seat]} (scores ${scores.join(", ")}; ranks ${ranks.join(", ")})`;
}

// Keeps one stream open, reconnecting with exponential backoff (full jitter, halved floor)
// whenever it drops, until stop() is called or the arbiter refuses the token.
class Bot {
  constructor(options) {
    this.options = options;
    this.Gateway = loadGateway(!options.example);
    this.data = null;
    this.client = null;
    this.call = null;
    this.attempt = 0;
    this.timer = null;
    this.stopping = false;
    this.batches = false;
  }

  start() {
    this.client = new this.Gateway(this.options.arbiter, channelCredentials(this.options));
    if (this.options.example) {
      this.data = new GameDataStore(this.options.arbiter, channelCredentials(this.options));
    }
    this.connect();
  }

  stop() {
    this.stopping = true;
    clearTimeout(this.timer);
    if (this.call) this.call.cancel();
    if (this.client) this.client.close();
    if (this.data) this.data.close();
  }

  connect() {
    const { token, games, maxMatches } = this.options;
    const metadata = new grpc.Metadata();
    metadata.add("authorization", `Bearer ${token}`);
    const call = this.client.Connect(metadata);
    this.call = call;
    let over = false;
    const finish = (reason) => {
      if (over) return;
      over = true;
      if (this.call === call) this.call = null;
      this.dropped(reason);
    };
    call.on("data", (message) => this.handle(call, message));
    call.on("error", (error) => finish(error));
    call.on("end", () => finish(null));
    call.write({
      hello: {
        games, max_matches: maxMatches, client: CLIENT,
        accept_challenges: Boolean(this.options.acceptChallenges), batches: true,
      },
    });
  }

  dropped(error) {
    if (this.stopping) return;
    if (error && error.code === grpc.status.UNAUTHENTICATED) {
      this.stop();
      fail(
        `the arbiter at ${this.options.arbiter} refused the token (UNAUTHENTICATED: ${error.details}); ` +
          "get a token with `premiere bots add NAME`",
        3,
      );
    }
    if (error && error.code === grpc.status.INVALID_ARGUMENT) {
      this.stop();
      fail(`the arbiter at ${this.options.arbiter} refused this bot: ${error.details}`, 3);
    }
    const why = error ? `${grpc.status[error.code] ?? error.code}: ${error.details}` : "stream closed";
    const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_INITIAL_MS * 2 ** this.attempt);
    this.attempt += 1;
    const delay = Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
    log(`connection to ${this.options.arbiter} lost (${why}); reconnecting in ${delay} ms`);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  // Asks the arbiter for a match now; it is played on this bot's stream like any other.
  challenge({ game, opponents, rated }) {
    const metadata = new grpc.Metadata();
    metadata.add("authorization", `Bearer ${this.options.token}`);
    this.client.Challenge({ game, opponents, rated }, metadata, (error, reply) => {
      if (error) {
        log(`challenge refused (${grpc.status[error.code] ?? error.code}): ${error.details}`);
        return;
      }
      log(`challenge accepted: match ${reply.match_id} ${game} (${reply.rated ? "rated" : "casual"})`);
    });
  }

  // Answers by the example strategy once the game's data is at hand (fetched at
  // MatchStarted); where it has no choice, by a pseudo-random pick of the request.
  decideByExample(call, request) {
    this.data.get(request.game, null).then(
      (data) => {
        try {
          return example.choose(request, data) ?? decodedPick(request);
        } catch (error) {
          log(`strategy failed on match ${request.match_id}: ${error.stack}`);
          return decodedPick(request);
        }
      },
      () => decodedPick(request),
    ).then((choice) => {
      const answer = answerFor(request, choice);
      if (this.options.verbose) {
        log(`match ${request.match_id} seat ${request.seat} decision ${request.decision_number}: ` +
          `move ${answer.legal_move_index} of ${request.legal_moves.length}`);
      }
      call.write({ answer });
    });
  }

  // The answer by index to one request, from the fast path's fields.
  pick(request) {
    const answer = answerFor(request, chooseMove(request));
    if (this.options.verbose) {
      log(`match ${request.match_id} seat ${request.seat} decision ${request.decision_number}: ` +
        `move ${answer.legal_move_index} of ${request.legal_move_count}`);
    }
    return answer;
  }

  handle(call, message) {
    switch (message.message) {
      case "welcome":
        this.attempt = 0;
        this.batches = Boolean(message.welcome.batches);
        log(`connected to ${this.options.arbiter} as ${message.welcome.bot_name} (${message.welcome.server})`);
        if (this.options.challenge && !this.challenged) {
          this.challenged = true;
          this.challenge(this.options.challenge);
        }
        break;
      case "decision":
        if (this.options.example) this.decideByExample(call, message.decision);
        else call.write({ answer: this.pick(message.decision) });
        break;
      case "decisions": {
        // Answered together in one AnswerBatch (the example waits for game data: one by one).
        const requests = message.decisions.requests;
        if (this.options.example) {
          for (const request of requests) this.decideByExample(call, request);
        } else if (this.batches) {
          call.write({ answers: { answers: requests.map((request) => this.pick(request)) } });
        } else {
          for (const request of requests) call.write({ answer: this.pick(request) });
        }
        break;
      }
      case "match_started": {
        const started = message.match_started;
        const how = started.resent ? "running (reconnected)" : started.resumed ? "resumed" : "started";
        log(`match ${started.match_id} ${how}: ${started.game}, ` +
          `seat ${started.seat} of ${started.players} (${started.seat_names.join(", ")})`);
        if (this.data) {
          this.data.get(started.game, started.game_data_digest).catch((error) => {
            log(`no game data for ${started.game}: ${error.details || error.message}`);
          });
        }
        break;
      }
      case "match_ended":
        log(`match ${message.match_ended.match_id} ended: ${describeOutcome(message.match_ended)}`);
        break;
      case "refused":
        log(`answer ${message.refused.request_id} refused: ${message.refused.reason}`);
        break;
      default:
        log(`ignoring an unknown message: ${JSON.stringify(message)}`);
    }
  }
}

function main() {
  const options = parseOptions(process.argv.slice(2));
  const bot = new Bot(options);
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      log(`${signal}: closing the connection`);
      bot.stop();
      process.exit(0);
    });
  }
  log(`${CLIENT} dialling ${options.arbiter} for ${options.games.length ? options.games.join(", ") : "every game"}, ` +
    `${options.maxMatches} at once`);
  bot.start();
}

if (require.main === module) main();

module.exports = { Bot, MAX_NOTE_BYTES, answerFor, chooseMove, decodeDecision, encodeAnswer, loadGateway };
