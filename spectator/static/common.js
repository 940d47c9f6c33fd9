// Helpers shared by every page of the ladder (dashboard, competition sections, replay, bot,
// leagues, live). Everything from the API
// goes on the page as text (textContent), never as HTML: bot names are chosen by whoever
// registers a bot.

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// Replace a node's children with those given, leaving out the absent ones (null, undefined,
// false): replaceChildren itself would print them as the words "null" and "undefined".
export function fill(node, ...children) {
  node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

// A game's options in words ("family: no, length: short"), never as JSON.
export function optionWords(options) {
  const entries = Object.entries(options || {});
  if (entries.length === 0) return "the game's defaults";
  const value = (v) => (v === true ? "yes" : v === false ? "no" : String(v));
  return entries.map(([k, v]) => `${k.replaceAll("_", " ")}: ${value(v)}`).join(", ");
}

// The page says, in words, that what its address names does not exist, and stops there.
export function notFound(heading, sentence, href, link) {
  document.title = `${heading} · Premiere`;
  const title = $("title");
  if (title) title.textContent = heading;
  const status = $("status");
  if (status) status.textContent = "";
  showError(null);
  const main = document.querySelector("main");
  main.replaceChildren(el("section", { id: "not-found" },
    el("h2", { id: "what", text: heading }), el("p", { id: "why", text: sentence }),
    el("p", {}, el("a", { id: "back", href, text: link }))));
  document.body.dataset.notFound = "true";
  document.body.dataset.ready = "true";
}

export async function api(path) {
  const reply = await fetch(path, { headers: { Accept: "application/json" } });
  let body = null;
  try {
    body = await reply.json();
  } catch {
    body = null;
  }
  if (!reply.ok) {
    const error = new Error((body && body.error) || `${reply.status} ${reply.statusText}`);
    error.status = reply.status;
    throw error;
  }
  return body;
}

// A paged list whole: follows each answer's `next` cursor (at most `pages` answers), and
// returns the last answer with `key` holding every item.
export async function apiAll(path, key, pages = 20) {
  let answer = await api(path);
  const items = [...answer[key]];
  const joiner = path.includes("?") ? "&" : "?";
  for (let n = 1; answer.next && n < pages; n += 1) {
    answer = await api(`${path}${joiner}cursor=${encodeURIComponent(answer.next)}`);
    items.push(...answer[key]);
  }
  return { ...answer, [key]: items };
}

export function gameName(game) {
  return game
    .split(/[-_]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

// One date format on every page: "2026-12-06 21:57", in the visitor's time zone.
export function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  const two = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

export function botLink(player) {
  return el("a", { class: "player", href: `/bots/${encodeURIComponent(player)}`, text: player });
}

// A table wider than its box scrolls inside it; the box then says so (data-overflows, and the
// cue pages.css draws), so a phone never hides columns without a word.
function markOverflowing() {
  for (const box of document.querySelectorAll(".scroll-box, .table-wrap, .scroll-x")) {
    const over = box.scrollWidth > box.clientWidth + 1;
    if (over !== (box.dataset.overflows === "true")) {
      if (over) box.dataset.overflows = "true";
      else delete box.dataset.overflows;
    }
  }
}
let marking = false;
function scheduleMark() {
  if (marking) return;
  marking = true;
  requestAnimationFrame(() => { marking = false; markOverflowing(); });
}
new MutationObserver(scheduleMark).observe(document.documentElement, { childList: true, subtree: true });
window.addEventListener("resize", scheduleMark);

export function showError(error) {
  const box = $("error");
  if (!box) return;
  box.hidden = !error;
  box.textContent = error ? String(error.message || error) : "";
}

export function nav(current) {
  const links = [
    ["/", "Leaderboards"],
    ["/live", "Live"],
    ["/tv", "TV"],
    ["/bots", "Bots"],
    ["/leagues", "Leagues"],
    ["/events", "Events"],
  ];
  return el(
    "nav",
    { class: "site-nav", "aria-label": "Pages" },
    links.map(([href, text]) =>
      el("a", { href, text, "aria-current": href === current ? "page" : undefined }),
    ),
  );
}

// How an ended match's final scores were made (the match API's breakdown): per seat, its
// player, its parts in the game's words with their points, and its final score. The game's
// rule sentence is told elsewhere, once (the replay's facts).
export function breakdownSection(breakdown) {
  const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "0");
  return el("section", { class: "breakdown", id: "breakdown", "aria-label": "How the scores were made" },
    el("h3", { text: "How the scores were made" }),
    el("div", { class: "breakdown-seats" }, breakdown.seats.map((s) =>
      el("div", { class: "breakdown-seat", "data-seat": s.seat },
        el("h4", {}, el("span", { class: "who", text: s.player }), " ",
          el("span", { class: "score", text: `${s.score}` })),
        el("ul", {}, s.parts.map((part) =>
          el("li", {}, el("span", { class: "points", text: signed(part.points) }), " ", words(part.text)))),
        el("p", { class: "total muted small", text: `${s.parts.map((p) => signed(p.points)).join(" ")} = ${s.score}` })))));
}

// A game's text with *emphasis* (a card's or a film's name, as the engines write them) as
// nodes: the emphasised parts in <em>, everything as text, never as HTML.
export function words(text) {
  return String(text)
    .split(/\*([^*]+)\*/)
    .map((part, i) => (i % 2 ? el("em", { text: part }) : part))
    .filter((part) => part !== "");
}
