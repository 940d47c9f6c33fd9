// Every bot: /bots lists the registered bots and their versions (not removed), each with its
// standing and live Elo per game, then the built-ins that have played rated matches. Reads
// /api/bots; each name links to the bot's own page.

import { $, api, botLink, el, gameName, nav, showError, when } from "./common.js";

function ratings(entry) {
  const games = Object.entries(entry.ratings);
  if (games.length === 0) return "–";
  return games.map(([game, r]) => `${gameName(game)} ${r.elo.toFixed(0)} (${r.games})`).join("; ");
}

function table(bots) {
  if (bots.length === 0) return el("p", { class: "empty", id: "bots-empty", text: "No bots yet." });
  return el("div", { class: "scroll-box" }, el("table", { class: "grid", id: "bots" },
    el("thead", {}, el("tr", {}, ["Bot", "Standing", "Live Elo (rated games)", "Last connected"].map((t) => el("th", { text: t })))),
    el("tbody", {}, bots.map((b) =>
      el("tr", { "data-bot": b.player },
        el("td", {}, botLink(b.player), b.version && b.active ? el("span", { class: "muted small", text: " active" }) : null),
        el("td", {}, el("span", { class: `standing-badge standing-${b.standing || "none"}`, text: b.builtin ? "built-in" : b.standing || "not connected yet" })),
        el("td", { text: ratings(b) }),
        el("td", { text: b.builtin ? "" : b.last_connected_at ? when(b.last_connected_at) : "never" }))))));
}

async function main() {
  $("nav").replaceWith(nav("/bots"));
  try {
    const { bots } = await api("/api/bots");
    $("content").replaceChildren(el("section", { id: "bots-section" }, table(bots)));
    $("status").textContent = "";
    document.body.dataset.ready = "true";
  } catch (error) {
    $("status").textContent = "";
    showError(error);
  }
}

main();
