// Live matches. /live shows the matches being played as a grid of small boards (players,
// scores, the seat to move, a match waiting for a bot marked as such), refreshing itself;
// /live/<match> shows one as it is played, from the server-sent events of
// /api/live/<match>/events (the arbiter's WatchMatch through the ladder): the spectator view
// after every decision with each move in words, the seat to move, every seat's move clock and
// time bank, faults, and the result at the end. When the operator allows it for this match,
// every seat's view a number of moves behind.

import { $, api, fill, botLink, breakdownSection, el, gameName, nav, notFound, showError, when, words } from "./common.js";
import { renderFrame } from "./renderers.js";

const parts = location.pathname.split("/").filter(Boolean);
// /tv and /tv/<game>: the channel follows the match /api/tv picks, and the next when it ends.
const tv = parts[0] === "tv" ? { game: parts.length > 1 ? decodeURIComponent(parts[1]) : null } : null;
let matchId = !tv && parts.length > 1 ? decodeURIComponent(parts[1]) : null;
let source = null;
const refreshSeconds = Math.max(0.5, Number(new URLSearchParams(location.search).get("refresh")) || 3);

// --- the list: a grid of small boards ---------------------------------------------------------

// A running match waiting for a bot (its seat's bot not connected, after a restart): the list
// says so when the ladder reports it (waiting_for: the names, or waiting: true).
function waitingFor(m) {
  if (Array.isArray(m.waiting_for) && m.waiting_for.length) return m.waiting_for;
  if (m.waiting === true || m.state === "waiting") return [];
  return null;
}

function liveCard(m, labels) {
  const waiting = waitingFor(m);
  const scores = Array.isArray(m.scores) ? m.scores : null;
  const moving = new Set(Array.isArray(m.to_move) ? m.to_move : []);
  return el("li", { class: `live-card${waiting ? " waiting" : ""}`, "data-match": m.match_id },
    el("div", { class: "live-card-head" },
      el("strong", { text: m.title || gameName(m.game) }),
      waiting
        ? el("span", { class: "badge waiting-badge", text: waiting.length ? `waiting for ${waiting.join(", ")}` : "waiting for a bot" })
        : el("span", { class: "badge live-badge" }, el("span", { class: "live-dot" }), "live")),
    el("ol", { class: "live-seats" }, m.players.map((p, seat) =>
      el("li", { class: moving.has(seat) ? "to-move" : undefined, "data-seat": seat },
        botLink(p),
        scores ? el("span", { class: "seat-score", text: String(scores[seat]) }) : null))),
    m.text ? el("p", { class: "live-last small" }, words(m.text)) : null,
    // The table now, drawn small by the game's renderer (not while its deal is sealed).
    m.spectator
      ? el("div", { class: "mini-board", "aria-hidden": "true" },
          renderFrame(m.game, { spectator: m.spectator, seats: null, scores: scores }, { players: m.players, viewer: null, toMove: m.to_move, labels: labels[m.game] || {} }))
      : null,
    el("p", { class: "muted small" },
      `${m.decisions} decision${m.decisions === 1 ? "" : "s"} so far`,
      m.league ? [" · ", el("a", { href: `/leagues/${encodeURIComponent(m.league)}`, text: m.league })] : "",
      m.started_at ? ` · started ${when(m.started_at)}` : ""),
    el("a", { class: "watch", href: `/live/${m.match_id}` }, el("span", { class: "live-dot" }), waiting ? "open" : "watch"));
}

async function refreshList() {
  try {
    const { matches, labels } = await api("/api/live");
    $("content").replaceChildren(
      matches.length === 0
        ? el("p", { class: "empty", id: "live-empty", text: "No match is being played right now." })
        : el("ul", { class: "live-grid", id: "live" }, matches.map((m) => liveCard(m, labels || {}))),
    );
    $("status").textContent = `${matches.length} live · updated ${new Date().toLocaleTimeString()}`;
    showError(null);
    document.body.dataset.ready = "true";
  } catch (error) {
    showError(error);
  }
  setTimeout(refreshList, refreshSeconds * 1000);
}

// --- one match --------------------------------------------------------------------------------

// moves: every decision and forced move so far, as words; view, scores, toMove and clocks: the
// table after the latest one. A reconnect starts over (the match event, then a backlog event
// with the moves so far, then one event per move).
const live = {
  match: null, moves: [], decisions: 0, view: null, scores: null, toMove: null, clocks: null,
  clocksAt: 0, faults: [], omniscient: null, ended: null,
};
const moveList = el("ol", { class: "move-list", id: "moves" });
let group = null;

