// The events: /events lists every event; /events/<name> shows one: its state, entry rules,
// schedule, entrants, standings once it runs, a knockout's bracket (each round's heats in seed
// order with their finishing order, the byes, the champion, links to the heats being played)
// and divisions' season tables (one anchored section a division, its heading linking to the
// division's own page). Refreshes itself every few seconds (?refresh=N), so the bracket moves
// on as heats finish.

import { $, api, apiAll, botLink, el, fill, gameName, nav, notFound, showError, when } from "./common.js";
import { eventsTable, stateWords } from "./event_list.js";

const parts = location.pathname.split("/").filter(Boolean);
const name = parts.length > 1 ? decodeURIComponent(parts[1]) : null;
const refreshSeconds = Math.max(0.5, Number(new URLSearchParams(location.search).get("refresh")) || 5);

function facts(e) {
  const rows = [
    ["State", stateWords(e.status) + (e.reason ? ` (${e.reason})` : "")],
    ["Game", `${gameName(e.game)}, ${e.players} seats a table`],
    ["Format", e.format],
    ["Entry opens", when(e.opens_at)],
    ["Starts", when(e.starts_at)],
    ["Who may enter", e.rules.join("; ")],
  ];
  if (e.finished_at) rows.push(["Ended", when(e.finished_at)]);
  if (e.league) {
    rows.push(["League", el("a", { href: `/leagues/${encodeURIComponent(e.league.name)}`, text: e.league.name })]);
    const total = e.league.rounds ? ` of ${e.league.rounds}` : "";
    rows.push(["Rounds played", `${e.league.rounds_closed}${total}`]);
  }
  return el("dl", { class: "facts", id: "facts" }, rows.map(([k, v]) => [el("dt", { text: k }), el("dd", { "data-fact": k }, v)]));
}

function entrants(e) {
  if (e.entrants.length === 0) return el("p", { class: "empty", id: "entrants-empty", text: "No entrants yet." });
  return el("ol", { id: "entrants" }, e.entrants.map((x) =>
    el("li", { "data-bot": x.bot }, botLink(x.bot), el("span", { class: "muted small", text: ` (${x.account}, entered ${when(x.entered_at)})` }))));
}

function standings(e) {
  if (e.standings.length === 0) return el("p", { class: "empty", text: e.league ? "No round has closed yet." : "The results come once it runs." });
  return el("div", { class: "scroll-box" }, el("table", { class: "grid", id: "results" },
    el("thead", {}, el("tr", {}, ["Rank", "Bot", "Points", "Games"].map((t) => el("th", { text: t })))),
    el("tbody", {}, e.standings.map((row) => el("tr", { "data-bot": row.bot },
      el("td", { text: String(row.rank) }), el("td", {}, botLink(row.bot)),
      el("td", { text: Number.isInteger(row.points) ? String(row.points) : row.points.toFixed(1) }),
      el("td", { text: String(row.games) }))))));
}

function heatState(h, r) {
  if (h.order && h.by_tiebreak) return ["tiebreak", `decided by seed after ${h.deals} void deals`];
  if (h.order) return ["finished", h.deals > 1 ? `finished (dealt ${h.deals} times: a deal was void)` : "finished"];
  if (h.live.length) return ["playing", h.deals > 1 ? `playing now (dealt again: a deal was void)` : "playing now"];
  if (r.planned && h.deals > 0) return ["playing", "playing"];
  return ["to-come", "to come"];
}

function heatCard(h, i, r) {
  const [state, words] = heatState(h, r);
  const bots = h.order || h.seeds;
  return el("li", { class: `heat heat-${state}`, "data-heat": i + 1, "data-state": state },
    el("p", { class: "heat-head" }, el("strong", { text: `Heat ${i + 1}` }), el("span", { class: "heat-state", text: ` · ${words}` })),
    el(h.order ? "ol" : "ul", { class: "heat-bots" }, bots.map((bot, k) => {
      const through = h.order && k < r.advance;
      return el("li", { class: through ? "through" : h.order ? "out" : undefined, "data-bot": bot },
        botLink(bot), through ? el("span", { class: "tag", text: " through" }) : null);
    })),
    h.live.length ? el("p", { class: "heat-live small" }, "Watch: ",
      h.live.map((m, k) => [k ? ", " : "", el("a", { href: `/live/${encodeURIComponent(m)}`, text: `table ${k + 1}` })])) : null);
}

