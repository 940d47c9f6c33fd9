// The ladder dashboard's competition sections, beside dashboard.js and independent of it: the
// chosen game's seat advantage and SPRT head-to-head tests, and for the chosen player its
// versions (lineage, each version's live Elo) and its standing (validation, probation) with
// every change. It follows the game and player in the URL hash that dashboard.js keeps, and
// refreshes on the same period (?refresh=SECONDS).
//
// Everything from the API is put on the page as text (textContent), never as HTML.

import { $, api, el, when } from "./common.js";

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

// --- SPRT tests ------------------------------------------------------------------------------

function llrBar(progress) {
  // A native <meter>: no inline style, which the page's Content-Security-Policy forbids.
  return el("meter", {
    class: "llr-bar",
    min: progress.lower.toFixed(3),
    max: progress.upper.toFixed(3),
    value: Math.min(progress.upper, Math.max(progress.lower, progress.llr)).toFixed(3),
    title: "log-likelihood ratio: H0 is accepted at the left end, H1 at the right",
  });
}

function renderSprt(body) {
  const rows = body.leagues
    .filter((league) => league.progress && league.progress.kind === "sprt")
    .map((league) => {
      const p = league.progress;
      const verdict = p.verdict
        ? { H1: `H1 accepted: ${p.a} is stronger`, H0: `H0 accepted: not stronger`, inconclusive: "stopped at the pair limit" }[p.verdict] || p.verdict
        : "running";
      return el(
        "tr",
        { "data-league": league.name, "data-verdict": p.verdict || "" },
        el("td", { text: league.name }),
        el("td", { text: `${p.a} vs ${p.b}` }),
        el("td", { class: "num", text: `[${p.elo0}, ${p.elo1}] α ${p.alpha} β ${p.beta}` }),
        el("td", { class: "num", text: `${p.pairs.join(" / ")}` }),
        el(
          "td",
          { class: "llr" },
          el("span", { class: "llr-value", text: `${p.llr.toFixed(2)}` }),
          ` in [${p.lower.toFixed(2)}, ${p.upper.toFixed(2)}]`,
          llrBar(p),
        ),
        el("td", { class: "verdict", text: `${verdict}${league.rated ? "" : " · unrated"}` }),
      );
    });
  $("sprt").tBodies[0].replaceChildren(...rows);
  $("sprt-section").hidden = rows.length === 0;
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
        api(`/api/games/${quoted}/leagues?format=sprt`),
      ]);
      renderSeats(seats);
      renderSprt(leagues);
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