function who(seat) {
  return live.match.players[seat] ?? `seat ${seat + 1}`;
}

function addMove(move) {
  live.moves.push(move);
  if (!move.forced) live.decisions += 1;
  let list = moveList.lastElementChild && moveList.lastElementChild.querySelector("ol");
  if (!list || (move.group ?? null) !== group) {
    group = move.group ?? null;
    list = el("ol", { class: "group-moves" });
    moveList.append(el("li", { class: "group" }, group ? el("h3", { class: "group-name", text: group }) : null, list));
  }
  list.append(el("li", { "data-index": live.moves.length, class: move.forced ? "forced" : undefined },
    el("span", { class: "n", text: `${live.moves.length}.` }), " ", words(moveText(move)),
    move.forced ? el("span", { class: "tag", text: "forced" }) : null,
    move.defaulted ? el("span", { class: "tag", text: "defaulted" }) : null));
}

function moveText(move) {
  return move.text || `${who(move.seat)} decided`;
}

function seconds(ms) {
  return ms >= 60_000 ? `${Math.floor(ms / 60_000)}:${String(Math.floor((ms % 60_000) / 1000)).padStart(2, "0")}` : `${(ms / 1000).toFixed(1)} s`;
}

// A seat's clock now: the seat to move spends its move allowance, then its bank.
function clockText(seat) {
  const clock = live.clocks && live.clocks[seat];
  if (!clock) return null;
  let move = clock.move_ms;
  let bank = clock.bank_ms;
  const moving = !live.ended && Array.isArray(live.toMove) && live.toMove.includes(seat);
  if (moving) {
    const spent = performance.now() - live.clocksAt;
    bank = Math.max(0, bank - Math.max(0, spent - move));
    move = Math.max(0, move - spent);
  }
  return `move ${seconds(move)} · bank ${seconds(bank)}`;
}

function tickClocks() {
  for (const node of document.querySelectorAll(".clock[data-seat]")) {
    const text = clockText(Number(node.dataset.seat));
    if (text) node.textContent = `clock: ${text}`;
  }
}

function resultBanner(result) {
  const m = live.match;
  if (!result) {
    return el("div", { class: "result-banner", id: "result" },
      el("strong", { class: "winner", text: `The match has ended (${live.ended.status}) without a result.` }));
  }
  const order = m.players.map((_, seat) => seat).sort((a, b) =>
    Number(result.winners.includes(b)) - Number(result.winners.includes(a)) || (result.scores[b] ?? 0) - (result.scores[a] ?? 0) || a - b);
  const names = result.winners.map(who);
  return el("div", { class: "result-banner", id: "result" },
    el("strong", { class: "winner", text: names.length === 1 ? `${names[0]} wins` : names.length ? `Shared win: ${names.join(", ")}` : "No winner" }),
    el("ol", { class: "final-scores" }, order.map((seat) =>
      el("li", { class: result.winners.includes(seat) ? "won" : "" }, el("span", { class: "who", text: who(seat) }), " ",
        el("span", { class: "score", text: String(result.scores[seat] ?? "–") })))),
    el("span", { class: "tiebreaks", text: `Tie-breaks: ${result.tiebreaks || "none needed"}` }),
    result.text && result.scores.length === 1 ? el("p", { class: "result-text" }, words(result.text)) : null);
}

// The result from the end event: the game's (result), else the outcome's ranks and scores.
function endResult(e) {
  if (e.result) return e.result;
  const o = e.outcome;
  if (!o || !o.ranks) return null;
  return { winners: o.ranks.flatMap((r, seat) => (r === 1 ? [seat] : [])), scores: o.scores || [], tiebreaks: "", text: "" };
}

function movesText() {
  const forced = live.moves.length - live.decisions;
  return `${live.moves.length}${forced ? ` (${live.decisions} decided by the bots, ${forced} forced)` : ""}`;
}

