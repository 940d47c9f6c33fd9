// The events as one table, for the home page and /events: name, state, game and format, the
// entry window and start, entrants, and the league it became.

import { el, gameName, when } from "./common.js";

const STATE = {
  announced: "announced",
  open: "open for entry",
  running: "running",
  finished: "finished",
  paused: "paused",
  cancelled: "cancelled",
};

export function stateWords(status) {
  return STATE[status] || status;
}

export function eventsTable(events) {
  if (events.length === 0) return el("p", { class: "empty", id: "events-empty", text: "No events yet." });
  return el("div", { class: "scroll-box" }, el(
    "table",
    { class: "grid", id: "events" },
    el("thead", {}, el("tr", {}, ["Event", "State", "Game", "Format", "Entry opens", "Starts", "Entrants"].map((t) => el("th", { text: t })))),
    el("tbody", {}, events.map((e) =>
      el("tr", { "data-event": e.name },
        el("td", {}, el("a", { href: `/events/${encodeURIComponent(e.name)}`, text: e.name })),
        el("td", { "data-column": "state", text: stateWords(e.status) }),
        el("td", { text: gameName(e.game) }),
        el("td", { text: `${e.format}, ${e.players} seats` }),
        el("td", { text: when(e.opens_at) }),
        el("td", { text: when(e.starts_at) }),
        el("td", { "data-column": "entrants", text: String(e.entrants) })))),
  ));
}
