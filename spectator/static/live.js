// Live matches. /live lists the matches being played (refreshing itself); /live/<match> shows
// one as it is played, from the server-sent events of /api/live/<match>/events (the arbiter's
// WatchMatch through the ladder): the spectator view after every decision, faults, the end.
// When the operator allows it for this match, every seat's view a number of moves behind.

import { $, api, botLink, el, gameName, nav, showError, when } from "./common.js";
import { renderFrame } from "./renderers.js";

const parts = location.pathname.split("/").filter(Boolean);
const matchId = parts.length > 1 ? decodeURIComponent(parts[1]) : null;
const refreshSeconds = Math.max(0.5, Number(new URLSearchParams(location.search).get("refresh")) || 3);

// --- the list ---------------------------------------------------------------------------------

async function refreshList() {
  try {
    const { matches } = await api("/api/live");
    $("content").replaceChildren(
      matches.length === 0
        ? el("p", { class: "empty", id: "live-empty", text: "No match is being played right now." })
        : el("table", { class: "grid", id: "live" },
            el("thead", {}, el("tr", {}, ["Game", "Players", "League", "Decisions", "Started", ""].map((t) => el("th", { text: t })))),
            el("tbody", {}, matches.map((m) =>
              el("tr", { "data-match": m.match_id },
                el("td", { text: gameName(m.game) }),
                el("td", {}, m.players.map((p, i) => [i ? ", " : "", botLink(p)])),
                el("td", {}, m.league ? el("a", { href: `/leagues/${encodeURIComponent(m.league)}`, text: m.league }) : ""),
                el("td", { class: "num", text: m.decisions }),
                el("td", { text: when(m.started_at) }),
                el("td", {}, el("a", { class: "watch", href: `/live/${m.match_id}` }, el("span", { class: "live-dot" }), "watch")))))),
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

const live = { match: null, frames: [], faults: [], omniscient: null, ended: null };

function draw() {
  const m = live.match;
  if (!m) return;
  const frame = live.frames[live.frames.length - 1];
  const facts = el("dl", { class: "facts inline" },
    el("dt", { text: "Match" }), el("dd", {}, el("code", { text: m.match_id })),
    el("dt", { text: "Players" }), el("dd", {}, m.players.map((p, i) => [i ? ", " : "", botLink(p)])),
    el("dt", { text: "Decisions" }), el("dd", { id: "decisions", text: Math.max(0, live.frames.length - 0) }));
  const lastMove = frame
    ? `Move ${frame.ply + 1}: ${m.players[frame.seat] ?? `seat ${frame.seat}`} decided${frame.defaulted ? " (defaulted by the arbiter)" : ""}`
    : "Waiting for the first decision…";
  const sections = [
    el("section", { id: "watch" }, facts,
      live.ended
        ? el("p", { class: "ended", id: "ended" }, `The match has ended (${live.ended.status}). `, el("a", { href: `/replay/${m.match_id}`, text: "Step through the replay, every hand shown" }))
        : el("p", { class: "muted small" }, el("span", { class: "live-dot" }), "live: the spectator's view, updated after every decision"),
      el("p", { class: "move-line", id: "last-move", text: lastMove }),
      el("div", { id: "table" }, frame ? renderFrame(m.game, frame, { players: m.players, viewer: null, toMove: null }) : null)),
  ];
  if (live.omniscient) {
    sections.push(el("section", { id: "omniscient" },
      el("h2", { text: `Every hand, ${m.omniscient_delay} moves behind (after move ${live.omniscient.ply + 1})` }),
      renderFrame(m.game, { spectator: live.omniscient.spectator, seats: live.omniscient.seats }, { players: m.players, viewer: "all", toMove: null })));
  }
  if (live.faults.length) {
    sections.push(el("section", { id: "faults" }, el("h2", { text: "Faults" }),
      el("ul", {}, live.faults.map((f) => el("li", { text: `move ${f.ply + 1}: ${m.players[f.seat] ?? "the arbiter"} ${f.kind} (${f.blame})` })))));
  }
  $("content").replaceChildren(...sections);
  document.body.dataset.moves = String(live.frames.length);
}

function watch() {
  const source = new EventSource(`/api/live/${encodeURIComponent(matchId)}/events`);
  const on = (name, handler) => source.addEventListener(name, (event) => { handler(JSON.parse(event.data)); draw(); });
  on("match", (m) => {
    // A reconnect starts over from the first decision.
    Object.assign(live, { match: m, frames: [], faults: [], omniscient: null, ended: null });
    $("title").textContent = `${m.title}: live`;
    document.title = `${m.title} live · Premiere`;
    $("status").textContent = "connected";
    document.body.dataset.ready = "true";
  });
  on("move", (e) => live.frames.push({ ply: e.ply, seat: e.seat, defaulted: e.defaulted, move: null, spectator: e.spectator, seats: null }));
  on("fault", (e) => live.faults.push(e));
  on("omniscient", (e) => {
    live.omniscient = { ply: e.ply, seats: e.seats, spectator: e.spectator };
  });
  on("end", (e) => {
    live.ended = e;
    source.close();
    $("status").textContent = "ended";
    document.body.dataset.ended = "true";
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
}

async function main() {
  $("nav").replaceWith(nav(matchId ? "" : "/live"));
  if (!matchId) return refreshList();
  watch();
}

main();
