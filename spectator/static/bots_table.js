// The table of bots shared by /bots and /authors/<name>: each bot (a version marked active),
// its author, standing, live Elo per game and last connection.

import { botLink, el, gameName, when } from "./common.js";

// One line per game, so the column stays narrow however many games a bot plays.
function ratings(entry) {
  const games = Object.entries(entry.ratings);
  if (games.length === 0) return "–";
  return games.map(([game, r]) => el("div", { class: "rating-line", text: `${gameName(game)} ${r.elo.toFixed(0)} (${r.games})` }));
}

// `withAuthor` false on an author's own page, which need not repeat its name on every row.
export function botsTable(bots, empty = "No bots yet.", withAuthor = true) {
  if (bots.length === 0) return el("p", { class: "empty", id: "bots-empty", text: empty });
  return el("div", { class: "scroll-box" }, el("table", { class: "grid", id: "bots" },
    el("thead", {}, el("tr", {}, ["Bot", withAuthor ? "Author" : null, "Standing", "Live Elo (rated games)", "Last connected"].filter(Boolean).map((t) => el("th", { text: t })))),
    el("tbody", {}, bots.map((b) =>
      el("tr", { "data-bot": b.player },
        el("td", {}, botLink(b.player), b.version && b.active ? el("span", { class: "muted small", text: " active" }) : null),
        withAuthor ? el("td", {}, b.account ? el("a", { href: `/authors/${encodeURIComponent(b.account)}`, text: b.account }) : "") : null,
        el("td", {}, el("span", { class: `standing-badge standing-${b.standing || "none"}`, text: b.builtin ? "built-in" : b.standing || "not connected yet" })),
        el("td", { class: "ratings" }, ratings(b)),
        el("td", { text: b.builtin ? "" : b.last_connected_at ? when(b.last_connected_at) : "never" }))))));
}

