// A bot's page: /bots/<name> (or builtin:<name>). Its standing (validating, rated, probation,
// failed, disabled) and why, its versions, its ratings per game with their history, its matches
// page by page (?page=N) with each one's rating change and faults, its latest faults linked to
// the moves they happened at, its seasons in divisions (division, linked to its page, final
// place, promoted, relegated or stayed), and its health as the arbiter recorded it: faults by kind,
// forfeits and decision latency over the last day and week. Reads /api/bots/<name>.

import { $, api, apiAll, fill, notFound, botLink, el, gameName, nav, showError, when } from "./common.js";

const player = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const STANDING = {
  validating: "Validating: playing its first matches against the built-ins, unrated, before rated play",
  failed: "Failed validation: unrated play only until a new version or an operator enables it",
  rated: "Rated: in rated play on the ladder",
  probation: "On probation: too many faults lately; unrated, and seated less often, until its matches are clean again",
  disabled: "Disabled by an operator: seated nowhere",
};

function scroll(table) {
  return el("div", { class: "scroll-box" }, table);
}

function standing(profile) {
  if (profile.builtin) return el("p", { id: "standing", "data-state": "builtin", text: "A built-in bot: always available, rated wherever it plays." });
  const s = profile.standing;
  const state = s && s.state;
  return el("div", { id: "standing", "data-state": state || "none" },
    el("p", {},
      el("span", { class: `standing-badge standing-${state || "none"}`, text: state || "not connected yet" }),
      " ",
      el("span", { text: state ? STANDING[state] || state : "It gets a standing when it first connects." })),
    s && s.reason ? el("p", { class: "standing-why" }, el("strong", { text: "Why: " }), s.reason) : null,
    s && s.since ? el("p", { class: "muted small", text: `since ${when(s.since)}` }) : null,
    s && s.events.length
      ? el("details", { id: "standing-events" }, el("summary", { text: `History (${s.events.length} latest)` }),
        el("ul", { class: "events" }, s.events.slice().reverse().map((e) =>
          el("li", {}, el("span", { class: "muted small", text: `${when(e.at)} · ${e.kind}: ` }), e.message))))
      : null);
}

function versions(profile) {
  const v = profile.versions;
  if (!v || v.versions.length === 0) return el("p", { class: "empty", text: profile.builtin ? "Built-ins have no versions." : "No versions." });
  return scroll(el("table", { class: "grid", id: "versions" },
    el("thead", {}, el("tr", {}, ["Version", "Follows", "Active", "Registered", "Live Elo"].map((t) => el("th", { text: t })))),
    el("tbody", {}, v.versions.map((row) =>
      el("tr", { "data-version": row.name, class: row.name === profile.player ? "current" : undefined },
        el("td", {}, row.name === profile.player ? el("strong", { text: row.name }) : botLink(row.name)),
        el("td", { text: row.predecessor ?? "" }),
        el("td", { text: row.active ? "active" : "" }),
        el("td", { text: when(row.created_at) }),
        el("td", {}, Object.entries(row.ratings).length
          ? Object.entries(row.ratings).map(([g, r]) => el("div", { text: `${gameName(g)} ${r.elo.toFixed(0)} (${r.games}${r.provisional ? ", provisional" : ""})` }))
          : "–"))))));
}

function faults(profile) {
  if (profile.faults.length === 0) return el("p", { class: "empty", id: "faults-empty", text: "No faults in ended matches." });
  return scroll(el("table", { class: "grid", id: "faults" },
    el("thead", {}, el("tr", {}, ["When", "Game", "Fault", "At move", ""].map((t) => el("th", { text: t })))),
    el("tbody", {}, profile.faults.map((f) =>
      el("tr", { "data-match": f.match_id },
        el("td", { text: when(f.at) }),
        el("td", { text: gameName(f.game) }),
        el("td", { class: "bad", text: f.kind }),
        el("td", { class: "num", text: f.ply + 1 }),
        el("td", {}, el("a", { class: "watch", href: `/replay/${f.match_id}?ply=${f.ply}`, text: "see the move" })))))));
}

