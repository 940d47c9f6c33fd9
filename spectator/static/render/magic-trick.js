// The magic-trick renderer (see renderers.js): the engine's views of a match, drawn.

import { el } from "../common.js";
import { block, card, cards, facts, muted, rest, seatBoxes, trickRow } from "./kit.js";

export function magicTrick(frame, ctx) {
  const v = ctx.view;
  const n = v.players;
  // Seat s sees the fan of seat s+1; with every seat's view the whole table is known.
  const fan = (owner) => {
    if (ctx.seats) return ctx.seats[(owner + n - 1) % n].fans[owner] ?? v.fans[owner];
    return v.fans[owner];
  };
  const table = seatBoxes(ctx, v, (seat) => [
    facts([
      ["tricks this hand", v.tricks_taken[seat]],
      ["prestige", v.prestige_count[seat]],
      seat === v.dealer ? ["role", "dealer"] : ["role", undefined],
    ]),
    v.fans.length ? el("div", { class: "fan" }, cards(fan(seat))) : null,
    ctx.seats && v.phase === "sort"
      ? facts([
          ["to sort", cards(ctx.seats[seat].sorting)],
          ["sorted", cards(ctx.seats[seat].sorted)],
        ])
      : null,
    // What a spectator can know while the hands are sorted: that it happens, in secret.
    !ctx.seats && v.phase === "sort"
      ? el("p", { class: "sorting-note muted small", text: "sorting its cards in secret, face down" })
      : null,
  ]);
  const current = v.current;
  const last = v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
  return el(
    "div",
    { class: "table magic-trick" },
    facts([
      // The view counts hands from 0; a person counts from 1.
      ["hand", `${v.hand + 1} of ${v.hands}`],
      ["trick", v.tricks.length + (current && current.plays && current.plays.length ? 1 : 0) || undefined],
      ["phase", v.phase],
      ["dealer", ctx.players[v.dealer]],
      ["removed suits", v.removed_suits.join(", ") || "none"],
      ["set aside", card(v.set_aside)],
    ]),
    v.phase === "sort"
      ? el("p", { class: "phase-note", id: "sort-note", text: `Sorting: every player puts its cards in order, in secret; the fans are laid out, face down, once everyone has sorted, and the tricks begin.` })
      : null,
    table,
    current && current.plays && current.plays.length
      ? block(`Trick in play (led by ${ctx.players[current.leader] ?? "?"})`, trickRow(ctx, current.plays))
      : null,
    last
      ? block(`Last trick (won by ${ctx.players[last.winner] ?? "?"})`, trickRow(ctx, last.plays))
      : null,
    v.tricks.length > 1
      ? el("details", { class: "tricks" }, el("summary", { text: `All ${v.tricks.length} tricks of this hand` }),
          el("ol", {}, v.tricks.map((t) => el("li", {}, trickRow(ctx, t.plays), muted(` won by ${ctx.players[t.winner] ?? "?"}`)))))
      : null,
    rest(v, ["players", "prestige_bonus", "hand", "hands", "dealer", "phase", "turn", "removed_suits",
      "set_aside", "fans", "current", "tricks", "tricks_taken", "scores", "prestige_count", "sorting", "sorted"]),
  );
}
magicTrick.scores = (v) => v.scores;
