// The movie-fight renderer (see renderers.js): the engine's views of a match, drawn.

import { el } from "../common.js";
import { block, cards, facts, label, muted, rest, seatBoxes, value } from "./kit.js";

export function movieFight(frame, ctx) {
  const v = ctx.view;
  const named = (id) => (typeof id === "number" ? ctx.label("card", id) : null);
  const table = seatBoxes(ctx, v, (seat) => {
    const cinema = v.cinemas[seat];
    return [
      facts([
        ["tickets", v.tickets[seat]],
        ["cinema", cinema ? ctx.label("tile", cinema.tile) ?? `tile ${cinema.tile}` : undefined],
        seat === v.active ? ["role", "active player"] : ["role", undefined],
      ]),
      cinema
        ? el("ol", { class: "floors" }, cinema.floors.map((floor, i) =>
            el("li", { class: "floor" }, muted(`floor ${i + 1}`),
              el("div", {}, muted("audience: "), cards(floor.audience, "", named)),
              el("div", {}, muted("screens: "), cards(floor.screens, "", named)))))
        : null,
    ];
  });
  return el(
    "div",
    { class: "table movie-fight" },
    facts([
      ["round", `${v.round} of ${v.rounds}`],
      ["phase", v.phase],
      ["side", v.side],
      ["active", ctx.players[v.active]],
      ["deck", v.deck],
      ["automa score", v.automa_score ?? undefined],
    ]),
    table,
    block("Offer", cards(v.offer, "", named)),
    v.automa ? block("Automa", value(v.automa)) : null,
    rest(v, ["players", "round", "rounds", "phase", "side", "turn", "active", "deck", "offer", "cinemas",
      "tickets", "scores", "automa", "automa_score"]),
  );
}
movieFight.scores = (v) => v.scores;
