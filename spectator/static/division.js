// One division of one season of a divisions event (/events/<name>/seasons/<s>/divisions/<d>):
// where it sits, its table best first with the zones that go up and down (marked and said in
// words), the move each bot made at the season's end or "in play" while it runs, its tables
// with their replays or live pages, the same division in the seasons before and after, the
// divisions above and below, and how a table's places become points. Reads
// /api/events/<name>/seasons/<s>/divisions/<d>; refreshes itself while the season is played
// (?refresh=N seconds).

import { $, apiAll, botLink, el, fill, nav, notFound, showError } from "./common.js";

const parts = location.pathname.split("/").filter(Boolean);
const name = decodeURIComponent(parts[1]);
const season = Number(parts[3]);
const division = Number(parts[5]);
const refreshSeconds = Math.max(0.5, Number(new URLSearchParams(location.search).get("refresh")) || 10);
const ENDED = ["finished", "cancelled"];

const eventHref = () => `/events/${encodeURIComponent(name)}`;
const divisionHref = (s, d) => `${eventHref()}/seasons/${s}/divisions/${d}`;
const number = (n) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
const bots = (n) => (n === 1 ? "1 bot" : `${n} bots`);

function where(d) {
  const tier = d.divisions === 1 ? "the only division" : d.division === 1 ? "the top division" : d.division === d.divisions ? "the bottom division" : null;
  const state = d.over ? "over" : ENDED.includes(d.status) ? "stopped before its end" : "being played";
  return el("p", { id: "where" },
    el("strong", { text: `Division ${d.division} of ${d.divisions}` }), tier ? ` (${tier})` : "",
    ` in season ${d.season} of ${d.seasons} of the event `, el("a", { href: `${eventHref()}#division-${d.season}-${d.division}`, text: d.event }),
    `; the season is ${state}.`);
}

// The zones in words: who goes up and down at the season's end, and to which division.
function zoneWords(d) {
  if (d.season === d.seasons) return "The last season: nobody moves after it, its final table stands.";
  if (d.divisions === 1) return "The only division: nobody moves.";
  const verb = (n, way) => (d.over ? `went ${way}` : `${n === 1 ? "goes" : "go"} ${way}`);
  const said = [];
  if (d.up) said.push(`the top ${d.up} ${verb(d.up, "up")} to division ${d.above}`);
  if (d.down) said.push(`the bottom ${d.down} ${verb(d.down, "down")} to division ${d.below}`);
  const tier = !d.up ? "Top division: " : !d.down ? "Bottom division: " : "";
  const marks = [d.up ? "↑ in the up zone" : null, d.down ? "↓ in the down zone" : null].filter(Boolean);
  const marked = d.over ? "" : ` The rows now in those places are marked: ${marks.join(", ")}.`;
  return `${tier}at the season's end ${said.join(", ")}.`.replace(/^a/, "A") + marked;
}

function moveCell(d, row) {
  if (row.move === "final") return el("td", { class: "move-final", text: "final season" });
  if (row.move) return el("td", { class: `move-${row.move}`, text: row.move });
  return el("td", { class: "muted", text: ENDED.includes(d.status) ? "unfinished" : "in play" });
}

const MARKS = { up: "↑", down: "↓" };

function standings(d) {
  return el("div", { class: "scroll-box" }, el("table", { class: "grid compact", id: "standings" },
    el("thead", {}, el("tr", {}, ["Place", "Bot (owner)", "Points", "Games", d.over ? "Then" : "Now"].map((t) => el("th", { text: t })))),
    el("tbody", {}, d.standings.map((row) => el("tr", {
      "data-bot": row.bot, "data-zone": row.zone || undefined, class: row.zone ? `zone-${row.zone}` : undefined,
    },
      el("td", { class: "num" }, String(row.place),
        row.zone ? el("span", { class: `zone-mark zone-${row.zone}-word`, title: `${row.zone} zone`, text: ` ${MARKS[row.zone]}` }) : null),
      el("td", { class: "who" }, botLink(row.bot), row.owner ? el("span", { class: "owner", text: row.owner }) : null),
      el("td", { class: "num", text: number(row.points) }), el("td", { class: "num", text: String(row.games) }),
      moveCell(d, row))))));
}