function draw() {
  const m = live.match;
  if (!m) return;
  const last = live.moves[live.moves.length - 1];
  const facts = el("dl", { class: "facts inline" },
    el("dt", { text: "Match" }), el("dd", {}, el("code", { class: "match-id", text: m.match_id })),
    el("dt", { text: "Players" }), el("dd", {}, m.players.map((p, i) => [i ? ", " : "", botLink(p)])),
    // Counted as the move list counts them: every move, the bots' decisions among them.
    el("dt", { text: "Moves" }), el("dd", { id: "decisions", text: movesText() }));
  const lastMove = last ? `Move ${live.moves.length}: ${moveText(last)}${last.forced ? " (forced)" : ""}` : "Waiting for the first decision…";
  const frame = live.view ? { spectator: live.view, seats: null, scores: live.scores } : null;
  const badge = (seat) => {
    if (live.ended) return null; // the clocks stop with the match: none shown after it
    const text = clockText(seat);
    return text ? el("div", { class: "clock muted small", "data-seat": seat, text: `clock: ${text}` }) : null;
  };
  const stage = el("div", { class: "stage" },
    live.ended
      ? [resultBanner(live.result),
          live.breakdown ? el("p", { class: "score-rules muted small", id: "score-rules", text: live.breakdown.rules }) : null,
          live.breakdown ? breakdownSection(live.breakdown) : null,
          el("p", { class: "ended", id: "ended" }, `The match has ended (${live.ended.status}). `,
            el("a", { href: `/replay/${m.match_id}`, text: "Step through the replay, every hand shown" }))]
      : el("p", { class: "muted small" }, el("span", { class: "live-dot" }), "live: the spectator's view, updated after every decision"),
    el("p", { class: `move-line${last && last.forced ? " forced" : ""}`, id: "last-move" }, words(lastMove)),
    el("div", { id: "table" }, frame
      ? renderFrame(m.game, frame, { players: m.players, viewer: null, toMove: live.ended ? null : live.toMove, labels: m.labels, badge })
      : null));
  const sections = [
    tv ? el("p", { class: "tv-line", id: "tv-line" }, el("strong", { text: `${tvName()}: ` }),
      `${m.title} · ${tvReason}. `, el("a", { href: `/live/${m.match_id}`, text: "this match's own page" })) : null,
    el("section", { id: "watch" }, facts,
      el("div", { class: "replay-grid" }, stage,
        el("aside", { class: "moves-col", "aria-label": "Moves so far" }, el("h2", { text: "Moves so far" }), moveList))),
  ];
  if (live.omniscient) {
    sections.push(el("section", { id: "omniscient" },
      el("h2", { text: `Every hand, ${m.omniscient_delay} moves behind (after move ${live.omniscient.ply + 1})` }),
      renderFrame(m.game, { spectator: live.omniscient.spectator, seats: live.omniscient.seats }, { players: m.players, viewer: "all", toMove: null, labels: m.labels })));
  }
  if (live.faults.length) {
    sections.push(el("section", { id: "faults" }, el("h2", { text: "Faults" }),
      el("ul", {}, live.faults.map((f) => el("li", { text: `move ${f.ply + 1}: ${m.players[f.seat] ?? "the arbiter"} ${f.kind} (${f.blame})` })))));
  }
  fill($("content"), sections);
  moveList.scrollTop = moveList.scrollHeight; // the list scrolls, never the page
  document.body.dataset.moves = String(live.decisions);
  if (live.ended) document.body.dataset.ended = "true"; // once the result is on the page
}