function bracket(b) {
  return el("div", { id: "bracket", class: "bracket" },
    b.champion ? el("p", { id: "champion" }, el("strong", { text: "Champion: " }), botLink(b.champion)) : null,
    el("div", { class: "bracket-rounds" }, b.rounds.map((r) => el("section", { class: "bracket-round", "data-round": r.number },
      el("h3", { text: r.heats.length === 1 && r.byes.length === 0 ? `Round ${r.number}: the final` : `Round ${r.number}` }),
      r.byes.length ? el("p", { class: "byes", text: `Byes (through without playing): ${r.byes.join(", ")}` }) : null,
      el("ol", { class: "heats" }, r.heats.map((h, i) => heatCard(h, i, r)))))));
}

const MOVES = { promoted: "promoted", relegated: "relegated", stayed: "stayed", final: "" };

function divisionTables(seasons) {
  return seasons.slice().reverse().map((s) => el("section", { class: "season", id: `season-${s.season}`, "data-season": s.season },
    el("h3", { text: `Season ${s.season}${s.over ? "" : " (playing)"}` }),
    el("div", { class: "division-grid" }, s.divisions.map((rows, d) => el("section", {
      class: "division", id: `division-${s.season}-${d + 1}`, "data-division": d + 1,
    },
      el("h4", {}, el("a", { class: "division-page", href: `/events/${encodeURIComponent(name)}/seasons/${s.season}/divisions/${d + 1}`, text: `Division ${d + 1}` })),
      el("div", { class: "scroll-box" }, el("table", { class: "grid" },
        el("thead", {}, el("tr", {}, ["Place", "Bot", "Points", "Games", s.over ? "Then" : ""].map((t) => el("th", { text: t })))),
        el("tbody", {}, rows.map((row) => el("tr", { "data-bot": row.bot },
          el("td", { class: "num", text: String(row.place) }), el("td", {}, botLink(row.bot)),
          el("td", { class: "num", text: Number.isInteger(row.points) ? String(row.points) : row.points.toFixed(1) }),
          el("td", { class: "num", text: String(row.games) }),
          el("td", { class: row.move ? `move-${row.move}` : undefined, text: row.move ? MOVES[row.move] : "" })))))))))));
}

function detailPage(e) {
  return [
    facts(e),
    el("section", { id: "entrants-section" }, el("h2", { text: `Entrants (${e.entrants.length})` }), entrants(e)),
    e.bracket ? el("section", { id: "bracket-section" }, el("h2", { text: "Bracket" }),
      el("p", { class: "muted small", text: "Seeds by official standing, strongest first; each heat is one sealed deal played once per seat order, and ties go to the better seed. A void deal is dealt again, twice at most; then the better seed goes through. Updates as heats finish." }),
      bracket(e.bracket)) : null,
    e.divisions ? el("section", { id: "divisions-section" }, el("h2", { text: "Divisions" }),
      el("p", { class: "muted small", text: "Each season every division plays a round robin; then the top of each division goes up and the bottom goes down." }),
      divisionTables(e.divisions)) : null,
    el("section", { id: "results-section" }, el("h2", { text: "Results" }), standings(e)),
  ];
}

async function refresh() {
  try {
    if (name) {
      const detail = await api(`/api/events/${encodeURIComponent(name)}`);
      $("title").textContent = `Event ${detail.name}`;
      document.title = `${detail.name} · Premiere`;
      fill($("content"), detailPage(detail));
    } else {
      const { events } = await apiAll("/api/events", "events");
      fill($("content"), eventsTable(events));
    }
    $("status").textContent = `updated ${new Date().toLocaleTimeString()}`;
    showError(null);
    document.body.dataset.ready = "true";
  } catch (error) {
    if (name && error.status === 404) {
      notFound("No such event", `There is no event ${JSON.stringify(name)}: the link may be mistyped.`, "/events", "See every event");
      return;
    }
    showError(error);
  }
  setTimeout(refresh, refreshSeconds * 1000);
}

$("nav").replaceWith(nav(name ? "" : "/events"));
refresh();
