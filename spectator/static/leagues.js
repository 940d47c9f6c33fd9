// The leagues: /leagues lists every league with its progress; /leagues/<name> shows one:
// format, schedule, standings (the format's own scoring, stored when a round closes), and its
// rounds with each table's seats, duplicate group, result and replay; a league whose format
// ends on its own also its progress, as the server draws it (labelled values, the verdict, a
// chart of one value after every round between its bounds, tables). Refreshes itself.

import { $, api, apiAll, fill, notFound, optionWords, botLink, el, gameName, nav, showError, when } from "./common.js";

const parts = location.pathname.split("/").filter(Boolean);
const name = parts.length > 1 ? decodeURIComponent(parts[1]) : null;
const refreshSeconds = Math.max(0.5, Number(new URLSearchParams(location.search).get("refresh")) || 5);

function progress(l) {
  const early = l.ends_early;
  const ended = l.status === "finished" || l.status === "cancelled";
  const total = l.rounds ?? null;
  const rounds = `${l.rounds_closed} round${l.rounds_closed === 1 ? "" : "s"}`;
  let label;
  if (ended) label = `${l.status} after ${rounds}`;
  else if (early) label = `${rounds} so far; stops at a verdict${total ? ` (at most ${total})` : ""}`;
  else label = total ? `${l.rounds_closed} of ${total} rounds` : rounds;
  const bar = total && !early && !ended ? el("progress", { class: "progress", max: total, value: l.rounds_closed }) : null;
  return el("span", { class: "league-progress" }, bar, ` ${label}`,
    el("span", { class: "muted small", text: ` · ${l.tables_done}/${l.tables} tables` }));
}

function scroll(table) {
  return el("div", { class: "scroll-box" }, table);
}

function listPage(leagues) {
  if (leagues.length === 0) return el("p", { class: "empty", id: "leagues-empty", text: "No leagues yet." });
  return scroll(el(
    "table",
    { class: "grid", id: "leagues" },
    el("thead", {}, el("tr", {}, ["League", "Status", "Progress", "Game", "Format", "Schedule"].map((t) => el("th", { text: t })))),
    el("tbody", {}, leagues.map((l) =>
      el("tr", { "data-league": l.name },
        el("td", {}, el("a", { href: `/leagues/${encodeURIComponent(l.name)}`, text: l.name })),
        el("td", { text: l.status }),
        el("td", {}, progress(l)),
        el("td", { text: gameName(l.game) }),
        el("td", { text: `${l.format}, ${l.players} seats` }),
        el("td", { text: l.schedule })))),
  ));
}

function standings(detail) {
  if (detail.standings.length === 0) return el("p", { class: "empty", text: "No round has closed yet." });
  const first = ["rank", "bot", "points", "games", "wins"];
  const columns = [...first.filter((c) => c in detail.standings[0]), ...Object.keys(detail.standings[0]).filter((c) => !first.includes(c))];
  return scroll(el(
    "table",
    { class: "grid", id: "standings" },
    el("thead", {}, el("tr", {}, columns.map((c) => el("th", { "data-column": c, text: c === "games" && detail.league.duplicate ? "groups" : c.replaceAll("_", " ") })))),
    el("tbody", {}, detail.standings.map((row) =>
      el("tr", { "data-bot": row.bot }, columns.map((c) => el("td", { "data-column": c }, c === "bot" ? botLink(row[c]) : typeof row[c] === "number" ? points(row[c]) : String(row[c] ?? "–")))))),
  ));
}

// A group's name as a person reads it: its place in the round, with the noun its format gives
// it ("group 2", "pair 2"), never the stored key ("r4g1").
function groupLabel(detail, r, key) {
  const found = (r.groups || []).find((g) => g.group === key);
  if (!found) return "";
  return `${detail.league.group_noun} ${found.number}`;
}

function points(x) {
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}

// Each duplicate group's result: the one result it counts as in the standings.
function groupResults(detail, r) {
  if (!r.groups || r.groups.length === 0 || !detail.league.duplicate) return null;
  return el("ul", { class: "group-results" }, r.groups.map((g) =>
    el("li", { "data-group": g.number },
      el("strong", { text: `Group ${g.number}` }),
      ` (${g.tables} tables, one deal): `,
      g.points
        ? g.bots.map((bot, i) => [i ? ", " : "", `#${g.ranks[i]} `, botLink(bot), ` ${points(g.points[i])} points`])
        : `${g.finished} of ${g.tables} tables played; the group's result comes when all have finished`)));
}

