// One renderer per game draws a frame of a match from the engine's own views: the spectator
// view, and after the end every seat's view (frame.seats). A game without a renderer of its
// own gets the generic one, which draws any view: cards as cards, per-seat lists beside the
// seats, everything else as labelled values. Adding a game's renderer is adding one entry to
// RENDERERS; nothing else on the page knows a game.
//
// What every renderer gets in ctx: players (names by seat), view (the view to draw), spectator
// and seats (every seat's view, or null), toMove (the seats to move next), scores (every
// seat's score on this frame, from the engine, or null), label(kind, id) (a card's or film's
// name from the replay's labels, or null). Every seat's box shows its score (seatBoxes).

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

// A card. `named`: the name to show instead of what the value says of itself (a label), or
// {face, title}: a short face and the card's whole name as its tooltip.
export function card(value, extra = "", named = null) {
  if (named !== null && typeof named === "object") {
    const node = card(value, extra, named.face);
    if (named.title) node.title = named.title;
    return node;
  }
  if (value === null || value === undefined) return el("span", { class: "card back", text: "?", title: "hidden" });
  if (typeof value === "number") {
    return el("span", { class: `card plain ${extra}`, text: named ?? `#${value}`, title: named ?? `card ${value}` });
  }
  if (Array.isArray(value)) {
    const [suit, rank] = value;
    return el("span", { class: `card suit-${suit} ${extra}`, title: `${suit} ${rank}`, text: rank ?? "?" });
  }
  const suit = value.suit ? ` suit-${value.suit}` : "";
  const hidden = "rank" in value && value.rank === null;
  const label = hidden
    ? "?"
    : named ?? value.rank ?? (value.value !== undefined && value.kind === "playing" ? value.value : null) ??
      value.name ?? value.code ?? value.value ?? "";
  const title = hidden
    ? `${value.suit ?? ""} card, face down`
    : [named, value.suit && value.rank !== undefined ? `${value.suit} ${value.rank}` : null, value.name,
        value.category, value.place].filter(Boolean).join(" · ");
  const place = value.place ? ` place-${value.place}` : "";
  return el("span", { class: `card${suit}${place}${hidden ? " back" : ""} ${extra}`, title, text: String(label) });
}

export function cards(list, extra = "", name = null) {
  if (!list || list.length === 0) return el("span", { class: "muted small", text: "none" });
  return el("span", { class: "cards" }, list.map((c) => card(c, extra, name ? name(c) : null)));
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

function toMoveSet(ctx) {
  if (ctx.toMove === null || ctx.toMove === undefined) return new Set();
  return new Set(Array.isArray(ctx.toMove) ? ctx.toMove : [ctx.toMove]);
}

// One box per seat: its number, name and score (every frame), then what `fill` draws.
// `extra(seat)` adds badges (a role, a clock: live.js passes ctx.badge).
function seatBoxes(ctx, view, fill) {
  const moving = toMoveSet(ctx);
  return el(
    "div",
    { class: "seats" },
    ctx.players.map((name, seat) => {
      const score = ctx.scores ? ctx.scores[seat] : undefined;
      return el(
        "section",
        {
          class: `seat${moving.has(seat) ? " to-move" : ""}${seat === ctx.viewer ? " viewer" : ""}`,
          "data-seat": seat,
        },
        el(
          "h4",
          {},
          el("span", { class: "seat-no", title: `seat ${seat + 1}`, text: `${seat + 1}` }),
          el("span", { class: "seat-name", text: ` ${name}` }),
          moving.has(seat) ? el("span", { class: "badge to-move-badge", text: "to move" }) : null,
          score !== undefined && score !== null
            ? el("span", { class: "seat-score", "data-score": score, title: "score" }, el("small", { text: "score " }), String(score))
            : null,
        ),
        ctx.badge ? ctx.badge(seat) : null,
        fill(seat),
      );
    }),
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

function muted(text) {
  return el("span", { class: "muted small", text });
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

// A slug ("the-truman-show-1998") as words, for a name the replay's labels do not hold.
function words(slug) {
  const text = String(slug).replaceAll(/[-_]+/g, " ").trim();
  const year = text.match(/^(.*) (\d{4})$/);
  const title = (year ? year[1] : text).replace(/\b\w/g, (c) => c.toUpperCase());
  return year ? `${title} (${year[2]})` : title;
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

function trickRow(ctx, plays, name = null) {
  return el("div", { class: "trick" }, plays.map((p) =>
    el("span", { class: "play" }, el("span", { class: "who", text: ctx.players[p.seat] }),
      card(p.card, p.boosted ? "boosted" : "", name ? name(p.card) : null))));
}

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

function movieTricks(frame, ctx) {
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

function motionPictures(frame, ctx) {
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

function movieFight(frame, ctx) {
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

function movieTrailer(frame, ctx) {
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

export const RENDERERS = {
  "magic-trick": magicTrick,
  "movie-tricks": movieTricks,
  "motion-pictures": motionPictures,
  "movie-fight": movieFight,
  "movie-trailer": movieTrailer,
};

// Every seat's score on a frame: the engine's (frame.scores), else what the game's renderer
// reads off its view (replays made before frames carried scores), else null.
export function frameScores(game, frame, generic = false) {
  if (Array.isArray(frame.scores)) return frame.scores;
  const renderer = generic ? undefined : RENDERERS[game];
  if (renderer && renderer.scores && frame.spectator) {
    try {
      const scores = renderer.scores(frame.spectator);
      return Array.isArray(scores) ? scores : null;
    } catch {
      return null;
    }
  }
  return null;
}

// Draw one frame. ctx: {players, viewer (a seat whose own view to draw instead of the
// spectator's, "all" for every seat's, or null), toMove (a seat or a list of seats), generic
// (use the generic renderer), labels ({kind: {id: name}}), badge(seat) (extra per seat)}.
export function renderFrame(game, frame, ctx) {
  const viewer = ctx.viewer;
  const view = viewer !== null && viewer !== undefined && viewer !== "all" && frame.seats ? frame.seats[viewer] : frame.spectator;
  const labels = ctx.labels || {};
  const full = {
    ...ctx,
    view,
    spectator: frame.spectator,
    seats: viewer === "all" ? frame.seats : null,
    scores: frameScores(game, frame, ctx.generic),
    label: (kind, id) => (labels[kind] && labels[kind][String(id)]) ?? null,
  };
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
