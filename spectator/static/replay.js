// A match's visual replay: /replay/<match>?ply=N&seen=spectator|all|<seat>[&speed=MS][&renderer=generic].
// The ladder sends the engine's views for every frame (/api/matches/<match>/views) with each
// move told in words by the game (frame.text), every seat's score (frame.scores) and the
// group a move is listed under (frame.group); renderers.js draws the views. A running match
// has only spectator views and no moves; an ended one has every seat's view, shown by default.
//
// Layout: the controls stay at the top of the board as it scrolls; the move list is a column
// of its own that scrolls by itself (stepping never scrolls the page); the score graph sits
// under the board; the result banner shows on the last frame.

import { $, api, botLink, breakdownSection, el, nav, notFound, showError, words } from "./common.js";
import { frameScores, renderFrame } from "./renderers.js";

const matchId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const params = new URLSearchParams(location.search);
// ?renderer=generic draws with the renderer a game without one of its own gets.
const generic = params.get("renderer") === "generic";
const SPEEDS = [["1500", "slow"], ["700", "normal"], ["300", "fast"], ["100", "fastest"]];
const ENDED = new Set(["finished", "void"]);

let replay = null;
let index = 0; // frames[index]; frame 0 is the table before the first decision
let timer = null;
let chart = null;
let defaultViewer = "spectator";

// The API sends each frame's changes only (spectator/replays.py, compact): rebuild whole views.
function expand(body) {
  let spectator = {};
  body.frames = body.frames.map((frame) => {
    spectator = { ...spectator, ...frame.spectator };
    const seats = frame.seats === null || frame.seats === undefined ? null : frame.seats.map((seat) => ({ ...spectator, ...seat }));
    return { ...frame, spectator, seats };
  });
  return body;
}

function who(seat) {
  return replay.players[seat] ?? `seat ${seat + 1}`;
}

// A move as words when the replay has no text for it (an older replay): its fields, no JSON.
function moveWords(move) {
  if (move === null || move === undefined) return "moved";
  if (typeof move !== "object") return `played ${move}`;
  const { kind, ...rest } = move;
  const parts = Object.entries(rest).map(([k, v]) =>
    `${k.replaceAll("_", " ")} ${Array.isArray(v) ? v.join(" and ") : v !== null && typeof v === "object" ? Object.values(v).join(" ") : v}`);
  return [kind ?? "played", parts.length ? `(${parts.join(", ")})` : ""].filter(Boolean).join(" ");
}

function moveText(frame) {
  if (frame.ply === null && !frame.text) return "Before the first decision.";
  if (typeof frame.text === "string" && frame.text) return frame.text;
  return `${who(frame.seat)} ${moveWords(frame.move)}`;
}

function describeMove(i) {
  const frame = replay.frames[i];
  if (i === 0) return frame.text ? `Start: ${frame.text}` : "Before the first decision.";
  const tags = [frame.forced ? "forced" : null, frame.defaulted ? "defaulted by the arbiter" : null].filter(Boolean);
  return `Move ${i}: ${moveText(frame)}${tags.length ? ` (${tags.join(", ")})` : ""}`;
}

function viewer() {
  const chosen = $("viewer").value;
  if (chosen === "spectator") return null;
  if (chosen === "all") return "all";
  return Number(chosen);
}

function url() {
  const query = new URLSearchParams();
  query.set("ply", String(index));
  if ($("viewer").value !== defaultViewer) query.set("seen", $("viewer").value);
  if (params.get("speed")) query.set("speed", $("speed").value);
  if (generic) query.set("renderer", "generic");
  return `${location.pathname}?${query}`;
}

// Keep the current move visible inside the move list, scrolling only the list itself.
function keepInList(item) {
  const list = $("moves");
  const box = list.getBoundingClientRect();
  const row = item.getBoundingClientRect();
  // Out of view: bring it to the middle of the list, so the moves around it show too.
  if (row.top < box.top + 24 || row.bottom > box.bottom - 24) {
    list.scrollTop += row.top - box.top - (box.height - row.height) / 2;
  }
}