const MOVES = { promoted: "promoted", relegated: "relegated", stayed: "stayed", final: "final season" };

function divisionHistory(profile) {
  if (profile.divisions.length === 0) return el("p", { class: "empty", id: "divisions-empty", text: "No seasons in divisions yet." });
  return scroll(el("table", { class: "grid", id: "division-history" },
    el("thead", {}, el("tr", {}, ["Competition", "Season", "Division", "Place", "Points", "Then"].map((t) => el("th", { text: t })))),
    el("tbody", {}, profile.divisions.map((d) => {
      const where = d.event
        ? el("a", { href: `/events/${encodeURIComponent(d.event)}#division-${d.season}-${d.division}`, text: d.event })
        : el("a", { href: `/leagues/${encodeURIComponent(d.league)}`, text: d.league });
      return el("tr", { "data-season": d.season, "data-league": d.league },
        el("td", {}, where),
        el("td", { class: "num", text: String(d.season) }),
        el("td", {}, d.event
          ? el("a", { class: "division-page", href: `/events/${encodeURIComponent(d.event)}/seasons/${d.season}/divisions/${d.division}`, text: `${d.division} of ${d.divisions}` })
          : `${d.division} of ${d.divisions}`),
        el("td", { text: `${d.place} of ${d.of}${d.over ? "" : " so far"}` }),
        el("td", { class: "num", text: Number.isInteger(d.points) ? String(d.points) : d.points.toFixed(1) }),
        el("td", { class: d.move ? `move-${d.move}` : "muted", text: d.move ? MOVES[d.move] : "playing" }));
    }))));
}

function change(m) {
  if (m.elo_after === null || m.elo_before === null) return m.rated ? (m.status === "finished" ? "not rated yet" : "–") : "unrated";
  const delta = m.elo_after - m.elo_before;
  return `${delta >= 0 ? "+" : "−"}${Math.abs(delta).toFixed(1)} → ${m.elo_after.toFixed(0)}`;
}

function spark(points) {
  // A small inline SVG line of the live Elo after each rated match.
  if (points.length < 2) return el("span", { class: "muted small", text: "one match so far" });
  const low = Math.min(...points);
  const high = Math.max(...points);
  const span = high - low || 1;
  const w = 400;
  const h = 60;
  const path = points
    .map((p, i) => `${i ? "L" : "M"}${((i / (points.length - 1)) * w).toFixed(1)},${(h - 4 - ((p - low) / span) * (h - 8)).toFixed(1)}`)
    .join(" ");
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("class", "spark");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `live Elo from ${points[0].toFixed(0)} to ${points[points.length - 1].toFixed(0)}`);
  const line = document.createElementNS("http://www.w3.org/2000/svg", "path");
  line.setAttribute("d", path);
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "#2563eb");
  line.setAttribute("stroke-width", "2");
  svg.append(line);
  return svg;
}

// The bot's official standing on a game, as its leaderboard shows it: the estimate with its
// 95% interval (a bare number when the interval has no width), and its rank there.
function officialText(board, player) {
  const entry = board && board.entries.find((e) => e.player === player);
  if (!entry || !entry.standing) return "not fitted yet";
  const s = entry.standing;
  const estimate = s.rating.toFixed(0);
  if (Math.round(s.low) === Math.round(s.high)) return estimate;
  return `${estimate} (${s.low.toFixed(0)}–${s.high.toFixed(0)})${entry.provisional ? ", provisional" : ""}`;
}

function rankText(board, player) {
  const entry = board && board.entries.find((e) => e.player === player);
  return entry ? `#${entry.rank} of ${board.entries.length}` : "–";
}

