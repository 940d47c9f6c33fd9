// The ladder dashboard's competition sections, beside dashboard.js and independent of it: the
// chosen game's seat advantage and the progress of its leagues that end on their own, and for
// the chosen player its versions (lineage, each version's live Elo) and its standing
// (validation, probation) with every change. It follows the game and player in the URL hash
// that dashboard.js keeps, and
// refreshes on the same period (?refresh=SECONDS).
//
// Everything from the API is put on the page as text (textContent), never as HTML.

import { $, api, apiAll, el, when } from "./common.js";

const params = new URLSearchParams(location.search);
const refreshSeconds = Math.max(0.5, Number(params.get("refresh")) || 5);
const view = { game: "", player: "", runs: 0 };

const fixed = (value, digits) => (value === null || value === undefined ? "–" : value.toFixed(digits));
const signedElo = (value) => `${value >= 0 ? "+" : "\u2212"}${Math.abs(value).toFixed(0)}`;

function hashView() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const game = hash.get("game") || ($("game") && $("game").value) || "";
  return { game, player: hash.get("player") || "" };
}

// --- seat advantage --------------------------------------------------------------------------

function renderSeats(body) {
  const rows = [];
  for (const table of body.by_players) {
    for (const seat of table.seats) {
      rows.push(
        el(
          "tr",
          { "data-players": table.players, "data-seat": seat.seat },
          el("td", { class: "num", text: String(table.players) }),
          el("td", { class: "num", text: String(seat.seat + 1) }),
          el("td", { class: "num", text: `${fixed(seat.score, 3)}` }),
          el("td", { class: "num", text: `${fixed(seat.low, 3)} – ${fixed(seat.high, 3)}` }),
          el("td", { class: "num", text: signedElo(seat.elo) }),
          el("td", { class: "num", text: String(table.matches) }),
        ),
      );
    }
  }
  $("seats").tBodies[0].replaceChildren(...rows);
  $("seats-empty").hidden = rows.length > 0;
  $("seats-empty").textContent = rows.length ? "" : "No finished matches of this game yet.";
}

// --- leagues that end on their own -----------------------------------------------------------
// One section per format, drawn from what the server says of each league's progress (`shown`):
// its brief figures as columns, the series' last value on a meter between its bounds, and the
// verdict. No format is named here.

function seriesBar(shown) {
  // A native <meter>: no inline style, which the page's Content-Security-Policy forbids.
  const s = shown.series;
  return el("meter", {
    class: "series-bar",
    min: s.low.toFixed(3),
    max: s.high.toFixed(3),
    value: Math.min(s.high, Math.max(s.low, shown.point[1])).toFixed(3),
    title: s.note,
  });
}

function progressRow(league) {
  const s = league.shown;
  return el(
    "tr",
    { "data-league": league.name, "data-verdict": s.verdict || "" },
    el("td", { text: league.name }),
    ...s.brief.map((f) =>
      el("td", { "data-figure": f.key }, f.text, s.series && s.point && f.key === s.series.key ? seriesBar(s) : null),
    ),
    el("td", { class: "verdict", text: `${s.verdict_short}${league.rated ? "" : " · unrated"}` }),
  );
}

function renderProgress(body) {
  const byFormat = new Map();
  for (const league of body.leagues.filter((l) => l.shown)) {
    if (!byFormat.has(league.format)) byFormat.set(league.format, []);
    byFormat.get(league.format).push(league);
  }
  const sections = [...byFormat].map(([format, leagues]) => {
    const first = leagues[0].shown;
    return el("section", { id: `${format}-section`, "aria-label": first.short_title },
      el("div", { class: "section-head" }, el("h2", { text: first.short_title })),
      el("div", { class: "table-wrap" },
        el("table", { id: format, class: "grid compact" },
          el("thead", {}, el("tr", {},
            el("th", { scope: "col", text: "League" }),
            ...first.brief.map((f) => el("th", { scope: "col", text: f.label })),
            el("th", { scope: "col", text: "Verdict" }))),
          el("tbody", {}, leagues.map(progressRow)))));
  });
  $("progress-sections").replaceChildren(...sections);
}

// --- a player's versions and standing --------------------------------------------------------

function renderVersions(body, game) {
  const rows = body.versions.map((v) => {
    const r = v.ratings[game];
    return el(
      "tr",
      { "data-version": v.name, class: v.active ? "active" : "" },
      el("td", { text: v.name }, v.active ? el("span", { class: "badge active", text: "active" }) : null),
      el("td", { text: v.version || "–" }),
      el("td", { text: v.predecessor || "–" }),
      el("td", { class: "num", text: r ? r.elo.toFixed(0) : "–" }),
      el(
        "td",
        { class: "num" },
        r ? String(r.games) : "0",
        r && r.provisional ? el("span", { class: "badge provisional", text: "provisional" }) : null,
      ),
    );
  });
  $("versions").tBodies[0].replaceChildren(...rows);
  $("versions-family").textContent = `Family ${body.family}: each version is its own ladder entry`;
}

function renderStanding(body) {
  const badge = $("standing-state");
  badge.textContent = body.state || "none yet";
  badge.className = `badge standing ${body.state || ""}`;
  $("standing-reason").textContent = body.reason;
  const items = body.events
    .slice()
    .reverse()
    .map((e) =>
      el(
        "li",
        { "data-kind": e.kind },
        el("time", { datetime: e.at, text: when(e.at) }),
        " ",
        el("strong", { text: e.kind }),
        " ",
        e.message,
      ),
    );
  $("standing-events").replaceChildren(...items);
}

async function loadBot(player, game) {
  const section = $("bot-section");
  if (!player || player.startsWith("builtin:")) {
    section.hidden = true;
    return;
  }
  const [versions, standing] = await Promise.all([
    api(`/api/bots/${encodeURIComponent(player)}/versions`).catch((e) => (e.status === 404 ? null : Promise.reject(e))),
    api(`/api/bots/${encodeURIComponent(player)}/standing`).catch((e) => (e.status === 404 ? null : Promise.reject(e))),
  ]);
  $("bot-title").textContent = `${player}: versions and standing`;
  if (versions) renderVersions(versions, game);
  $("versions-wrap").hidden = !versions;
  if (standing) renderStanding(standing);
  $("standing-wrap").hidden = !standing;
  section.hidden = !versions && !standing;
}

async function refresh() {
  const { game, player } = hashView();
  try {
    if (game) {
      const quoted = encodeURIComponent(game);
      const [seats, leagues] = await Promise.all([
        api(`/api/games/${quoted}/seats`),
        apiAll(`/api/games/${quoted}/leagues`, "leagues"),
      ]);
      renderSeats(seats);
      renderProgress(leagues);
    }
    await loadBot(player, game);
    view.runs += 1;
    document.body.dataset.competitionRefreshes = String(view.runs);
  } catch (error) {
    $("competition-error").textContent = `Could not load: ${error.message}`;
    $("competition-error").hidden = false;
    setTimeout(refresh, refreshSeconds * 1000);
    return;
  }
  $("competition-error").hidden = true;
  setTimeout(refresh, refreshSeconds * 1000);
}

refresh();
