// The leagues: /leagues lists every league with its progress; /leagues/<name> shows one:
// format, schedule, standings (the format's own scoring, stored when a round closes), and its
// rounds with each table's seats, duplicate group, result and replay. Refreshes itself.

import { $, api, botLink, el, gameName, nav, showError, when } from "./common.js";

const parts = location.pathname.split("/").filter(Boolean);
const name = parts.length > 1 ? decodeURIComponent(parts[1]) : null;
const refreshSeconds = Math.max(0.5, Number(new URLSearchParams(location.search).get("refresh")) || 5);

function progress(l) {
  const total = l.rounds ?? null;
  const label = total ? `${l.rounds_closed} of ${total} rounds` : `${l.rounds_closed} rounds`;
  return el("span", {}, total ? el("progress", { class: "progress", max: total, value: l.rounds_closed }) : null, ` ${label}`,
    el("span", { class: "muted small", text: ` · ${l.tables_done}/${l.tables} tables` }));
}

function listPage(leagues) {
  if (leagues.length === 0) return el("p", { class: "empty", id: "leagues-empty", text: "No leagues yet." });
  return el(
    "table",
    { class: "grid", id: "leagues" },
    el("thead", {}, el("tr", {}, ["League", "Game", "Format", "Schedule", "Status", "Progress"].map((t) => el("th", { text: t })))),
    el("tbody", {}, leagues.map((l) =>
      el("tr", { "data-league": l.name },
        el("td", {}, el("a", { href: `/leagues/${encodeURIComponent(l.name)}`, text: l.name })),
        el("td", { text: gameName(l.game) }),
        el("td", { text: `${l.format}, ${l.players} seats` }),
        el("td", { text: l.schedule }),
        el("td", { text: l.status }),
        el("td", {}, progress(l))))),
  );
}

function standings(detail) {
  if (detail.standings.length === 0) return el("p", { class: "empty", text: "No round has closed yet." });
  const first = ["rank", "bot", "points", "games", "wins"];
  const columns = [...first.filter((c) => c in detail.standings[0]), ...Object.keys(detail.standings[0]).filter((c) => !first.includes(c))];
  return el(
    "table",
    { class: "grid", id: "standings" },
    el("thead", {}, el("tr", {}, columns.map((c) => el("th", { text: c })))),
    el("tbody", {}, detail.standings.map((row) =>
      el("tr", { "data-bot": row.bot }, columns.map((c) => el("td", {}, c === "bot" ? botLink(row[c]) : String(row[c])))))),
  );
}

function rounds(detail) {
  return detail.rounds.map((r) =>
    el("section", { class: "round", "data-round": r.number },
      el("h3", { text: `Round ${r.number} · ${r.status}` }, el("span", { class: "muted small", text: ` opened ${when(r.opened_at)}${r.closed_at ? `, closed ${when(r.closed_at)}` : ""}` })),
      el("table", { class: "grid compact" },
        el("thead", {}, el("tr", {}, ["Table", "Group", "Seats (place, score)", "Status", ""].map((t) => el("th", { text: t })))),
        el("tbody", {}, r.tables.map((t) =>
          el("tr", { "data-match": t.match_id ?? "" },
            el("td", { class: "num", text: t.table }),
            el("td", { text: t.group ?? "" }),
            el("td", {}, t.seats.map((s, i) => [i ? ", " : "", botLink(s), t.ranks ? ` (#${t.ranks[i]}, ${t.scores[i]})` : ""])),
            el("td", { text: t.status }),
            el("td", {}, t.match_id
              ? el("a", { class: "watch", href: t.status === "dispatched" ? `/live/${t.match_id}` : `/replay/${t.match_id}`, text: t.status === "dispatched" ? "watch" : "replay" })
              : null)))))));
}

function detailPage(detail) {
  const l = detail.league;
  return [
    el("section", {}, el("dl", { class: "facts inline", id: "league-facts" }, [
      ["game", gameName(l.game)], ["format", l.format], ["seats", l.players], ["schedule", l.schedule],
      ["status", l.status], ["bots", l.bots.length], ["options", JSON.stringify(detail.options)],
    ].map(([k, v]) => [el("dt", { text: k }), el("dd", { text: String(v) })])), el("p", {}, progress(l))),
    el("section", { id: "standings-section" }, el("h2", { text: `Standings${detail.standings_round ? ` after round ${detail.standings_round}` : ""}` }), standings(detail),
      el("p", { class: "muted small", text: "Points from places (ties share), then head-to-head, Buchholz and wins (docs/leagues.md)." })),
    el("section", { id: "rounds-section" }, el("h2", { text: "Rounds" }), rounds(detail)),
  ];
}

async function refresh() {
  try {
    if (name) {
      const detail = await api(`/api/leagues/${encodeURIComponent(name)}`);
      $("title").textContent = `League ${detail.league.name}`;
      document.title = `${detail.league.name} · Premiere`;
      $("content").replaceChildren(...detailPage(detail));
    } else {
      const { leagues } = await api("/api/leagues");
      $("content").replaceChildren(listPage(leagues));
    }
    $("status").textContent = `updated ${new Date().toLocaleTimeString()}`;
    showError(null);
    document.body.dataset.ready = "true";
    document.body.dataset.refreshes = String(Number(document.body.dataset.refreshes || 0) + 1);
  } catch (error) {
    showError(error);
  }
  setTimeout(refresh, refreshSeconds * 1000);
}

$("nav").replaceWith(nav(name ? "" : "/leagues"));
refresh();