function show(next, push = false) {
  index = Math.max(0, Math.min(replay.frames.length - 1, next));
  const frame = replay.frames[index];
  const last = index === replay.frames.length - 1;
  const toMove = !last ? replay.frames[index + 1].seat : null;
  $("table").replaceChildren(
    renderFrame(replay.game, frame, { players: replay.players, viewer: viewer(), toMove, generic, labels: replay.labels }),
  );
  $("replay").dataset.index = String(index);
  $("scrub").value = String(index);
  $("jump").value = String(index);
  $("position").textContent = `${index} / ${replay.frames.length - 1}`;
  $("move").replaceChildren(...words(describeMove(index)),
    ...(frame.note ? [el("span", { class: "bot-note", id: "move-note", text: ` · ${who(frame.seat)}'s note: ${frame.note}` })] : []));
  $("move").classList.toggle("forced", Boolean(frame.forced));
  $("back").disabled = $("first").disabled = index === 0;
  $("forward").disabled = $("last").disabled = last;
  const banner = last && ENDED.has(replay.status);
  $("banner").hidden = !banner;
  $("replay").dataset.last = String(last);
  for (const item of $("moves").querySelectorAll("li[data-index]")) {
    const current = Number(item.dataset.index) === index;
    item.classList.toggle("current", current);
    if (current) {
      item.setAttribute("aria-current", "step");
      keepInList(item);
    } else item.removeAttribute("aria-current");
  }
  if (chart) {
    chart.$current = index;
    chart.draw();
  }
  $("share").href = url();
  history[push ? "pushState" : "replaceState"](null, "", url());
  if (last) pause();
}

function play() {
  if (index === replay.frames.length - 1) show(0);
  $("play").textContent = "⏸ Pause";
  $("replay").dataset.playing = "true";
  timer = setInterval(() => show(index + 1), Number($("speed").value));
}

function pause() {
  clearInterval(timer);
  timer = null;
  $("play").textContent = "▶ Play";
  $("replay").dataset.playing = "false";
}

// The result as the replay states it (result), else as the outcome records it.
function result() {
  if (replay.result) return replay.result;
  const outcome = replay.outcome;
  if (!outcome || !outcome.ranks) return null;
  const winners = outcome.ranks.flatMap((rank, seat) => (rank === 1 ? [seat] : []));
  // A tie-break decided the top places when seats level on score were ranked apart.
  const top = Math.max(...outcome.scores);
  const level = outcome.scores.flatMap((s, seat) => (s === top ? [seat] : []));
  let tiebreaks = "";
  if (level.length > 1 && new Set(level.map((s) => outcome.ranks[s])).size > 1) {
    const used = (outcome.tiebreaks || []).find((t) => new Set(level.map((s) => t.values[s])).size > 1);
    if (used) tiebreaks = `${used.name} (${level.map((s) => `${who(s)} ${used.values[s]}`).join(", ")})`;
  }
  return { winners, scores: outcome.scores, tiebreaks, text: "" };
}

function drawBanner() {
  const box = $("banner");
  const r = result();
  if (!r) {
    box.replaceChildren(el("strong", { class: "winner", text: `The match ended (${replay.status}) without a result.` }));
    return;
  }
  const names = r.winners.map(who);
  const ranks = replay.outcome && replay.outcome.ranks;
  const order = replay.players.map((_, seat) => seat).sort((a, b) =>
    (ranks ? ranks[a] - ranks[b] : 0) || (r.scores[b] ?? 0) - (r.scores[a] ?? 0) || a - b);
  const parts = [
    el("strong", { class: "winner", text: names.length === 1 ? `${names[0]} wins` : names.length ? `Shared win: ${names.join(", ")}` : "No winner" }),
    el("ol", { class: "final-scores" }, order.map((seat) =>
      el("li", { class: r.winners.includes(seat) ? "won" : "" }, el("span", { class: "who", text: who(seat) }), " ",
        el("span", { class: "score", text: String(r.scores[seat] ?? "–") })))),
    el("span", { class: "tiebreaks", text: `Tie-breaks: ${r.tiebreaks ? r.tiebreaks : "none needed"}` }),
    // The game's sentence says what the parts above cannot: a solo match against its reference.
    r.text && r.scores.length === 1 ? el("p", { class: "result-text" }, words(r.text)) : null,
    replay.outcome && replay.outcome.forfeited && replay.outcome.forfeited.length
      ? el("p", { class: "muted small", text: `Forfeited: ${replay.outcome.forfeited.map(who).join(", ")}` })
      : null,
    replay.breakdown ? breakdownSection(replay.breakdown) : null,
  ];
  box.replaceChildren(...parts.filter(Boolean));
  box.title = r.text || "";
}

