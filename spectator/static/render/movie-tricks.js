// The movie-tricks renderer (see renderers.js): the engine's views of a match, drawn.

import { el } from "../common.js";
import { block, cards, facts, label, muted, rest, seatBoxes, trickRow } from "./kit.js";

// Movie Tricks cards: the labels' name when the replay has one, else what the card says.
function trickCardName(ctx) {
  return (c) => {
    if (!c || typeof c !== "object") return null;
    const title = ctx.label("card", c.id);
    // A playing card is its value on its suit's colour; the others say what they are.
    const face = c.kind === "playing" ? String(c.value) : c.kind === "plus3" ? "+3" : `${c.kind} ${c.value}`;
    return { face, title };
  };
}

export function movieTricks(frame, ctx) {
  const v = ctx.view;
  const name = trickCardName(ctx);
  const categories = ["CGI", "Props", "Roles", "Soundtrack"];
  const tableau = (seat) => {
    const t = v.tableaus ? v.tableaus[seat] : null;
    if (!t) return null;
    return el("div", { class: "tableau" },
      t.columns.map((column, i) => {
        const category = (column[0] && column[0].category) || categories[i] || `column ${i + 1}`;
        return el("div", { class: "column" }, el("span", { class: "muted small", text: `${category} ` }), cards(column, "", name));
      }),
      t.goal !== null && t.goal !== undefined ? muted(`props goal claimed: ${t.goal} symbols`) : null);
  };
  const table = seatBoxes(ctx, v, (seat) => [
    facts([
      ["cards in hand", v.hand_sizes[seat]],
      seat === v.director ? ["role", "director"] : ["role", undefined],
    ]),
    ctx.seats
      ? el("div", { class: "hand" }, muted("hand: "), cards(ctx.seats[seat].hand, "", name))
      : v.known_hands[seat].length
        ? el("div", { class: "hand" }, muted("known: "), cards(v.known_hands[seat], "", name))
        : null,
    tableau(seat),
  ]);
  return el(
    "div",
    { class: "table movie-tricks" },
    facts([
      ["round", `${v.round} of ${v.rounds}`],
      ["phase", v.phase],
      ["director", ctx.players[v.director]],
      ["trump", v.trump ?? "none"],
      ["draw deck", v.draw_deck],
      ["bonus deck", v.bonus_deck],
      ["props die", v.props_die ?? undefined],
      ["soundtrack die", v.soundtrack_die ?? undefined],
    ]),
    table,
    block("Trick", v.plays.length ? trickRow(ctx, v.plays, name) : muted("no cards yet")),
    block("Market", cards(v.market, "", name)),
    block("Bonus display", cards(v.display, "", name)),
    v.goals ? block("Props goals", el("span", { class: "value", text: v.goals.map((g) => `${g.need} symbols: ${g.stars}★`).join(" · ") || "none left" })) : null,
    rest(v, ["players", "family", "round", "rounds", "phase", "turn", "director", "trump", "hand",
      "hand_sizes", "known_hands", "plays", "market", "display", "bonus_deck", "draw_deck", "tableaus",
      "goals", "props_die", "soundtrack_die", "pick_order", "bonus_order"]),
  );
}