function watch() {
  source = new EventSource(`/api/live/${encodeURIComponent(matchId)}/events`);
  let pending = false;
  // Events come in bursts (the backlog of a match joined late): draw once per frame.
  const redraw = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; draw(); });
  };
  const on = (name, handler) => source.addEventListener(name, (event) => { handler(JSON.parse(event.data)); redraw(); });
  const state = (e) => {
    if (e.spectator) live.view = e.spectator;
    if (e.scores && e.scores.length) live.scores = e.scores;
    if (e.to_move) live.toMove = e.to_move;
    else if (e.seat !== undefined && !e.to_move) live.toMove = null;
    if (e.clocks) { live.clocks = e.clocks; live.clocksAt = performance.now(); }
  };
  on("match", (m) => {
    // A reconnect starts over from the backlog.
    Object.assign(live, { match: m, moves: [], decisions: 0, view: null, scores: null, toMove: null, clocks: null, faults: [], omniscient: null, ended: null, result: null });
    moveList.replaceChildren();
    group = null;
    $("title").textContent = tv ? tvName() : `${m.title}: live`;
    document.title = tv ? `${tvName()} · Premiere` : `${m.title} live · Premiere`;
    $("status").textContent = "connected";
    document.body.dataset.ready = "true";
  });
  // A decision, then the moves the engine applied on its own right after it.
  const moved = (e) => {
    addMove({ ply: e.ply, seat: e.seat, text: e.text, group: e.group, forced: false, defaulted: e.defaulted });
    for (const f of e.forced || []) addMove({ ply: e.ply, seat: f.seat, text: f.text, group: f.group ?? e.group, forced: true });
  };
  on("move", (e) => {
    moved(e);
    state(e);
  });
  // The moves so far in one event (a new viewer's, a lagging one's): their words, one view.
  on("backlog", (e) => {
    for (const move of e.moves || []) moved(move);
    live.faults.push(...(e.faults || []));
    if (e.omniscient) live.omniscient = { ply: e.omniscient.ply, seats: e.omniscient.seats, spectator: e.omniscient.spectator };
    state(e);
  });
  on("fault", (e) => live.faults.push(e));
  on("omniscient", (e) => {
    live.omniscient = { ply: e.ply, seats: e.seats, spectator: e.spectator };
  });
  on("end", (e) => {
    live.ended = e;
    live.result = endResult(e);
    // How the scores were made: told by the match API once it has ended.
    if (e.status === "finished") {
      api(`/api/matches/${encodeURIComponent(matchId)}/views`)
        .then((views) => { live.breakdown = views.breakdown || null; redraw(); })
        .catch(() => {});
    }
    if (live.result && live.result.scores && live.result.scores.length) live.scores = live.result.scores;
    source.close();
    clearInterval(ticking);
    $("status").textContent = tv ? "ended · the channel moves on to the next match in a few seconds" : "ended";
    if (tv) schedule(TV_PAUSE_MS);
  });
  on("problem", (e) => showError(new Error(e.error)));
  source.onerror = () => {
    if (live.ended) return;
    if (source.readyState === EventSource.CLOSED) {
      // Refused outright: an unknown match, or the ladder is showing all it can right now.
      $("status").textContent = "";
      showError(new Error("This match cannot be watched live: it does not exist, or the ladder is showing as many live matches as it may; try again later."));
    } else {
      $("status").textContent = "reconnecting…";
    }
  };
  ticking = setInterval(tickClocks, 250);
}

let ticking = null;

// --- the TV channel ----------------------------------------------------------------------------

const TV_PAUSE_MS = 5000; // the result stays on screen this long before the next match
const TV_POLL_MS = 3000; // how often an idle channel, or one watching a match, asks again

function tvName() {
  return tv.game ? `${gameName(tv.game)} TV` : "Premiere TV";
}

// Ask the channel which match to show; switch to it when it is another one (a new match after
// the end, or one the operator pinned meanwhile), or say that nothing is being played.
async function tune() {
  let found;
  try {
    found = await api(tv.game ? `/api/tv/${encodeURIComponent(tv.game)}` : "/api/tv");
  } catch (error) {
    if (error.status === 404) {
      notFound("No such channel", `There is no game ${JSON.stringify(tv.game)}, so no channel for it.`, "/tv", "Watch Premiere TV");
      return;
    }
    showError(error);
    schedule(TV_POLL_MS);
    return;
  }
  showError(null);
  const pick = found.match;
  const watching = matchId !== null && !live.ended;
  if (!pick) {
    if (!watching) {
      matchId = null;
      $("title").textContent = tvName();
      document.title = `${tvName()} · Premiere`;
      $("status").textContent = "waiting for a match";
      fill($("content"), el("section", { id: "tv-idle" },
        el("p", { class: "empty", id: "tv-empty", text: "No match is being played right now: the channel shows the next one as soon as it starts." })));
      document.body.dataset.ready = "true";
      delete document.body.dataset.tvMatch;
    }
  } else if (pick.match_id !== matchId && (!watching || pick.pinned)) {
    if (source) source.close();
    clearInterval(ticking);
    matchId = pick.match_id;
    delete document.body.dataset.ended;
    Object.assign(live, { ended: null, breakdown: null });
    document.body.dataset.tvMatch = matchId;
    tvReason = pick.pinned
      ? "pinned by the operator"
      : `the highest-rated table being played (its players average ${Math.round(pick.rating)} live Elo)`;
    watch();
  }
  if (!live.ended || !matchId) schedule(TV_POLL_MS);
}

let tvReason = "";
let tvTimer = null;

function schedule(ms) {
  clearTimeout(tvTimer);
  tvTimer = setTimeout(tune, ms);
}

async function main() {
  $("nav").replaceWith(nav(tv ? "/tv" : matchId ? "" : "/live"));
  if (tv) return tune();
  if (!matchId) return refreshList();
  watch();
}

main();