function pointsWords(d) {
  const places = d.place_points.map((p, i) => `${number(p)} to the ${ordinal(i + 1)}`).join(", ");
  const shared = number((d.place_points[0] + d.place_points[1]) / 2);
  return `A table of ${d.players} gives ${places}: a point for each bot finished ahead of. Seats tied on a place share the points of the places they cover (two tied at the top get ${shared} each). A division ranks by its points over the season; a tie goes to the bot placed higher at the season's start. Each season every division plays a round robin, each bot meeting every other.`;
}

function ordinal(n) {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th";
  return `${n}${tail}`;
}

function neighbours(d) {
  const link = (id, label, s, dv) => el("a", { id, href: divisionHref(s, dv), text: label });
  const none = (id, text) => el("span", { id, class: "muted", text });
  return el("nav", { id: "neighbours", class: "neighbours", "aria-label": "Other divisions" },
    el("p", {}, d.previous ? link("previous-season", `← Season ${d.previous}, division ${d.division}`, d.previous, d.division) : none("previous-season", "No season before"),
      " · ", d.following ? link("next-season", `Season ${d.following}, division ${d.division} →`, d.following, d.division)
        : none("next-season", d.season < d.seasons ? `Season ${d.season + 1} has not begun` : "The last season")),
    el("p", {}, d.above ? link("division-above", `↑ Division ${d.above} (above)`, d.season, d.above) : none("division-above", "The top division"),
      " · ", d.below ? link("division-below", `↓ Division ${d.below} (below)`, d.season, d.below) : none("division-below", "The bottom division")));
}

function watch(t) {
  if (!t.match_id || t.state === "to come") return null;
  const live = t.state === "playing";
  return el("a", { class: "watch", href: live ? `/live/${t.match_id}` : `/replay/${t.match_id}`, text: live ? "watch live" : "replay" });
}

function tables(d) {
  if (d.matches.length === 0) return el("p", { class: "empty", id: "matches-empty", text: "No table of this division has been drawn yet." });
  return el("div", { class: "scroll-box" }, el("table", { class: "grid compact", id: "matches" },
    el("thead", {}, el("tr", {}, ["Round", "Seats (place, points)", "State"].map((t) => el("th", { text: t })))),
    el("tbody", {}, d.matches.map((t) => el("tr", { "data-match": t.match_id ?? "", "data-state": t.state },
      el("td", { class: "when", text: `${t.season_round} · table ${t.table}` }),
      el("td", { class: "table-seats" }, t.seats.map((s, i) => el("span", { class: "table-seat" }, botLink(s), t.ranks ? ` (#${t.ranks[i]}, ${number(t.points[i])})` : ""))),
      el("td", { class: "state" }, t.state, watch(t) ? [" · ", watch(t)] : null))))));
}

function page(d) {
  const played = d.matches.filter((t) => t.state === "finished").length;
  return [
    where(d),
    neighbours(d),
    el("section", { id: "standings-section" }, el("h2", { text: "Standings" }),
      el("p", { id: "zones", class: "zones" }, zoneWords(d)),
      standings(d),
      el("p", { id: "points", class: "muted small" }, pointsWords(d))),
    el("section", { id: "matches-section" }, el("h2", { text: `Tables (${played} of ${d.matches.length} played)` }),
      el("p", { class: "muted small", text: `Newest round first; rounds are counted within the season, ${bots(d.standings.length)} in this division. A table being played links to its live page, an ended one to its replay.` }),
      tables(d)),
  ];
}

async function refresh() {
  let again = true;
  try {
    const d = await apiAll(`/api/events/${encodeURIComponent(name)}/seasons/${season}/divisions/${division}`, "matches");
    $("title").textContent = `${d.event} · Season ${d.season} · Division ${d.division}`;
    document.title = `${d.event}: season ${d.season}, division ${d.division} · Premiere`;
    fill($("content"), page(d));
    $("status").textContent = `updated ${new Date().toLocaleTimeString()}`;
    showError(null);
    document.body.dataset.ready = "true";
    again = !d.over && !ENDED.includes(d.status);
  } catch (error) {
    if (error.status === 404) {
      notFound("No such division", `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`, eventHref(), "See the event");
      return;
    }
    showError(error);
  }
  if (again) setTimeout(refresh, refreshSeconds * 1000);
}

$("nav").replaceWith(nav(""));
refresh();
