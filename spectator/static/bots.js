// Every bot: /bots lists the registered bots and their versions (not removed), each with its
// standing and live Elo per game, then the built-ins that have played rated matches. Reads
// /api/bots; each name links to the bot's own page.

import { botsTable } from "./bots_table.js";
import { $, api, el, nav, showError } from "./common.js";

async function main() {
  $("nav").replaceWith(nav("/bots"));
  try {
    const { bots } = await api("/api/bots");
    $("content").replaceChildren(el("section", { id: "bots-section" }, botsTable(bots)));
    $("status").textContent = "";
    document.body.dataset.ready = "true";
  } catch (error) {
    $("status").textContent = "";
    showError(error);
  }
}

main();
