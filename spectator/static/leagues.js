// The leagues: /leagues lists every league with its progress; /leagues/<name> shows one:
// format, schedule, standings (the format's own scoring, stored when a round closes), and its
// rounds with each table's seats, duplicate group, result and replay; an SPRT league also its
// test: the verdict, the LLR after every round between its bounds (a chart), the Elo estimate
// with its error, and the pentanomial counts explained. Refreshes itself.

import { $, api, fill, notFound, optionWords, botLink, el, gameName, nav, showError, when } from "./common.js";

const parts = location.pathname.split("/").filter(Boolean);
const name = parts.length > 1 ? decodeURIComponent(parts[1]) : null;
const refreshSeconds = Math.max(0.5, Number(new URLSearchParams(location.search).get("refresh")) || 5);

function progress(l) {
  const sprt = l.format === "sprt";
  const ended = l.status === "finished" || l.status === "cancelled";
  const total = l.rounds ?? null;
  const rounds = `${l.rounds_closed} round${l.rounds_closed === 1 ? "" : "s"}`;
  let label;
  if (ended) label = `${l.status} after ${rounds}`;
  else if (sprt) label = `${rounds} so far; stops at a verdict${total ? ` (at most ${total})` : ""}`;
  else label = total ? `${l.rounds_closed} of ${total} rounds` : rounds;
  const bar = total && !sprt && !ended ? el("progress", { class: "progress", max: total, value: l.rounds_closed }) : null;
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
    el("thead", {}, el("tr", {}, columns.map((c) => el("th", { "data-column": c, text: c === "games" && DUPLICATE.has(detail.league.format) ? "groups" : c.replaceAll("_", " ") })))),
    el("tbody", {}, detail.standings.map((row) =>
      el("tr", { "data-bot": row.bot }, columns.map((c) => el("td", { "data-column": c }, c === "bot" ? botLink(row[c]) : typeof row[c] === "number" ? points(row[c]) : String(row[c] ?? "–")))))),
  ));
}

// A duplicate group's name as a person reads it: its place in the round ("group 2"), or
// "pair 2" in an SPRT, never the stored key ("r4g1").
function groupLabel(detail, r, key) {
  const found = (r.groups || []).find((g) => g.group === key);
  if (!found) return "";
  return `${detail.league.format === "sprt" ? "pair" : "group"} ${found.number}`;
}

function points(x) {
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}