function rounds(detail) {
  const grouped = detail.rounds.some((r) => r.groups && r.groups.length);
  return detail.rounds.map((r) =>
    el("section", { class: "round", "data-round": r.number },
      el("h3", { text: `Round ${r.number} · ${r.status}` }, el("span", { class: "muted small", text: ` opened ${when(r.opened_at)}${r.closed_at ? `, closed ${when(r.closed_at)}` : ""}` })),
      scroll(el("table", { class: "grid compact" },
        el("thead", {}, el("tr", {}, ["Table", grouped ? "Group" : null, "Seats (place, score)", "Status", ""].filter((t) => t !== null).map((t) => el("th", { text: t })))),
        el("tbody", {}, r.tables.map((t) =>
          el("tr", { "data-match": t.match_id ?? "" },
            el("td", { class: "num", text: t.table + 1 }),
            grouped ? el("td", { class: "group", text: groupLabel(detail, r, t.group) }) : null,
            el("td", {}, t.seats.map((s, i) => [i ? ", " : "", botLink(s), t.ranks ? ` (#${t.ranks[i]}, ${t.scores[i]})` : ""])),
            el("td", { text: t.status }),
            el("td", {}, t.match_id
              ? el("a", { class: "watch", href: t.status === "dispatched" ? `/live/${t.match_id}` : `/replay/${t.match_id}`, text: t.status === "dispatched" ? "watch" : "replay" })
              : null)))))),
      groupResults(detail, r)));
}

// --- a format's progress ----------------------------------------------------------------------
// Drawn from what the server says of it (`shown`): labelled values, a verdict, a series of one
// point per round between two bounds, and small tables; no format is named here.

let seriesChart = null;

function drawSeries(canvas, history, series) {
  if (seriesChart) {
    seriesChart.destroy();
    seriesChart = null;
  }
  const points = history.filter((h) => h.point).map((h) => ({ x: h.point[0], y: h.point[1] }));
  canvas.dataset.points = String(points.length);
  if (!window.Chart) return;
  const xs = points.map((q) => q.x);
  const span = [Math.min(0, ...xs), Math.max(1, ...xs)];
  const line = (y, label, color) => ({ label, data: span.map((x) => ({ x, y })), borderColor: color, borderDash: [6, 4], pointRadius: 0, borderWidth: 1.5 });
  seriesChart = new window.Chart(canvas, {
    type: "line",
    data: {
      datasets: [
        { label: series.label, data: [{ x: 0, y: 0 }, ...points], borderColor: "#2563eb", backgroundColor: "#2563eb", pointRadius: points.length > 60 ? 0 : 2.5, borderWidth: 2, tension: 0 },
        line(series.high, series.high_label, "#15803d"),
        line(series.low, series.low_label, "#b91c1c"),
      ],
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      parsing: false,
      scales: {
        x: { type: "linear", title: { display: true, text: series.x_label }, ticks: { precision: 0 } },
        y: { title: { display: true, text: series.label }, suggestedMin: series.low * 1.1, suggestedMax: series.high * 1.1 },
      },
      plugins: { legend: { position: "bottom", labels: { boxWidth: 18 } } },
    },
  });
}

function verdictText(shown, l) {
  if (!shown.verdict && (l.status === "finished" || l.status === "cancelled")) return `Stopped (${l.status}) before a verdict`;
  return shown.verdict_text;
}

function listing(t) {
  return [
    el("h3", { text: t.title }),
    el("p", { class: "muted small", text: t.note }),
    scroll(el("table", { class: "grid compact listing", id: t.key },
      el("thead", {}, el("tr", {}, t.columns.map((c) => el("th", { text: c })))),
      el("tbody", {}, t.rows.map((row, i) => el("tr", { "data-key": t.row_keys[i] },
        row.map((cell, j) => el("td", { class: t.numeric[j] ? "num" : "", text: cell }))))))),
  ];
}

