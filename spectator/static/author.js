// An author's page: /authors/<name>. The account's bots (every version not removed) with their
// standing and live Elo per game; reads /api/authors/<name>. An account shows nothing private:
// no token, no fault detail.

import { botsTable } from "./bots_table.js";
import { $, api, botLink, fill, gameName, notFound, el, nav, showError, when } from "./common.js";

const name = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());

async function main() {
  $("nav").replaceWith(nav(""));
  try {
    const author = await api(`/api/authors/${encodeURIComponent(name)}`);
    document.title = `${author.name} · Premiere`;
    $("title").textContent = author.name;
    const families = new Set(author.bots.map((b) => b.player.split("@")[0])).size;
    const share = author.matches ? ` (${Math.round((author.wins / author.matches) * 100)}%)` : "";
    fill($("content"),
      el("section", { id: "author-section" },
        el("dl", { class: "facts inline", id: "author-facts" },
          el("dt", { text: "account" }), el("dd", { id: "author-state", text: author.state === "active" ? "active" : "disabled by the operator" }),
          el("dt", { text: "since" }), el("dd", { text: when(author.created_at) }),
          el("dt", { text: "bots" }), el("dd", { text: String(families) }),
          el("dt", { text: "matches played" }), el("dd", { id: "author-matches", text: String(author.matches) }),
          el("dt", { text: "won" }), el("dd", { id: "author-wins", text: `${author.wins}${share}` }))),
      el("section", { id: "bots-section" }, el("h2", { text: "Bots" }), botsTable(author.bots, "No bots yet.", false)),
      el("section", { id: "author-matches-section" }, el("h2", { text: "Latest matches" }),
        author.recent.length
          ? el("div", { class: "scroll-box" }, el("table", { class: "grid", id: "author-recent" },
            el("thead", {}, el("tr", {}, ["When", "Game", "Players", ""].map((t) => el("th", { text: t })))),
            el("tbody", {}, author.recent.map((m) =>
              el("tr", { "data-match": m.match_id },
                el("td", { text: m.status === "running" ? "playing now" : when(m.at) }),
                el("td", { text: gameName(m.game) }),
                el("td", {}, m.players.map((p, i) => [i ? ", " : "", botLink(p)])),
                el("td", {}, el("a", { class: "watch", href: m.status === "running" ? `/live/${m.match_id}` : `/replay/${m.match_id}`, text: m.status === "running" ? "watch live" : "replay" })))))))
          : el("p", { class: "empty", text: "No matches yet." })),
      el("section", { id: "author-leagues-section" }, el("h2", { text: "Leagues" }),
        author.leagues.length
          ? el("ul", { id: "author-leagues" }, author.leagues.map((l) =>
            el("li", {}, el("a", { href: `/leagues/${encodeURIComponent(l.name)}`, text: l.name }), ` · ${gameName(l.game)}, ${l.format}, ${l.status}`)))
          : el("p", { class: "empty", text: "In no league yet." })));
    $("status").textContent = "";
    document.body.dataset.ready = "true";
  } catch (error) {
    if (error.status === 404) {
      notFound("No such author", `There is no author ${JSON.stringify(name)}: the link may be mistyped.`, "/bots", "See every bot");
      return;
    }
    $("status").textContent = "";
    showError(error);
  }
}

main();
