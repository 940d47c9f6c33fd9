// An author's page: /authors/<name>. The account's bots (every version not removed) with their
// standing and live Elo per game; reads /api/authors/<name>. An account shows nothing private:
// no token, no fault detail.

import { botsTable } from "./bots_table.js";
import { $, api, fill, notFound, el, nav, showError, when } from "./common.js";

const name = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());

async function main() {
  $("nav").replaceWith(nav(""));
  try {
    const author = await api(`/api/authors/${encodeURIComponent(name)}`);
    document.title = `${author.name} · Premiere`;
    $("title").textContent = author.name;
    fill($("content"),
      el("section", { id: "author-section" },
        el("dl", { class: "facts inline" },
          el("dt", { text: "account" }), el("dd", { id: "author-state", text: author.state === "active" ? "active" : "disabled by the operator" }),
          el("dt", { text: "since" }), el("dd", { text: when(author.created_at) }),
          el("dt", { text: "bots" }), el("dd", { text: String(new Set(author.bots.map((b) => b.player.split("@")[0])).size) }))),
      el("section", { id: "bots-section" }, el("h2", { text: "Bots" }), botsTable(author.bots, "No bots yet.")));
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
