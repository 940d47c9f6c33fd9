// What every game's renderer draws with (render/<game>.js), and the generic renderer that draws
// any view: cards as cards, per-seat lists beside the seats, everything else as labelled
// values. See renderers.js for what a renderer gets in ctx.

import { el } from "../common.js";

const SUITS = new Set(["red", "green", "blue", "yellow", "purple", "orange", "black"]);

// --- pieces ----------------------------------------------------------------------------------

export function isCard(value) {
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

export function label(key) {
  return key.replaceAll("_", " ");
}

export function scalar(value) {
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
export function perSeat(view, key) {
  const v = view[key];
  return Array.isArray(v) && v.length === view.players && view.players > 1 && key !== "board";
}

export function toMoveSet(ctx) {
  if (ctx.toMove === null || ctx.toMove === undefined) return new Set();
  return new Set(Array.isArray(ctx.toMove) ? ctx.toMove : [ctx.toMove]);
}

// One box per seat: its number, name and score (every frame), then what `fill` draws.
// `extra(seat)` adds badges (a role, a clock: live.js passes ctx.badge).
export function seatBoxes(ctx, view, fill) {
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

export function facts(pairs) {
  return el(
    "dl",
    { class: "facts inline" },
    pairs
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [el("dt", { text: k }), el("dd", {}, v instanceof Node ? v : scalar(v))]),
  );
}

export function block(title, ...body) {
  return el("section", { class: "block" }, el("h4", { text: title }), ...body);
}

export function muted(text) {
  return el("span", { class: "muted small", text });
}

// The rest of a view, drawn generically, so that no field a renderer skips is ever lost.
export function rest(view, used) {
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
export function privateFields(spectator, seatView) {
  return Object.entries(seatView).filter(
    ([k, v]) => k !== "seat" && JSON.stringify(v) !== JSON.stringify(spectator[k]),
  );
}

// A slug ("the-truman-show-1998") as words, for a name the replay's labels do not hold.
export function words(slug) {
  const text = String(slug).replaceAll(/[-_]+/g, " ").trim();
  const year = text.match(/^(.*) (\d{4})$/);
  const title = (year ? year[1] : text).replace(/\b\w/g, (c) => c.toUpperCase());
  return year ? `${title} (${year[2]})` : title;
}

// --- the generic renderer ---------------------------------------------------------------------

export function generic(frame, ctx) {
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

export function seen(ctx, seat) {
  const fields = privateFields(ctx.spectator, ctx.seats[seat]);
  if (fields.length === 0) return null;
  return el(
    "div",
    { class: "private" },
    el("span", { class: "muted small", text: "saw: " }),
    facts(fields.map(([k, v]) => [label(k), value(v)])),
  );
}

export function trickRow(ctx, plays, name = null) {
  return el("div", { class: "trick" }, plays.map((p) =>
    el("span", { class: "play" }, el("span", { class: "who", text: ctx.players[p.seat] }),
      card(p.card, p.boosted ? "boosted" : "", name ? name(p.card) : null))));
}
