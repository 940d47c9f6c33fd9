// One renderer per game draws a frame of a match from the engine's own views: the spectator
// view, and after the end every seat's view (frame.seats). A game without a renderer of its
// own gets the generic one, which draws any view: cards as cards, per-seat lists beside the
// seats, everything else as labelled values. Adding a game's renderer is adding one entry to
// RENDERERS; nothing else on the page knows a game.

import { el } from "./common.js";

const SUITS = new Set(["red", "green", "blue", "yellow", "purple", "orange", "black"]);

// --- pieces ----------------------------------------------------------------------------------

function isCard(value) {
  if (Array.isArray(value)) {
    return value.length === 2 && typeof value[0] === "string" && SUITS.has(value[0]);
  }
  return (
    value !== null &&
    typeof value === "object" &&
    ("suit" in value || "rank" in value || ("code" in value && "name" in value) || "code" in value)
  );
}

export function card(value, extra = "") {
  if (value === null || value === undefined) return el("span", { class: "card back", text: "?" });
  if (typeof value === "number") return el("span", { class: `card plain ${extra}`, text: `#${value}` });
  if (Array.isArray(value)) {
    const [suit, rank] = value;
    return el("span", { class: `card suit-${suit} ${extra}`, title: `${suit} ${rank}`, text: rank ?? "?" });
  }
  const suit = value.suit ? ` suit-${value.suit}` : "";
  const hidden = "rank" in value && value.rank === null;
  const label = hidden
    ? "?"
    : value.rank ?? (value.value !== undefined && value.kind === "playing" ? value.value : null) ??
      value.name ?? value.code ?? value.value ?? "";
  const title = [value.code, value.name, value.category, value.place].filter(Boolean).join(" · ");
  const place = value.place ? ` place-${value.place}` : "";
  return el("span", { class: `card${suit}${place}${hidden ? " back" : ""} ${extra}`, title, text: String(label) });
}

export function cards(list, extra = "") {
  if (!list || list.length === 0) return el("span", { class: "muted small", text: "none" });
  return el("span", { class: "cards" }, list.map((c) => card(c, extra)));
}

function label(key) {
  return key.replaceAll("_", " ");
}

function scalar(value) {
  if (value === null || value === undefined) return "–";
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

// Any plain value, drawn generically.
export function value(v, players) {
  if (v === null || typeof v !== "object") return el("span", { class: "value", text: scalar(v) });
  if (Array.isArray(v)) {
    if (v.length === 0) return el("span", { class: "muted small", text: "none" });
    if (v.every((x) => isCard(x) || typeof x === "number") && v.some(isCard)) return cards(v);
    if (v.every((x) => x === null || typeof x !== "object")) {
      return el("span", { class: "value", text: v.map(scalar).join(", ") });
    }
    return el("ol", { class: "plain-list", start: 0 }, v.map((x) => el("li", {}, value(x, players))));
  }
  if (isCard(v)) return card(v);
  return el(
    "dl",
    { class: "plain-map" },
    Object.entries(v).map(([k, x]) => [el("dt", { text: label(k) }), el("dd", {}, value(x, players))]),
  );
}

// A per-seat list (one entry per player) goes beside the seats rather than in the details.
function perSeat(view, key) {
  const v = view[key];
  return Array.isArray(v) && v.length === view.players && view.players > 1 && key !== "board";
}

function seatBoxes(ctx, view, fill) {
  return el(
    "div",
    { class: "seats" },
    ctx.players.map((name, seat) =>
      el(
        "section",
        {
          class: `seat${seat === ctx.toMove ? " to-move" : ""}${seat === ctx.viewer ? " viewer" : ""}`,
          "data-seat": seat,
        },
        el("h4", {}, el("span", { class: "seat-no", text: `${seat}` }), ` ${name}`),
        fill(seat),
      ),
    ),
  );
}

function facts(pairs) {
  return el(
    "dl",
    { class: "facts inline" },
    pairs
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [el("dt", { text: k }), el("dd", {}, v instanceof Node ? v : scalar(v))]),
  );
}

function block(title, ...body) {
  return el("section", { class: "block" }, el("h4", { text: title }), ...body);
}

// The rest of a view, drawn generically, so that no field a renderer skips is ever lost.
function rest(view, used) {
  const left = Object.entries(view).filter(([k]) => !used.includes(k) && k !== "seat");
  if (left.length === 0) return null;
  return el(
    "details",
    { class: "rest" },
    el("summary", { text: "Everything else in this view" }),
    value(Object.fromEntries(left)),
  );
}

// What `seat` saw that the spectator did not (its hand, its own pile...), per field.
function privateFields(spectator, seatView) {
  return Object.entries(seatView).filter(
    ([k, v]) => k !== "seat" && JSON.stringify(v) !== JSON.stringify(spectator[k]),
  );
}

// --- the generic renderer ---------------------------------------------------------------------

