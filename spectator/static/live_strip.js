// The dashboard's "being played now" strip: the matches running on the arbiter with their
// scores (a match waiting for a bot marked), each linking to its live page (/live/<match>).
// Refreshes with the page's ?refresh=SECONDS (default 5).

import { api, el, gameName } from "./common.js";

const SHOWN = 5;
const refreshSeconds = Math.max(0.5, Number(new URLSearchParams(location.search).get("refresh")) || 5);

async function refresh() {
  const section = document.getElementById("live-section");
  try {
    const { matches } = await api("/api/live");
    section.hidden = matches.length === 0;
    document.getElementById("live-count").textContent =
      `${matches.length} match${matches.length === 1 ? "" : "es"} being played`;
    document.getElementById("live-matches").replaceChildren(
      ...matches.slice(0, SHOWN).map((m) =>
        el("li", { "data-match": m.match_id },
          el("a", { class: "watch", href: `/live/${m.match_id}` }, el("span", { class: "live-dot" }),
            `${gameName(m.game)}: ${m.players.join(" vs ")}`),
          Array.isArray(m.scores) && m.scores.length ? el("span", { class: "small live-scores", text: ` · ${m.scores.join(" – ")}` }) : null,
          el("span", { class: "muted small", text: ` · ${m.decisions} decisions` }),
          m.waiting ? el("span", { class: "badge waiting-badge", text: "waiting for a bot" }) : null)),
    );
  } catch {
    section.hidden = true; // the page's own status line reports a ladder that does not answer
  }
  setTimeout(refresh, refreshSeconds * 1000);
}

refresh();
