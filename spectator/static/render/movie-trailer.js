// The movie-trailer renderer (see renderers.js): the engine's views of a match, drawn.

import { el } from "../common.js";
import { block, card, facts, label, muted, rest, seatBoxes, words } from "./kit.js";

export function movieTrailer(frame, ctx) {
  const v = ctx.view;
  const film = (slug) => (slug === null || slug === undefined ? null : ctx.label("film", slug) ?? words(slug));
  const tile = (id) => ctx.label("tile", id);
  // The film of the turn being played: the Director's own view holds it (every hand shown).
  const secret = ctx.seats ? ctx.seats[v.director].film : v.film;
  const last = v.past_turns.length ? v.past_turns[v.past_turns.length - 1] : null;
  const table = seatBoxes(ctx, v, (seat) => [
    facts([["role", seat === v.director && v.phase !== "over" ? "director" : "audience"]]),
  ]);
  const who = (seats) => seats.map((s) => ctx.players[s]).join(", ");
  return el(
    "div",
    { class: "table movie-trailer" },
    facts([
      ["turn", `${Math.min(v.turn + 1, v.turns)} of ${v.turns}`],
      ["phase", v.phase],
      ["director", ctx.players[v.director]],
      ["scoring tile", ctx.label("scoring", v.scoring_tile) ?? v.scoring_tile],
    ]),
    last
      ? el("p", { class: "reveal", id: "film-revealed" },
          `Turn ${v.past_turns.length}: ${ctx.players[last.director]}'s film was `,
          el("strong", { class: "film", text: film(last.film) }),
          last.guessed_by.length ? ` — named by ${who(last.guessed_by)}` : " — nobody named it")
      : null,
    v.phase !== "over"
      ? el("p", { class: "film-line" }, "This turn's film: ",
          secret ? el("strong", { class: "film", text: film(secret) }) : muted("hidden until the turn ends"),
          secret && !v.film ? muted(" (the Director's secret)") : null)
      : null,
    table,
    muted("Scores count half Movie Points, as the match's result does."),
    block("Trailer board", el("ol", { class: "board" }, v.board.map((slot) =>
      el("li", { class: `slot${slot.tile === null ? " empty" : ""}` },
        el("span", { class: "muted small", text: ctx.label("category", slot.category) ?? label(slot.category) }), " ",
        slot.face_down ? el("span", { class: "card back", text: "?" }) : slot.tile === null ? "" : card(slot.tile, "", tile(slot.tile)))))),
    v.guesses.length
      ? block("Guesses this turn", el("ul", {}, v.guesses.map((g) =>
          el("li", { text: `${ctx.players[g.seat]}: ${g.film === null ? "passes" : film(g.film)}` }))))
      : null,
    v.past_turns.length
      ? block("Past trailers", el("ol", {}, v.past_turns.map((t) =>
          el("li", { text: `${ctx.players[t.director]}: ${film(t.film)}${t.guessed_by.length ? ` (named by ${who(t.guessed_by)})` : " (not named)"}` }))))
      : null,
    rest(v, ["players", "turn", "turns", "phase", "director", "film", "board", "guesses", "past_turns", "half_points", "scoring_tile", "speed", "picker", "pending_slot"]),
  );
}
// In the unit of the match's result (half Movie Points), as the engine keeps them.
movieTrailer.scores = (v) => v.half_points;