function progressSection(detail) {
  const s = detail.shown;
  const l = detail.league;
  const id = `${l.format}-section`;
  if (!s) {
    return el("section", { id }, el("h2", { text: "Progress" }),
      el("p", { class: "empty", text: "Nothing has finished yet: the progress is shown after the first round." }));
  }
  const canvas = s.series
    ? el("canvas", { id: `${s.series.key}-chart`, role: "img", "aria-label": `${s.series.label} after each round, between the bounds ${s.series.low.toFixed(2)} and ${s.series.high.toFixed(2)}` })
    : null;
  const section = el("section", { id },
    el("h2", { text: s.title }),
    el("p", { class: "muted small", text: s.question }),
    el("p", { class: `verdict ${s.verdict ?? "open"}`, id: "verdict", "data-verdict": s.verdict ?? "" }, verdictText(s, l)),
    el("dl", { class: "progress-figures", id: `${l.format}-figures` }, s.figures.map((f) => el("div", { "data-figure": f.key }, el("dt", { text: f.label }), el("dd", { text: f.text })))),
    canvas ? el("div", { class: "series-chart" }, canvas) : null,
    el("p", { class: "muted small", text: s.note }),
    ...s.listings.flatMap(listing),
  );
  if (canvas) queueMicrotask(() => drawSeries(canvas, detail.progress_history, s.series));
  return section;
}

function detailPage(detail) {
  const l = detail.league;
  return [
    el("section", {}, el("dl", { class: "facts inline", id: "league-facts" }, [
      ["game", gameName(l.game)], ["format", l.format], ["seats", l.players], ["schedule", l.schedule],
      ["status", l.status], ["bots", l.bots.length], ["rated", detail.rated ? "yes" : "no"],
      ...(Object.keys(detail.settings).length ? [["settings", Object.entries(detail.settings).map(([k, v]) => `${k}=${v}`).join(", ")]] : []),
      ["options", optionWords(detail.options)],
    ].map(([k, v]) => [el("dt", { text: k }), el("dd", { text: String(v) })])), el("p", {}, progress(l))),
    l.ends_early ? progressSection(detail) : null,
    el("section", { id: "standings-section" }, el("h2", { text: `Standings${detail.standings_round ? ` after round ${detail.standings_round}` : ""}` }),
      l.duplicate
        ? el("p", { class: "duplicate-note", id: "duplicate-note", text: "Duplicate play: each group's bots play one deal once per seat, the seats rotated between its tables, so the luck of the cards cancels. A group counts as one game below: its bots are ranked by their points summed over the group's tables." })
        : null,
      standings(detail),
      el("p", { class: "muted small", text: `Points from places (ties share), then head-to-head, Buchholz and wins: ${l.duplicate ? "groups" : "matches"} finished first alone (a tie for first is not a win; docs/leagues.md).` })),
    el("section", { id: "rounds-section" }, el("h2", { text: "Rounds" }), rounds(detail)),
  ];
}

// The rounds (and the progress after each) already fetched: a closed round never changes, so each
// refresh asks only for the rounds from the first one still open (or the next to come).
const held = { rounds: new Map(), history: new Map() };

async function fetchDetail() {
  let since = null;
  if (held.rounds.size) {
    const open = [...held.rounds.values()].filter((r) => r.status !== "closed").map((r) => r.number);
    since = open.length ? Math.min(...open) : Math.max(...held.rounds.keys()) + 1;
  }
  const fresh = await api(`/api/leagues/${encodeURIComponent(name)}${since === null ? "" : `?since=${since}`}`);
  for (const r of fresh.rounds) held.rounds.set(r.number, r);
  for (const h of fresh.progress_history) held.history.set(h.round, h);
  const numbers = [...held.rounds.keys()].sort((a, b) => b - a);
  for (const gone of numbers.slice(50)) held.rounds.delete(gone);
  document.body.dataset.since = since === null ? "" : String(since);
  return {
    ...fresh,
    rounds: numbers.slice(0, 50).map((n) => held.rounds.get(n)),
    progress_history: [...held.history.keys()].sort((a, b) => a - b).map((n) => held.history.get(n)),
  };
}

async function refresh() {
  try {
    if (name) {
      const detail = await fetchDetail();
      $("title").textContent = `League ${detail.league.name}`;
      document.title = `${detail.league.name} · Premiere`;
      fill($("content"), detailPage(detail));
    } else {
      const { leagues } = await apiAll("/api/leagues", "leagues");
      $("content").replaceChildren(listPage(leagues));
    }
    $("status").textContent = `updated ${new Date().toLocaleTimeString()}`;
    showError(null);
    document.body.dataset.ready = "true";
    document.body.dataset.refreshes = String(Number(document.body.dataset.refreshes || 0) + 1);
  } catch (error) {
    if (name && error.status === 404) {
      notFound("No such league", `There is no league ${JSON.stringify(name)}: the link may be mistyped.`, "/leagues", "See every league");
      return;
    }
    showError(error);
  }
  setTimeout(refresh, refreshSeconds * 1000);
}

$("nav").replaceWith(nav(name ? "" : "/leagues"));
refresh();