function generic(frame, ctx) {
  const view = ctx.view;
  const seatKeys = Object.keys(view).filter((k) => perSeat(view, k));
  const seats = seatBoxes(ctx, view, (seat) => [
    facts(seatKeys.map((k) => [label(k), value(view[k][seat])])),
    ctx.seats ? seen(ctx, seat) : null,
  ]);
  const other = Object.entries(view).filter(([k]) => !seatKeys.includes(k) && k !== "seat");
  return el(
    "div",
    { class: "table generic" },
    seats,
    block("Table", value(Object.fromEntries(other))),
  );
}

function seen(ctx, seat) {
  const fields = privateFields(ctx.spectator, ctx.seats[seat]);
  if (fields.length === 0) return null;
  return el(
    "div",
    { class: "private" },
    el("span", { class: "muted small", text: "saw: " }),
    facts(fields.map(([k, v]) => [label(k), value(v)])),
  );
}

// --- per game -----------------------------------------------------------------------------------

function magicTrick(frame, ctx) {
  const v = ctx.view;
  const n = v.players;
  // Seat s sees the fan of seat s+1; with every seat's view the whole table is known.
  const fan = (owner) => {
    if (ctx.seats) return ctx.seats[(owner + n - 1) % n].fans[owner] ?? v.fans[owner];
    return v.fans[owner];
  };
  const table = seatBoxes(ctx, v, (seat) => [
    facts([
      ["score", v.scores[seat]],
      ["tricks", v.tricks_taken[seat]],
      ["prestige", v.prestige_count[seat]],
    ]),
    v.fans.length ? el("div", { class: "fan" }, cards(fan(seat))) : null,
    ctx.seats && v.phase === "sort"
      ? facts([
          ["to sort", cards(ctx.seats[seat].sorting)],
          ["sorted", cards(ctx.seats[seat].sorted)],
        ])
      : null,
  ]);
  const current = v.current;
  const trick = current
    ? block("Trick in play", el("div", { class: "trick" }, (current.plays || []).map((p) =>
        el("span", { class: "play" }, el("span", { class: "who", text: ctx.players[p.seat] }), card(p.card)))))
    : null;
  const last = v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
  return el(
    "div",
    { class: "table magic-trick" },
    facts([
      ["hand", `${v.hand} of ${v.hands}`],
      ["phase", v.phase],
      ["dealer", ctx.players[v.dealer]],
      ["removed suits", v.removed_suits.join(", ")],
      ["set aside", card(v.set_aside)],
    ]),
    table,
    trick,
    last
      ? block(
          `Last trick (won by ${ctx.players[last.winner] ?? "?"})`,
          el("div", { class: "trick" }, last.plays.map((p) =>
            el("span", { class: "play" }, el("span", { class: "who", text: ctx.players[p.seat] }), card(p.card)))),
        )
      : null,
    rest(v, ["players", "prestige_bonus", "hand", "hands", "dealer", "phase", "turn", "removed_suits",
      "set_aside", "fans", "current", "tricks", "tricks_taken", "scores", "prestige_count", "sorting", "sorted"]),
  );
}

function movieTricks(frame, ctx) {
  const v = ctx.view;
  const table = seatBoxes(ctx, v, (seat) => [
    facts([
      ["cards", v.hand_sizes[seat]],
      ...["scores", "stars", "points", "tricks"].filter((k) => perSeat(v, k)).map((k) => [k, scalar(v[k][seat])]),
    ]),
    ctx.seats
      ? el("div", { class: "hand" }, cards(ctx.seats[seat].hand))
      : v.known_hands[seat].length
        ? el("div", { class: "hand" }, el("span", { class: "muted small", text: "known: " }), cards(v.known_hands[seat]))
        : null,
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
    ]),
    table,
    block("Trick", el("div", { class: "trick" }, v.plays.length ? v.plays.map((p) =>
      el("span", { class: "play" }, el("span", { class: "who", text: ctx.players[p.seat] }),
        card(p.card, p.boosted ? "boosted" : ""))) : el("span", { class: "muted small", text: "no cards yet" }))),
    block("Market", cards(v.market)),
    block("Display", cards(v.display)),
    rest(v, ["players", "family", "round", "rounds", "phase", "turn", "director", "trump", "hand",
      "hand_sizes", "known_hands", "plays", "market", "display", "bonus_deck", "draw_deck"]),
  );
}