function ratings(profile, boards) {
  if (profile.ratings.length === 0) return el("p", { class: "empty", text: "No rated matches yet." });
  return scroll(el(
    "table",
    { class: "grid", id: "ratings" },
    el("thead", {}, el("tr", {}, ["Game", "Official standing", "Rank", "Live Elo", "Games", "History (last 200)"].map((t) => el("th", { text: t })))),
    el(
      "tbody",
      {},
      profile.ratings.map((r) =>
        el(
          "tr",
          { "data-game": r.game },
          el("td", {}, el("a", { href: `/?game=${encodeURIComponent(r.game)}#game=${encodeURIComponent(r.game)}&player=${encodeURIComponent(profile.player)}`, text: gameName(r.game) })),
          el("td", { class: "num official", text: officialText(boards[r.game], profile.player) }),
          el("td", { class: "num rank", text: rankText(boards[r.game], profile.player) }),
          el("td", { class: "num elo", text: r.elo.toFixed(0) }),
          el("td", { class: "num", text: r.games }),
          el("td", {}, spark(r.history)),
        ),
      ),
    ),
  ));
}

function health(profile) {
  const kinds = [...new Set(profile.health.flatMap((h) => Object.keys(h.faults)))];
  const row = (label, cells, bad = () => false, link = null) =>
    el("tr", { "data-row": label }, el("th", { scope: "row" }, link ? el("a", { href: link, text: label }) : label),
      cells.map((c) => el("td", { class: `num${bad(c) ? " bad" : ""}` }, link && c > 0 ? el("a", { href: link, text: c }) : String(c ?? "–"))));
  const windows = profile.health;
  return scroll(el(
    "table",
    { class: "grid health", id: "health" },
    el("thead", {}, el("tr", {}, el("th", {}), windows.map((h) => el("th", { class: "num", text: `last ${h.window}` })))),
    el(
      "tbody",
      {},
      row("matches", windows.map((h) => h.matches)),
      row("decisions", windows.map((h) => h.decisions)),
      kinds.map((k) => row(k, windows.map((h) => h.faults[k]), (c) => c > 0, "#faults-section")),
      row("forfeits", windows.map((h) => h.forfeits), (c) => c > 0),
      ["p50", "p90", "p99", "max"].map((q) => row(`latency ${q} (ms)`, windows.map((h) => h.latency_ms[q]))),
    ),
  ));
}

function recent(profile) {
  if (profile.recent.length === 0) return el("p", { class: "empty", text: profile.page ? "No older matches." : "No matches yet." });
  return scroll(el(
    "table",
    { class: "grid", id: "recent" },
    el("thead", {}, el("tr", {}, ["Game", "Result", "Elo change", "Faults", "When", "Seat", "Players", ""].map((t) => el("th", { text: t })))),
    el(
      "tbody",
      {},
      profile.recent.map((m) =>
        el(
          "tr",
          { "data-match": m.match_id },
          el("td", { text: gameName(m.game) }),
          el("td", { text: m.rank ? `#${m.rank} of ${m.seats} (${m.score})${m.forfeited ? " forfeited" : ""}` : m.status }),
          el("td", { class: `num elo-change${m.elo_after !== null && m.elo_after < m.elo_before ? " down" : ""}`, text: change(m) }),
          el("td", { class: "faults" }, Object.entries(m.faults).length
            ? el("a", { class: "bad", href: m.status === "running" ? `/live/${m.match_id}` : `/replay/${m.match_id}`, text: Object.entries(m.faults).map(([k, n]) => `${n} ${k}`).join(", ") })
            : "–"),
          el("td", { text: m.finished_at ? when(m.finished_at) : m.status }),
          el("td", { class: "num", text: m.seat + 1 }),
          el("td", {}, m.players.map((p, i) => [i ? ", " : "", botLink(p)])),
          el("td", {}, el("a", { class: "watch", href: m.status === "running" ? `/live/${m.match_id}` : `/replay/${m.match_id}`, text: m.status === "running" ? "watch live" : "replay" })),
        ),
      ),
    ),
  ));
}

function pager(profile) {
  const go = (page) => {
    const url = new URL(location.href);
    if (page) url.searchParams.set("page", page);
    else url.searchParams.delete("page");
    history.pushState({}, "", url);
    load();
  };
  return el("p", { class: "pager", id: "pager" },
    el("button", { type: "button", id: "newer", disabled: profile.page === 0, onclick: () => go(profile.page - 1), text: "← Newer" }),
    el("span", { class: "muted small", text: ` matches ${profile.page * profile.page_size + 1}–${profile.page * profile.page_size + profile.recent.length} ` }),
    el("button", { type: "button", id: "older", disabled: !profile.has_more, onclick: () => go(profile.page + 1), text: "Older →" }));
}

