// The motion-pictures renderer (see renderers.js): the engine's views of a match, drawn.

import { el } from "../common.js";
import { block, cards, facts, muted, rest, seatBoxes } from "./kit.js";

export function motionPictures(frame, ctx) {
  const v = ctx.view;
  const named = (c) => (c && typeof c === "object" ? c.name ?? null : null);
  const studio = (seat) => (v.studios ? v.studios[seat] : null);
  const table = seatBoxes(ctx, v, (seat) => {
    const s = studio(seat);
    return [
      s
        ? facts([
            ["fame", s.fame],
            ["hand", s.hand_size],
            ["draw pile", s.draw_size],
            ["trilogy cards", s.trilogy_size || undefined],
          ])
        : null,
      s && s.completed.length
        ? el("div", { class: "studio" }, muted(`${s.completed.length} completed: `),
            el("span", { class: "value", text: s.completed.map((p) => p.name).join(", ") }))
        : null,
      s && s.fired && s.fired.length ? el("div", { class: "studio" }, muted("fired: "), cards(s.fired, "", named)) : null,
      ctx.seats ? el("div", { class: "hand" }, muted("hand: "), cards(ctx.seats[seat].hand, "", named)) : null,
      ctx.seats && ctx.seats[seat].trilogy_cards.length
        ? el("div", { class: "hand" }, muted("trilogy: "), cards(ctx.seats[seat].trilogy_cards, "", named))
        : null,
    ];
  });
  const open = (v.slots || []).filter((slot) => slot.project);
  const slots = open.map((slot) =>
    el(
      "li",
      { class: "project" },
      el("strong", { text: slot.project.name }),
      muted(` ${slot.project.type}${slot.project.genre ? " · " + slot.project.genre : ""} · fame ${slot.project.fame}` +
        (slot.project.needs && slot.project.needs.length ? ` · needs ${slot.project.needs.join(", ")}` : "")),
      el("div", {}, (slot.placed || []).map((placed, seat) =>
        placed.length ? el("div", { class: "placed" }, el("span", { class: "who", text: `${ctx.players[seat]}: ` }), cards(placed, "", named)) : null)),
    ),
  );
  return el(
    "div",
    { class: "table motion-pictures" },
    facts([
      ["era", `${v.era} of ${v.eras}`],
      ["round", v.round],
      ["phase", v.phase],
      ["turn", ctx.players[v.turn]],
      ["deck", v.deck_size],
      ["trilogy", v.trilogy ? v.trilogy.name : undefined],
    ]),
    table,
    block("Hiring row", cards(v.row, "", named)),
    block("Projects", slots.length ? el("ul", { class: "projects" }, slots) : muted("no projects left to shoot")),
    v.big_goals || v.small_goals
      ? block("Goals", el("span", { class: "value", text: [...(v.big_goals || []), ...(v.small_goals || [])].map((g) => `${g.name} (${g.fame} fame)`).join(" · ") || "none left" }))
      : null,
    rest(v, ["players", "era", "eras", "round", "phase", "turn", "hand", "trilogy_cards", "row",
      "deck_size", "trilogy", "slots", "studios", "big_goals", "small_goals"]),
  );
}
motionPictures.scores = (v) => (v.studios ? v.studios.map((s) => s.fame) : null);