const PALETTE = ["#2563eb", "#dc2626", "#16a34a", "#ca8a04", "#9333ea", "#ea580c", "#0891b2", "#4b5563"];

function drawGraph() {
  const series = replay.frames.map((frame) => frameScores(replay.game, frame, generic));
  const section = document.querySelector(".graph");
  if (!series.some(Boolean) || typeof window.Chart !== "function") {
    section.hidden = true;
    return;
  }
  const marker = {
    id: "current",
    afterDatasetsDraw(c) {
      const x = c.scales.x.getPixelForValue(c.$current ?? 0);
      const { top, bottom } = c.chartArea;
      c.ctx.save();
      c.ctx.strokeStyle = "#111827";
      c.ctx.setLineDash([4, 3]);
      c.ctx.beginPath();
      c.ctx.moveTo(x, top);
      c.ctx.lineTo(x, bottom);
      c.ctx.stroke();
      c.ctx.restore();
    },
  };
  chart = new window.Chart($("score-graph"), {
    type: "line",
    data: {
      labels: replay.frames.map((_, i) => i),
      datasets: replay.players.map((name, seat) => ({
        label: name,
        data: series.map((scores) => (scores ? scores[seat] : null)),
        borderColor: PALETTE[seat % PALETTE.length],
        backgroundColor: PALETTE[seat % PALETTE.length],
        pointRadius: 0,
        borderWidth: 2,
        stepped: true,
      })),
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      interaction: { mode: "index", intersect: false },
      scales: { x: { title: { display: true, text: "move" }, ticks: { maxTicksLimit: 12 } }, y: { beginAtZero: true } },
      plugins: { legend: { position: "bottom" } },
      onClick: (_, elements) => {
        if (elements.length) {
          pause();
          show(elements[0].index, true);
        }
      },
    },
    plugins: [marker],
  });
}

function moveList() {
  const items = [];
  let group = null;
  let list = null;
  replay.frames.forEach((frame, i) => {
    if (i === 0) return;
    const name = frame.group ?? null;
    if (list === null || name !== group) {
      group = name;
      list = el("ol", { class: "group-moves" });
      items.push(el("li", { class: "group" }, name ? el("h3", { class: "group-name", text: name }) : null, list));
    }
    list.append(
      el(
        "li",
        { "data-index": i, class: frame.forced ? "forced" : undefined },
        el("button", {
          type: "button",
          class: "link",
          onclick: () => { pause(); show(i, true); },
        }, el("span", { class: "n", text: `${i}.` }), " ", words(moveText(frame)),
        frame.forced ? el("span", { class: "tag", text: "forced" }) : null,
        frame.defaulted ? el("span", { class: "tag", text: "defaulted" }) : null),
        // The bot's note on this decision: the replay carries it only once the match ended.
        frame.note ? el("p", { class: "bot-note", text: `${who(frame.seat)}'s note: ${frame.note}` }) : null,
      ),
    );
  });
  // Frame 0 first, as a move of its own, so Home shows as the current row.
  items.unshift(el("li", { "data-index": 0, class: "start" },
    el("button", { type: "button", class: "link", onclick: () => { pause(); show(0, true); }, text: "Start of the match" })));
  $("moves").replaceChildren(...items);
}