async function load() {
  const page = Math.max(0, Number(new URLSearchParams(location.search).get("page")) || 0);
  try {
    const profile = await api(`/api/bots/${encodeURIComponent(player)}?page=${page}`);
    const boards = Object.fromEntries(await Promise.all(profile.ratings.map(async (r) =>
      [r.game, await apiAll(`/api/games/${encodeURIComponent(r.game)}/leaderboard`, "entries").catch(() => null)])));
    document.title = `${profile.player} · Premiere`;
    $("title").textContent = profile.player;
    const facts = [
      ["kind", profile.builtin ? "built-in bot" : "registered bot"],
      profile.account ? ["author", el("a", { href: `/authors/${encodeURIComponent(profile.account)}`, id: "author", text: profile.account })] : null,
      profile.registered_at ? ["registered", when(profile.registered_at)] : null,
      profile.builtin ? null : ["version", profile.version || "none announced"],
      profile.builtin ? null : ["last connected", profile.playing
        ? `connected now, playing ${profile.playing} match${profile.playing === 1 ? "" : "es"}`
        : profile.last_connected_at ? when(profile.last_connected_at) : "never"],
      profile.hosting ? ["runs", "hosted: the arena runs it in its sandbox" + (profile.hosting.pool ? `, pool ${profile.hosting.pool}` : "")] : null,
      profile.hosting ? ["CPU per decision", profile.hosting.cpu_ms_per_decision === null
        ? "not measured yet"
        : `${profile.hosting.cpu_ms_per_decision} ms over ${profile.hosting.decisions} decisions (the kernel's count, same hardware for every hosted bot)`] : null,
      profile.removed ? ["removed", "yes"] : null,
      profile.games_declared ? ["plays", profile.games_declared.length ? profile.games_declared.map(gameName).join(", ") : "every game"] : null,
    ].filter(Boolean);
    fill($("content"),
      el("section", { id: "standing-section" }, el("h2", { text: "Standing" }), standing(profile),
        el("dl", { class: "facts inline" }, facts.map(([k, v]) => [el("dt", { text: k }), typeof v === "string" ? el("dd", { text: v }) : el("dd", {}, v)]))),
      profile.builtin ? null : el("section", { id: "versions-section" }, el("h2", { text: "Versions" }), versions(profile)),
      el("section", { id: "ratings-section" }, el("h2", { text: "Ratings" }), ratings(profile, boards)),
      el("section", { id: "recent-section" }, el("h2", { text: "Matches" }),
        el("p", { class: "muted small", text: "Newest first. Elo change: the bot's live Elo on that game before → after the match, once rated; unrated matches (casual, validation, probation) move nothing." }),
        recent(profile), pager(profile)),
      profile.builtin ? null : el("section", { id: "divisions-section" }, el("h2", { text: "Divisions" }), divisionHistory(profile)),
      el("section", { id: "faults-section" }, el("h2", { text: "Faults" }),
        el("p", { class: "muted small", text: "The latest faults charged to this bot in ended matches, each linked to the move it happened at (a running match's faults appear once it ends)." }),
        faults(profile)),
      el("section", { id: "health-section" }, el("h2", { text: "Health" }),
        el("p", { class: "muted small", text: "Faults the arbiter charged to this bot (timeouts, illegal and malformed answers, disconnects), forfeits, and how long it took to answer, over matches started in the window." }),
        health(profile)),
    );
    $("status").textContent = "";
    showError(null);
    document.body.dataset.ready = "true";
    document.body.dataset.matchesPage = String(profile.page);
  } catch (error) {
    if (error.status === 404) {
      notFound("No such bot", `There is no bot ${JSON.stringify(player)}: the link may be mistyped.`, "/bots", "See every bot");
      return;
    }
    $("status").textContent = "";
    showError(error);
  }
}

$("nav").replaceWith(nav(""));
window.addEventListener("popstate", load);
load();