// Each duplicate group's result: the one result it counts as in the standings.
function groupResults(detail, r) {
  if (!r.groups || r.groups.length === 0 || detail.league.format === "sprt") return null;
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

// --- the SPRT ---------------------------------------------------------------------------------

const DUPLICATE = new Set(["duplicate", "duplicate-swiss"]);

const PAIRS = [
  ["0", (a, b) => `${b} finished above ${a} in both games`],
  ["¼", (a, b) => `${b} above in one game, the other level`],
  ["½", () => "one game each, or both level"],
  ["¾", (a) => `${a} above in one game, the other level`],
  ["1", (a, b) => `${a} finished above ${b} in both games`],
];

let llrChart = null;

function verdictText(p, l) {
  const a = p.a, b = p.b;
  if (p.verdict === "H1") return `H1 accepted: ${a} is stronger than ${b} (by ${p.elo1} Elo or more, with at most ${p.alpha * 100}% chance of a false positive)`;
  if (p.verdict === "H0") return `H0 accepted: ${a} is not stronger than ${b} by more than ${p.elo0} Elo (at most ${p.beta * 100}% chance of missing a real +${p.elo1})`;
  if (p.verdict === "inconclusive") return `Inconclusive: ${p.max_pairs ?? "the most"} pairs played without the LLR reaching a bound`;
  if (l.status === "finished" || l.status === "cancelled") return `Stopped (${l.status}) before a verdict`;
  return "No verdict yet: the test goes on until the LLR reaches a bound";
}

function sign(x, digits) {
  return `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(digits)}`;
}

function eloText(p) {
  if (p.elo === null || p.elo === undefined) return "–";
  if (p.elo_error !== null && p.elo_error !== undefined) return `${sign(p.elo, 1)} ± ${p.elo_error.toFixed(1)}`;
  if (p.elo_low !== null && p.elo_low !== undefined) return `${sign(p.elo, 1)} (95%: at least ${sign(p.elo_low, 0)})`;
  if (p.elo_high !== null && p.elo_high !== undefined) return `${sign(p.elo, 1)} (95%: at most ${sign(p.elo_high, 0)})`;
  return `${sign(p.elo, 1)} (too few pairs for an interval)`;
}

function drawLlr(canvas, history, p) {
  if (llrChart) {
    llrChart.destroy();
    llrChart = null;
  }
  const points = history.map((h) => ({ x: h.pairs.reduce((a, n) => a + n, 0), y: h.llr }));
  canvas.dataset.points = String(points.length);
  if (!window.Chart) return;
  const xs = points.map((q) => q.x);
  const span = [Math.min(0, ...xs), Math.max(1, ...xs)];
  const line = (y, label, color) => ({ label, data: span.map((x) => ({ x, y })), borderColor: color, borderDash: [6, 4], pointRadius: 0, borderWidth: 1.5 });
  llrChart = new window.Chart(canvas, {
    type: "line",
    data: {
      datasets: [
        { label: "LLR", data: [{ x: 0, y: 0 }, ...points], borderColor: "#2563eb", backgroundColor: "#2563eb", pointRadius: points.length > 60 ? 0 : 2.5, borderWidth: 2, tension: 0 },
        line(p.upper, `H1 bound ${p.upper.toFixed(2)}`, "#15803d"),
        line(p.lower, `H0 bound ${p.lower.toFixed(2)}`, "#b91c1c"),
      ],
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      parsing: false,
      scales: {
        x: { type: "linear", title: { display: true, text: "pairs played" }, ticks: { precision: 0 } },
        y: { title: { display: true, text: "LLR" }, suggestedMin: p.lower * 1.1, suggestedMax: p.upper * 1.1 },
      },
      plugins: { legend: { position: "bottom", labels: { boxWidth: 18 } } },
    },
  });
}

function sprtSection(detail) {
  const p = detail.progress;
  const l = detail.league;
  if (!p || p.kind !== "sprt") {
    return el("section", { id: "sprt-section" }, el("h2", { text: "Sequential test (SPRT)" }),
      el("p", { class: "empty", text: "No pair has finished yet: the test starts after the first round." }));
  }
  const pairs = p.pairs.reduce((a, n) => a + n, 0);
  const figures = [
    ["LLR", `${p.llr.toFixed(3)}`, "llr"],
    ["bounds (H0 … H1)", `${p.lower.toFixed(3)} … ${p.upper.toFixed(3)}`, "bounds"],
    ["pairs / games", `${pairs} / ${p.games}`, "pairs"],
    [`score of ${p.a}`, p.score === null ? "–" : `${(p.score * 100).toFixed(1)}%`, "score"],
    [`Elo of ${p.a} over ${p.b}`, eloText(p), "elo"],
    ["LOS", p.los === null || p.los === undefined ? "–" : `${(p.los * 100).toFixed(1)}%`, "los"],
  ];
  const canvas = el("canvas", { id: "llr-chart", role: "img", "aria-label": `LLR after each round, between the bounds ${p.lower.toFixed(2)} and ${p.upper.toFixed(2)}` });
  const section = el("section", { id: "sprt-section" },
    el("h2", { text: "Sequential test (SPRT)" }),
    el("p", { class: "muted small", text: `Is ${p.a} stronger than ${p.b} by ${p.elo1} Elo (H1), or by no more than ${p.elo0} (H0)? α = ${p.alpha}, β = ${p.beta}.` }),
    el("p", { class: `verdict ${p.verdict ?? "open"}`, id: "verdict", "data-verdict": p.verdict ?? "" }, verdictText(p, l)),
    el("dl", { class: "sprt-figures", id: "sprt-figures" }, figures.map(([k, v, key]) => el("div", { "data-figure": key }, el("dt", { text: k }), el("dd", { text: v })))),
    el("div", { class: "llr-chart" }, canvas),
    el("p", { class: "muted small", text: `The log-likelihood ratio after every round, against the number of pairs: H1 is accepted when it reaches the upper bound, H0 when it reaches the lower one. Elo ± is the 95% interval of ${p.a}'s Elo over ${p.b} from the pairs so far (one-sided while the pairs are nearly all one way); LOS the chance that ${p.a} is stronger at all.` }),
    el("h3", { text: "Pairs by score (the pentanomial counts)" }),
    el("p", { class: "muted small", text: `Each pair is two games on one deal, with ${p.a} and ${p.b} in each other's seats, so the luck of the cards cancels. A game scores 1 for ${p.a} finishing above ${p.b}, ½ level, 0 below (a forfeit is a loss); a pair scores the mean of its two games. The test counts pairs, not games.` }),
    scroll(el("table", { class: "grid compact pentanomial", id: "pentanomial" },
      el("thead", {}, el("tr", {}, ["Pair score", "Meaning", "Pairs", "Share"].map((t) => el("th", { text: t })))),
      el("tbody", {}, PAIRS.map(([score, meaning], i) => el("tr", { "data-score": score },
        el("td", { class: "num", text: score }),
        el("td", { text: meaning(p.a, p.b) }),
        el("td", { class: "num", text: p.pairs[i] }),
        el("td", { class: "num", text: pairs ? `${((p.pairs[i] / pairs) * 100).toFixed(0)}%` : "–" })))))),
  );
  queueMicrotask(() => drawLlr(canvas, detail.progress_history, p));
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
    l.format === "sprt" ? sprtSection(detail) : null,
    el("section", { id: "standings-section" }, el("h2", { text: `Standings${detail.standings_round ? ` after round ${detail.standings_round}` : ""}` }),
      DUPLICATE.has(l.format)
        ? el("p", { class: "duplicate-note", id: "duplicate-note", text: "Duplicate play: each group's bots play one deal once per seat, the seats rotated between its tables, so the luck of the cards cancels. A group counts as one game below: its bots are ranked by their points summed over the group's tables." })
        : null,
      standings(detail),
      el("p", { class: "muted small", text: `Points from places (ties share), then head-to-head, Buchholz and wins: ${DUPLICATE.has(l.format) ? "groups" : "matches"} finished first alone (a tie for first is not a win; docs/leagues.md).` })),
    el("section", { id: "rounds-section" }, el("h2", { text: "Rounds" }), rounds(detail)),
  ];
}

// The rounds (and SPRT progress) already fetched: a closed round never changes, so each
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
      const { leagues } = await api("/api/leagues");
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