function setup() {
  const outcome = replay.outcome;
  document.title = `${replay.title} replay · Premiere`;
  $("title").textContent = `${replay.title}: replay`;
  $("facts").replaceChildren(
    ...[el("dt", { text: "Match" }), el("dd", {}, el("code", { class: "match-id", text: replay.match_id })),
    el("dt", { text: "Status" }), el("dd", { text: `${replay.status}${replay.rated ? ", rated" : replay.unrated_reason ? `, unrated: ${String(replay.unrated_reason).replaceAll("_", " ")}` : ""}` }),
    el("dt", { text: "Players" }),
    el("dd", {}, replay.players.map((p, seat) => [
      seat ? ", " : "",
      botLink(p),
      outcome && outcome.ranks ? ` (#${outcome.ranks[seat]}, ${outcome.scores[seat]})` : "",
    ])),
    replay.status === "running"
      ? [el("dt", { text: "Live" }), el("dd", {}, el("a", { href: `/live/${replay.match_id}`, text: "watch it live" }))]
      : [],
    // How this game scores, said once; the last move shows how each seat's score was made.
    replay.breakdown
      ? [el("dt", { text: "Scoring" }), el("dd", { id: "score-rules", class: "score-rules", text: replay.breakdown.rules })]
      : [],
  ].flat());
  const seen = [["spectator", "the spectator"]];
  if (replay.seat_views) {
    seen.push(["all", "every seat (all hands)"]);
    replay.players.forEach((p, seat) => seen.push([String(seat), `seat ${seat + 1}: ${p}`]));
    defaultViewer = "all"; // a finished match opens with every hand shown
  }
  $("viewer").replaceChildren(...seen.map(([v, text]) => el("option", { value: v, text })));
  const wanted = params.get("seen");
  $("viewer").value = wanted && seen.some(([v]) => v === wanted) ? wanted : defaultViewer;
  const speeds = [...SPEEDS];
  const asked = params.get("speed");
  if (asked && !speeds.some(([v]) => v === asked)) speeds.push([String(Math.max(50, Number(asked) || 700)), `${asked} ms a move`]);
  $("speed").replaceChildren(...speeds.map(([v, text]) => el("option", { value: v, text })));
  $("speed").value = asked ? String(Math.max(50, Number(asked) || 700)) : "700";
  $("scrub").max = String(replay.frames.length - 1);
  $("jump").max = String(replay.frames.length - 1);
  moveList();
  if (ENDED.has(replay.status)) drawBanner();
  drawGraph();
  if (replay.truncated) showError(new Error("This match is longer than a replay shows; it is cut short."));
  $("status").textContent = `${replay.frames.length - 1} moves${replay.seat_views ? "" : " · spectator view only while the match runs"}`;
}

const KEYS = {
  ArrowRight: () => show(index + 1),
  ArrowLeft: () => show(index - 1),
  Home: () => show(0, true),
  End: () => show(replay.frames.length - 1, true),
};

async function main() {
  $("nav").replaceWith(nav(""));
  try {
    replay = expand(await api(`/api/matches/${encodeURIComponent(matchId)}/views`));
  } catch (error) {
    if (error.status === 404) {
      notFound("No such match", `There is no replay of match ${matchId}: it was never created, or has not started yet.`, "/live", "See the matches being played now");
      return;
    }
    $("status").textContent = "";
    showError(error);
    return;
  }
  setup();
  $("first").addEventListener("click", () => { pause(); show(0, true); });
  $("back").addEventListener("click", () => { pause(); show(index - 1); });
  $("forward").addEventListener("click", () => { pause(); show(index + 1); });
  $("last").addEventListener("click", () => { pause(); show(replay.frames.length - 1, true); });
  $("play").addEventListener("click", () => (timer ? pause() : play()));
  $("scrub").addEventListener("input", () => { pause(); show(Number($("scrub").value)); });
  $("jump").addEventListener("change", () => { pause(); show(Number($("jump").value), true); });
  $("viewer").addEventListener("change", () => show(index));
  $("speed").addEventListener("change", () => {
    if (timer) { pause(); play(); }
    show(index);
  });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
    if (target instanceof HTMLInputElement && target.type !== "range") return;
    // The range input moves itself with the arrows; Home/End and the page's own scrolling are ours.
    if (KEYS[event.key]) {
      event.preventDefault();
      pause();
      KEYS[event.key]();
    } else if (event.key === " " && !(target instanceof HTMLButtonElement)) {
      event.preventDefault();
      timer ? pause() : play();
    }
  });
  window.addEventListener("popstate", () => show(Number(new URLSearchParams(location.search).get("ply")) || 0));
  show(Number(params.get("ply")) || 0);
  document.body.dataset.ready = "true";
}

main();
