// A match's visual replay: /replay/<match>?ply=N&seen=spectator|all|<seat>[&renderer=generic]. The ladder sends
// the engine's views for every ply (/api/matches/<match>/views); renderers.js draws them. A
// running match has only spectator views and no moves; an ended one has every seat's view.

import { $, api, botLink, el, gameName, nav, showError } from "./common.js";
import { renderFrame } from "./renderers.js";

const matchId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const params = new URLSearchParams(location.search);
const speed = Math.max(50, Number(params.get("speed")) || 700);
// ?renderer=generic draws with the renderer a game without one of its own gets.
const generic = params.get("renderer") === "generic";

let replay = null;
let index = 0; // frames[index]; frame 0 is the table before the first decision
let timer = null;

// The API sends each frame's changes only (ladder/replays.py, compact): rebuild whole views.
function expand(body) {
  let spectator = {};
  body.frames = body.frames.map((frame) => {
    spectator = { ...spectator, ...frame.spectator };
    const seats = frame.seats === null ? null : frame.seats.map((seat) => ({ ...spectator, ...seat }));
    return { ...frame, spectator, seats };
  });
  return body;
}

function describeMove(frame) {
  if (frame.ply === null) return "Before the first decision.";
  const who = replay.players[frame.seat] ?? `seat ${frame.seat}`;
  const what = frame.move === null ? "decided" : `played ${JSON.stringify(frame.move)}`;
  return `Move ${frame.ply + 1}: ${who} ${what}${frame.defaulted ? " (defaulted by the arbiter)" : ""}`;
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
  if ($("viewer").value !== "spectator") query.set("seen", $("viewer").value);
  return `${location.pathname}?${query}`;
}

function show(next, push = false) {
  index = Math.max(0, Math.min(replay.frames.length - 1, next));
  const frame = replay.frames[index];
  const toMove = index + 1 < replay.frames.length ? replay.frames[index + 1].seat : null;
  $("table").replaceChildren(
    renderFrame(replay.game, frame, { players: replay.players, viewer: viewer(), toMove, generic }),
  );
  $("replay").dataset.index = String(index);
  $("scrub").value = String(index);
  $("jump").value = String(index);
  $("position").textContent = `${index} / ${replay.frames.length - 1}`;
  $("move").textContent = describeMove(frame);
  $("back").disabled = $("first").disabled = index === 0;
  $("forward").disabled = $("last").disabled = index === replay.frames.length - 1;
  for (const item of $("moves").children) item.classList.toggle("current", Number(item.dataset.index) === index);
  const current = $("moves").querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
  $("share").href = url();
  history[push ? "pushState" : "replaceState"](null, "", url());
  if (index === replay.frames.length - 1) pause();
}

function play() {
  if (index === replay.frames.length - 1) show(0);
  $("play").textContent = "⏸ Pause";
  $("replay").dataset.playing = "true";
  timer = setInterval(() => show(index + 1), speed);
}

function pause() {
  clearInterval(timer);
  timer = null;
  $("play").textContent = "▶ Play";
  $("replay").dataset.playing = "false";
}

function setup() {
  const outcome = replay.outcome;
  document.title = `${replay.title} replay · Premiere`;
  $("title").textContent = `${replay.title}: replay`;
  $("facts").replaceChildren(
    ...[el("dt", { text: "Match" }), el("dd", {}, el("code", { text: replay.match_id })),
    el("dt", { text: "Status" }), el("dd", { text: `${replay.status}${replay.rated ? ", rated" : ""}` }),
    el("dt", { text: "Players" }),
    el("dd", {}, replay.players.map((p, seat) => [
      seat ? ", " : "",
      botLink(p),
      outcome && outcome.ranks ? ` (#${outcome.ranks[seat]}, ${outcome.scores[seat]})` : "",
    ])),
    replay.status === "running"
      ? [el("dt", { text: "Live" }), el("dd", {}, el("a", { href: `/live/${replay.match_id}`, text: "watch it live" }))]
      : [],
  ].flat());
  const seen = [["spectator", "the spectator"]];
  if (replay.seat_views) {
    seen.push(["all", "every seat (all hands)"]);
    replay.players.forEach((p, seat) => seen.push([String(seat), `seat ${seat}: ${p}`]));
  }
  $("viewer").replaceChildren(...seen.map(([v, text]) => el("option", { value: v, text })));
  const wanted = params.get("seen");
  if (wanted && seen.some(([v]) => v === wanted)) $("viewer").value = wanted;
  $("scrub").max = String(replay.frames.length - 1);
  $("jump").max = String(replay.frames.length - 1);
  $("moves").replaceChildren(
    ...replay.frames.slice(1).map((frame, i) =>
      el(
        "li",
        { "data-index": i + 1 },
        el("button", { type: "button", class: "link", onclick: () => { pause(); show(i + 1, true); }, text: describeMove(frame) }),
      ),
    ),
  );
  if (replay.truncated) showError(new Error("This match is longer than a replay shows; it is cut short."));
  $("status").textContent = `${replay.frames.length - 1} moves${replay.seat_views ? "" : " · spectator view only while the match runs"}`;
}

async function main() {
  $("nav").replaceWith(nav(""));
  try {
    replay = expand(await api(`/api/matches/${encodeURIComponent(matchId)}/views`));
  } catch (error) {
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
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    if (event.key === "ArrowRight") { pause(); show(index + 1); }
    else if (event.key === "ArrowLeft") { pause(); show(index - 1); }
    else if (event.key === "Home") { pause(); show(0); }
    else if (event.key === "End") { pause(); show(replay.frames.length - 1); }
    else if (event.key === " ") { event.preventDefault(); timer ? pause() : play(); }
  });
  window.addEventListener("popstate", () => show(Number(new URLSearchParams(location.search).get("ply")) || 0));
  show(Number(params.get("ply")) || 0);
  document.body.dataset.ready = "true";
}

main();
