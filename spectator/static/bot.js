// A bot's page: /bots/<name> (or builtin:<name>). Its ratings per game with their history, its
// recent matches, and its health as the arbiter recorded it: faults by kind, forfeits and
// decision latency over the last day and week. Reads /api/bots/<name>.

import { $, api, botLink, el, gameName, nav, showError, when } from "./common.js";

const player = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());

function spark(points) {
  // A small inline SVG line of the live Elo after each rated match.
  if (points.length < 2) return el("span", { class: "muted small", text: "one match so far" });
  const low = Math.min(...points);
  const high = Math.max(...points);
  const span = high - low || 1;
  const w = 400;
  const h = 60;
  const path = points
    .map((p, i) => `${i ? "L" : "M"}${((i / (points.length - 1)) * w).toFixed(1)},${(h - 4 - ((p - low) / span) * (h - 8)).toFixed(1)}`)
    .join(" ");
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("class", "spark");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `live Elo from ${points[0].toFixed(0)} to ${points[points.length - 1].toFixed(0)}`);
  const line = document.createElementNS("http://www.w3.org/2000/svg", "path");
  line.setAttribute("d", path);
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "#2563eb");
  line.setAttribute("stroke-width", "2");
  svg.append(line);
  return svg;
}

function ratings(profile) {
  if (profile.ratings.length === 0) return el("p", { class: "empty", text: "No rated matches yet." });
  return el(
    "table",
    { class: "grid", id: "ratings" },
    el("thead", {}, el("tr", {}, ["Game", "Live Elo", "Games", "History (last 200)"].map((t) => el("th", { text: t })))),
    el(
      "tbody",
      {},
      profile.ratings.map((r) =>
        el(
          "tr",
          { "data-game": r.game },
          el("td", {}, el("a", { href: `/?game=${encodeURIComponent(r.game)}#game=${encodeURIComponent(r.game)}&player=${encodeURIComponent(profile.player)}`, text: gameName(r.game) })),
          el("td", { class: "num elo", text: r.elo.toFixed(0) }),
          el("td", { class: "num", text: r.games }),
          el("td", {}, spark(r.history)),
        ),
      ),
    ),
  );
}

function health(profile) {
  const kinds = [...new Set(profile.health.flatMap((h) => Object.keys(h.faults)))];
  const row = (label, cells, bad = () => false) =>
    el("tr", { "data-row": label }, el("th", { scope: "row", text: label }),
      cells.map((c) => el("td", { class: `num${bad(c) ? " bad" : ""}`, text: c ?? "–" })));
  const windows = profile.health;
  return el(
    "table",
    { class: "grid health", id: "health" },
    el("thead", {}, el("tr", {}, el("th", {}), windows.map((h) => el("th", { class: "num", text: `last ${h.window}` })))),
    el(
      "tbody",
      {},
      row("matches", windows.map((h) => h.matches)),
      row("decisions", windows.map((h) => h.decisions)),
      kinds.map((k) => row(k, windows.map((h) => h.faults[k]), (c) => c > 0)),
      row("forfeits", windows.map((h) => h.forfeits), (c) => c > 0),
      ["p50", "p90", "p99", "max"].map((q) => row(`latency ${q} (ms)`, windows.map((h) => h.latency_ms[q]))),
    ),
  );
}

function recent(profile) {
  if (profile.recent.length === 0) return el("p", { class: "empty", text: "No matches yet." });
  return el(
    "table",
    { class: "grid", id: "recent" },
    el("thead", {}, el("tr", {}, ["Game", "When", "Seat", "Result", "Players", ""].map((t) => el("th", { text: t })))),
    el(
      "tbody",
      {},
      profile.recent.map((m) =>
        el(
          "tr",
          { "data-match": m.match_id },
          el("td", { text: gameName(m.game) }),
          el("td", { text: m.finished_at ? when(m.finished_at) : m.status }),
          el("td", { class: "num", text: m.seat }),
          el("td", { text: m.rank ? `#${m.rank} of ${m.seats} (${m.score})${m.forfeited ? " forfeited" : ""}` : m.status }),
          el("td", {}, m.players.map((p, i) => [i ? ", " : "", botLink(p)])),
          el("td", {}, el("a", { class: "watch", href: m.status === "running" ? `/live/${m.match_id}` : `/replay/${m.match_id}`, text: m.status === "running" ? "watch live" : "replay" })),
        ),
      ),
    ),
  );
}

async function main() {
  $("nav").replaceWith(nav(""));
  try {
    const profile = await api(`/api/bots/${encodeURIComponent(player)}`);
    document.title = `${profile.player} · Premiere`;
    $("title").textContent = profile.player;
    const facts = [
      ["kind", profile.builtin ? "built-in bot" : "registered bot"],
      profile.registered_at ? ["registered", when(profile.registered_at)] : null,
      profile.builtin ? null : ["last connected", profile.last_connected_at ? when(profile.last_connected_at) : "never"],
      profile.removed ? ["removed", "yes"] : null,
      profile.games_declared ? ["plays", profile.games_declared.length ? profile.games_declared.map(gameName).join(", ") : "every game"] : null,
    ].filter(Boolean);
    $("content").replaceChildren(
      el("section", {}, el("dl", { class: "facts inline" }, facts.map(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })]))),
      el("section", { id: "ratings-section" }, el("h2", { text: "Ratings" }), ratings(profile)),
      el("section", { id: "health-section" }, el("h2", { text: "Health" }),
        el("p", { class: "muted small", text: "Faults the arbiter charged to this bot (timeouts, illegal and malformed answers, disconnects), forfeits, and how long it took to answer, over matches started in the window." }),
        health(profile)),
      el("section", { id: "recent-section" }, el("h2", { text: "Recent matches" }), recent(profile)),
    );
    $("status").textContent = "";
    document.body.dataset.ready = "true";
  } catch (error) {
    $("status").textContent = "";
    showError(error);
  }
}

main();