function motionPictures(frame, ctx) {
  const v = ctx.view;
  const seatKeys = Object.keys(v).filter((k) => perSeat(v, k) && typeof v[k][0] !== "object");
  const table = seatBoxes(ctx, v, (seat) => [
    facts(seatKeys.map((k) => [label(k), v[k][seat]])),
    ctx.seats ? el("div", { class: "hand" }, el("span", { class: "muted small", text: "hand: " }), cards(ctx.seats[seat].hand)) : null,
    ctx.seats && ctx.seats[seat].trilogy_cards.length
      ? el("div", { class: "hand" }, el("span", { class: "muted small", text: "trilogy: " }), cards(ctx.seats[seat].trilogy_cards))
      : null,
  ]);
  const slots = (v.slots || []).map((slot) =>
    el(
      "li",
      { class: "project" },
      el("strong", { text: slot.project ? slot.project.name : "(empty)" }),
      slot.project ? el("span", { class: "muted small", text: ` ${slot.project.type}${slot.project.genre ? " · " + slot.project.genre : ""} · fame ${slot.project.fame}` }) : null,
      el("div", {}, (slot.placed || []).map((placed, seat) =>
        placed.length ? el("div", { class: "placed" }, el("span", { class: "who", text: `${ctx.players[seat]}: ` }), cards(placed)) : null)),
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
    block("Hiring row", cards(v.row)),
    block("Projects", el("ul", { class: "projects" }, slots)),
    rest(v, ["players", "era", "eras", "round", "phase", "turn", "hand", "trilogy_cards", "row",
      "deck_size", "trilogy", "slots", ...seatKeys]),
  );
}

function movieFight(frame, ctx) {
  const v = ctx.view;
  const table = seatBoxes(ctx, v, (seat) => {
    const cinema = v.cinemas[seat];
    return [
      facts([
        ["score", v.scores[seat]],
        ["tickets", v.tickets[seat]],
        ["tile", cinema ? cinema.tile : undefined],
      ]),
      cinema
        ? el("ol", { class: "floors" }, cinema.floors.map((floor, i) =>
            el("li", {}, el("span", { class: "muted small", text: `floor ${i + 1}: audience ` }), cards(floor.audience),
              el("span", { class: "muted small", text: " screens " }), cards(floor.screens))))
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
    ]),
    table,
    block("Offer", cards(v.offer)),
    v.automa ? block("Automa", value(v.automa)) : null,
    rest(v, ["players", "round", "rounds", "phase", "side", "turn", "active", "deck", "offer", "cinemas",
      "tickets", "scores", "automa"]),
  );
}

function movieTrailer(frame, ctx) {
  const v = ctx.view;
  const film = ctx.seats ? ctx.seats[v.director].film : v.film;
  const table = seatBoxes(ctx, v, (seat) => [
    facts([
      ["points", (v.half_points[seat] / 2).toString()],
      ["role", seat === v.director ? "director" : "audience"],
    ]),
  ]);
  return el(
    "div",
    { class: "table movie-trailer" },
    facts([
      ["turn", `${v.turn + 1} of ${v.turns}`],
      ["phase", v.phase],
      ["director", ctx.players[v.director]],
      ["film", film ?? "hidden"],
    ]),
    table,
    block("Trailer board", el("ol", { class: "board" }, v.board.map((slot) =>
      el("li", { class: `slot${slot.tile === null ? " empty" : ""}` },
        el("span", { class: "muted small", text: slot.category }), " ",
        slot.face_down ? el("span", { class: "card back", text: "?" }) : slot.tile === null ? "" : card(slot.tile))))),
    v.guesses.length ? block("Guesses", value(v.guesses)) : null,
    v.past_turns.length
      ? block("Past trailers", el("ol", {}, v.past_turns.map((t) =>
          el("li", { text: `${ctx.players[t.director]}: ${t.film}${t.guessed_by.length ? ` (guessed by ${t.guessed_by.map((s) => ctx.players[s]).join(", ")})` : ""}` }))))
      : null,
    rest(v, ["players", "turn", "turns", "phase", "director", "film", "board", "guesses", "past_turns", "half_points"]),
  );
}

export const RENDERERS = {
  "magic-trick": magicTrick,
  "movie-tricks": movieTricks,
  "motion-pictures": motionPictures,
  "movie-fight": movieFight,
  "movie-trailer": movieTrailer,
};

// Draw one frame. ctx: {players, viewer (a seat whose own view to draw instead of the
// spectator's, "all" for every seat's, or null), toMove, generic (use the generic renderer)}.
export function renderFrame(game, frame, ctx) {
  const viewer = ctx.viewer;
  const view = viewer !== null && viewer !== undefined && frame.seats ? frame.seats[viewer] : frame.spectator;
  const full = { ...ctx, view, spectator: frame.spectator, seats: viewer === "all" ? frame.seats : null };
  if (viewer === "all") full.view = frame.spectator;
  const renderer = ctx.generic ? undefined : RENDERERS[game];
  let node;
  try {
    node = renderer ? renderer(frame, full) : generic(frame, full);
  } catch (error) {
    // A view the game's renderer does not expect (an older engine's) still shows.
    console.info(`renderer for ${game} fell back to the generic one: ${error}`);
    node = generic(frame, full);
    node.dataset.fallback = "true";
  }
  node.dataset.renderer = renderer && !node.dataset.fallback ? game : "generic";
  return node;
}
