// The ladder dashboard: reads the JSON API of the ladder service that serves this page and
// renders a game's leaderboard, a player's rating history (Chart.js, vendored under
// /static/vendor/), the recent matches page by page, each linked to its replay. It refreshes every
// few seconds (?refresh=SECONDS changes that). State worth linking to lives in the URL hash:
// #game=movie-tricks&player=ada.
//
// Everything from the API is put on the page as text (textContent), never as HTML: bot names
// are chosen by whoever registers a bot.

import { $, api, apiAll, el, gameName, when } from "./common.js";

const PAGE_SIZE = 10;
const HISTORY_LIMIT = 1000;
const MINUS = "\u2212";

const params = new URLSearchParams(location.search);
const refreshSeconds = Math.max(0.5, Number(params.get("refresh")) || 5);

const state = {
  games: [],
  game: "",
  player: "",
  pageTokens: [""], // pageTokens[i] is the token of page i; page 0 is the newest
  page: 0,
  nextToken: "",
  // Bumped whenever the view changes, so a slow answer for an old view is dropped.
  view: 0,
  refreshes: 0,
  lastOk: null,
};

let chart = null;
let timer = null;

// --- helpers ---------------------------------------------------------------------------------

function rating(value) {
  return value.toFixed(0);
}

function signed(value) {
  const text = Math.abs(value).toFixed(1);
  if (text === "0.0") return "±0.0";
  return (value > 0 ? "+" : MINUS) + text;
}

function pad(number) {
  return String(number).padStart(2, "0");
}

function clock(date) {
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

function dateTime(iso) {
  return when(iso);
}

function ago(iso) {
  const seconds = Math.max(0, (Date.now() - new Date(iso).getTime()) / 1000);
  if (seconds < 10) return "just now";
  if (seconds < 60) return `${Math.floor(seconds)} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  if (seconds < 30 * 86400) return `${Math.floor(seconds / 86400)} d ago`;
  return dateTime(iso).slice(0, 10);
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function matchesText(count) {
  return `${count} rated match${count === 1 ? "" : "es"}`;
}

function playerLabel(name, builtin, reference, anchor) {
  return el(
    "span",
    { class: "player-name" },
    name,
    builtin ? el("span", { class: "badge builtin", title: "built-in bot", text: "built-in" }) : null,
    reference
      ? el("span", { class: "badge reference", title: "solo reference: fixed rating", text: "reference" })
      : null,
    anchor
      ? el("span", { class: "badge anchor", title: "anchor: pinned at its rating by the operator", text: "anchor" })
      : null,
  );
}

function showEmpty(id, message) {
  const node = $(id);
  node.textContent = message || "";
  node.hidden = !message;
}

// --- the URL hash ----------------------------------------------------------------------------

function readHash() {
  const hash = new URLSearchParams(location.hash.slice(1));
  return { game: hash.get("game") || "", player: hash.get("player") || "" };
}

function writeHash() {
  const hash = new URLSearchParams();
  if (state.game) hash.set("game", state.game);
  if (state.player) hash.set("player", state.player);
  history.replaceState(null, "", `${location.pathname}${location.search}#${hash}`);
}

// --- games -----------------------------------------------------------------------------------

async function loadGames() {
  const { games } = await api("/api/games");
  state.games = games;
  const select = $("game");
  const known = new Set(games.map((g) => g.game));
  if (!known.has(state.game)) state.game = games.length ? games[0].game : "";
  const options = games.map((g) =>
    el("option", { value: g.game }, `${gameName(g.game)} (${matchesText(g.rated_matches)})`),
  );
  const same =
    select.options.length === options.length &&
    options.every((o, i) => select.options[i].value === o.value && select.options[i].text === o.text);
  if (!same) select.replaceChildren(...options);
  select.value = state.game;
}

// --- leaderboard -----------------------------------------------------------------------------

// The orders a visitor may choose: the ladder's own (established first, then by standing),
// the point estimate alone, or the live Elo.
const SORTS = {
  sure: null,
  estimate: (a, b) => (b.standing ? b.standing.rating : -Infinity) - (a.standing ? a.standing.rating : -Infinity),
  elo: (a, b) => b.elo - a.elo,
};

// An interval of no width (a bot that alone sets the scale) is a bare number, never
// "1500 (1500–1500)".
function intervalText(standing) {
  if (rating(standing.low) === rating(standing.high)) return " (sets the scale: no interval)";
  return ` (${rating(standing.low)}–${rating(standing.high)})`;
}

// When the official standings moved because the scale moved (the established bots' average is
// held at 1500, so one bot becoming established moves every standing), say so, and why. The
// ladder records each move (ladder/scale.py), so a first-time visitor reads it as well.
function scaleNotice(board) {
  const notice = $("scale-notice");
  const moves = board.scale_moves || [];
  if (moves.length === 0) {
    notice.hidden = true;
    return;
  }
  const shift = moves.reduce((sum, move) => sum + move.shift, 0);
  const joined = [...new Set(moves.flatMap((move) => move.joined))];
  const departed = [...new Set(moves.flatMap((move) => move.departed))];
  const reasons = [];
  if (joined.length) reasons.push(`${joined.join(", ")} became established`);
  if (departed.length) reasons.push(`${departed.join(", ")} stopped being established`);
  if (reasons.length === 0) reasons.push("no bot is established yet, so every bot counts in that average");
  const last = moves[moves.length - 1];
  notice.hidden = false;
  notice.textContent =
    `The scale moved: every official standing moved by ${shift > 0 ? "+" : MINUS}${Math.abs(shift).toFixed(0)} points ` +
    `in the last day (last at ${when(last.at)}), and no bot played better or worse for it. ` +
    `The established bots' average is held at 1500${reasons.length ? `, and ${reasons.join("; ")}` : ""}; ` +
    "the order and the gaps between bots are what their results say.";
}

function renderLeaderboard(board) {
  const body = $("leaderboard").tBodies[0];
  const order = SORTS[$("sort").value] || null;
  const entries = order ? [...board.entries].sort(order) : board.entries;
  scaleNotice(board);
  const rows = entries.map((entry, position) => {
    const standing = entry.standing;
    const selected = entry.player === state.player;
    return el(
      "tr",
      { "data-player": entry.player, class: selected ? "selected" : undefined },
      el("td", { class: "num rank", text: order ? position + 1 : entry.rank }),
      el(
        "td",
        { class: "player" },
        el(
          "button",
          {
            type: "button",
            class: "link player-link",
            "data-player": entry.player,
            title: `Rating history of ${entry.player}`,
            "aria-pressed": selected ? "true" : "false",
            onclick: () => selectPlayer(entry.player),
          },
          playerLabel(entry.player, entry.builtin, entry.reference, entry.anchor),
        ),
        " ",
        el("a", {
          class: "bot-page small",
          href: `/bots/${encodeURIComponent(entry.player)}`,
          title: `${entry.player}: ratings, matches and health`,
          text: "page",
        }),
      ),
      el("td", { class: "num elo", text: rating(entry.elo) }),
      standing
        ? el(
            "td",
            { class: "num standing", title: `standard error ${standing.stderr.toFixed(1)}` },
            el("strong", { text: rating(standing.rating) }),
            el("span", { class: "interval", text: intervalText(standing) }),
          )
        : el("td", { class: "num standing muted", title: "not in the latest fit yet", text: "—" }),
      el("td", { class: "num games", text: entry.games }),
      el(
        "td",
        { class: "flags" },
        entry.provisional
          ? el("span", {
              class: "badge provisional",
              title: "fewer than 20 rated matches",
              text: "provisional",
            })
          : null,
        entry.hosted
          ? el("span", {
              class: "badge hosted",
              title: "run by the arena in its sandbox, on the same hardware as every hosted bot",
              text: "hosted",
            })
          : null,
      ),
      el("td", { class: "last-played", title: entry.last_played, text: ago(entry.last_played) }),
    );
  });
  body.replaceChildren(...rows);
  $("leaderboard").hidden = rows.length === 0;
  showEmpty(
    "leaderboard-empty",
    rows.length
      ? ""
      : `No rated matches yet for ${gameName(board.game)}. Finished matches are rated within ` +
          "a few seconds and their players appear here.",
  );
  const fitted =
    board.standings_matches === board.rated_matches
      ? ""
      : ` · standings fitted on ${board.standings_matches} (refitting)`;
  $("leaderboard-summary").textContent = rows.length
    ? `${plural(rows.length, "player")} · ${matchesText(board.rated_matches)}${fitted}`
    : "";
}

// --- rating history --------------------------------------------------------------------------

function drawHistory(history) {
  const canvas = $("history-chart");
  const points = history.points;
  canvas.dataset.points = String(points.length);
  canvas.dataset.player = history.player;
  // The start first (the Elo before the first match shown), then one point per match, each
  // labelled with its date; the tooltip names the opponents.
  const start = points.length ? [{ start: true, after: points[0].before, games: points[0].games - 1, applied_at: null }] : [];
  const shown = [...start, ...points];
  const labels = shown.map((p) => (p.start ? "start" : dateTime(p.applied_at)));
  const values = shown.map((p) => p.after);
  if (!chart) {
    chart = new window.Chart(canvas, {
      type: "line",
      data: {
        labels,
        datasets: [
          {
            label: "Live Elo",
            data: values,
            borderColor: "#2563eb",
            backgroundColor: "rgba(37, 99, 235, 0.12)",
            fill: "start",
            pointRadius: points.length > 80 ? 0 : 2.5,
            pointHoverRadius: 5,
            borderWidth: 2,
            tension: 0.15,
          },
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: "index", intersect: false },
        scales: {
          x: {
            title: { display: true, text: "date of each rated match" },
            ticks: { maxTicksLimit: 12, autoSkip: true },
            grid: { display: false },
          },
          y: {
            title: { display: true, text: "live Elo" },
            grace: "5%",
            ticks: { callback: (value) => Number(value).toFixed(0) },
          },
        },
        plugins: {
          legend: { display: false },
          tooltip: {
            callbacks: {
              title: (items) => {
                const point = chart.$points[items[0].dataIndex];
                if (point.start) return point.games > 0 ? `before the ${point.games + 1}th match shown` : "start: before the first rated match";
                return `match ${point.games} · ${dateTime(point.applied_at)}`;
              },
              label: (item) => {
                const point = chart.$points[item.dataIndex];
                if (point.start) return `Elo ${point.after.toFixed(1)}`;
                const against = point.opponents && point.opponents.length ? ` against ${point.opponents.join(", ")}` : "";
                return `Elo ${point.after.toFixed(1)} (${signed(point.delta)}), place ${point.rank} of ${point.seats}${against}`;
              },
            },
          },
        },
      },
    });
  } else {
    chart.data.labels = labels;
    chart.data.datasets[0].data = values;
    chart.data.datasets[0].pointRadius = points.length > 80 ? 0 : 2.5;
  }
  chart.$points = shown;
  canvas.dataset.labels = JSON.stringify(labels.slice(0, 3));
  canvas.setAttribute("aria-label", `Live Elo of ${history.player}: from ${values.length ? values[0].toFixed(0) : "–"} at the start to ${values.length ? values[values.length - 1].toFixed(0) : "–"}, after each rated match by date`);
  chart.update("none");
}

function renderHistory(history) {
  const points = history.points;
  $("history-section").hidden = false;
  $("history-title").textContent = `Rating history: ${history.player}`;
  if (points.length) {
    const last = points[points.length - 1];
    const first = points[0];
    const high = Math.max(...points.map((p) => p.after));
    const low = Math.min(...points.map((p) => p.after));
    const shown = points.length < last.games ? ` (the last ${points.length})` : "";
    $("history-summary").textContent =
      `${matchesText(last.games)} on ${gameName(history.game)}${shown} · live Elo ` +
      `${last.after.toFixed(1)} · from ${first.before.toFixed(1)} · ` +
      `high ${high.toFixed(1)}, low ${low.toFixed(1)}`;
  } else {
    $("history-summary").textContent = "";
  }
  $("history-chart").parentElement.hidden = points.length === 0;
  showEmpty(
    "history-empty",
    points.length ? "" : `${history.player} has no rated matches on ${gameName(history.game)} yet.`,
  );
  drawHistory(history);
}

async function loadHistory(view) {
  if (!state.player) {
    $("history-section").hidden = true;
    return;
  }
  const path =
    `/api/bots/${encodeURIComponent(state.player)}/history` +
    `?game=${encodeURIComponent(state.game)}&limit=${HISTORY_LIMIT}`;
  try {
    const history = await api(path);
    if (view === state.view) renderHistory(history);
  } catch (error) {
    if (error.status !== 404) throw error;
    if (view !== state.view) return;
    renderHistory({ game: state.game, player: state.player, builtin: false, points: [] });
  }
}

// --- matches ---------------------------------------------------------------------------------

function seatChip(seat) {
  const rated = seat.rating_delta !== null && seat.rating_delta !== undefined;
  const delta = rated ? seat.rating_delta : 0;
  const tone = !rated ? "unrated" : delta > 0 ? "up" : delta < 0 ? "down" : "even";
  return el(
    "li",
    { class: `seat ${tone}`, "data-player": seat.player, title: `seat ${seat.seat + 1}, score ${seat.score}` },
    el("span", { class: "place", text: seat.rank }),
    playerLabel(seat.player, seat.builtin),
    seat.forfeited ? el("span", { class: "badge forfeit", text: "forfeit" }) : null,
    el("span", {
      class: "delta",
      text: rated ? signed(delta) : "unrated",
      title: rated ? `${seat.rating_before.toFixed(1)} → ${(seat.rating_before + delta).toFixed(1)}` : "this seat was not rated",
    }),
  );
}

// Why a match is unrated, in words, for the reasons the ladder gives (unrated_reason).
const UNRATED = {
  casual: "casual",
  validation: "validation match",
  validating: "a bot still validating",
  unvalidated: "a bot not yet validated in this game",
  failed: "a bot that failed validation",
  probation: "a bot on probation",
  "same-owner": "one owner held two seats",
};

// Rated (with its place in the rating order), created unrated and why (when the match list
// says: created_rated, unrated_reason), or still waiting to be rated.
function ratedText(match) {
  if (match.rated) return `rated #${match.seq}`;
  if (match.created_rated === false) {
    const reason = match.unrated_reason;
    return reason ? `unrated: ${UNRATED[reason] ?? String(reason).replaceAll("_", " ")}` : "unrated";
  }
  return "not rated yet";
}

function renderMatches(page) {
  const body = $("matches").tBodies[0];
  const rows = page.matches.map((match) => {
    const seats = [...match.seats].sort((a, b) => a.rank - b.rank || a.seat - b.seat);
    return el(
      "tr",
      { "data-match": match.match_id },
      el(
        "td",
        { class: "finished", title: match.finished_at },
        el("div", { text: dateTime(match.finished_at) }),
        el("div", { class: "muted small rated-state", text: ratedText(match) }),
      ),
      el("td", {}, el("ol", { class: "seats" }, ...seats.map(seatChip))),
      el(
        "td",
        { class: "replay" },
        // One place tells a match's moves: its replay, which this links to.
        el("a", { class: "replay-watch", href: `/replay/${encodeURIComponent(match.match_id)}`, text: "watch the replay" }),
        " · ",
        el("a", { class: "replay-link", href: match.replay_url, target: "_blank", rel: "noopener", text: "JSON" }),
      ),
    );
  });
  body.replaceChildren(...rows);
  $("matches").hidden = rows.length === 0;
  showEmpty(
    "matches-empty",
    rows.length
      ? ""
      : state.page === 0
        ? `No finished matches yet for ${gameName(state.game)}.`
        : "No older matches.",
  );
  state.nextToken = page.next;
  $("older").disabled = !page.next;
  $("newer").disabled = state.page === 0;
  $("matches-page").textContent = rows.length || state.page ? `page ${state.page + 1}` : "";
}

async function loadMatches(view) {
  const token = state.pageTokens[state.page];
  const path =
    `/api/games/${encodeURIComponent(state.game)}/matches?limit=${PAGE_SIZE}` +
    (token ? `&cursor=${encodeURIComponent(token)}` : "");
  const page = await api(path);
  if (view === state.view) renderMatches(page);
}

// --- refreshing ------------------------------------------------------------------------------

function showError(message) {
  const node = $("error");
  node.textContent = message || "";
  node.hidden = !message;
}

async function refresh() {
  clearTimeout(timer);
  const view = state.view;
  if (document.hidden && state.lastOk) {
    // Nobody is looking: check again later, and at once when the tab comes back.
    timer = setTimeout(refresh, refreshSeconds * 1000);
    return;
  }
  try {
    await loadGames();
    if (!state.game) {
      showEmpty("leaderboard-empty", "This ladder has no games.");
      return;
    }
    const board = apiAll(`/api/games/${encodeURIComponent(state.game)}/leaderboard`, "entries");
    const results = await Promise.all([board, loadMatches(view), loadHistory(view)]);
    if (view === state.view) {
      state.board = results[0];
      renderLeaderboard(results[0]);
    }
    state.lastOk = new Date();
    state.refreshes += 1;
    document.body.dataset.refreshes = String(state.refreshes);
    showError("");
    $("status").textContent = `Updated ${clock(state.lastOk)} · every ${refreshSeconds} s`;
  } catch (error) {
    showError(`Could not load the ladder: ${error.message}. Trying again in ${refreshSeconds} s.`);
    $("status").textContent = state.lastOk ? `Last updated ${clock(state.lastOk)}` : "Not loaded";
  } finally {
    timer = setTimeout(refresh, refreshSeconds * 1000);
  }
}

function changeView() {
  state.view += 1;
  writeHash();
  return refresh();
}

function selectGame(game) {
  if (game === state.game) return;
  state.game = game;
  state.player = "";
  state.pageTokens = [""];
  state.page = 0;
  $("history-section").hidden = true;
  return changeView();
}

function selectPlayer(player) {
  state.player = player;
  for (const row of $("leaderboard").tBodies[0].rows) {
    const selected = row.dataset.player === player;
    row.classList.toggle("selected", selected);
    row.querySelector(".player-link").setAttribute("aria-pressed", selected ? "true" : "false");
  }
  return changeView().then(() => $("history-section").scrollIntoView({ block: "nearest" }));
}

function start() {
  const hash = readHash();
  state.game = hash.game;
  state.player = hash.player;
  $("game").addEventListener("change", (event) => selectGame(event.target.value));
  $("sort").addEventListener("change", () => state.board && renderLeaderboard(state.board));
  $("history-close").addEventListener("click", () => {
    state.player = "";
    $("history-section").hidden = true;
    for (const row of $("leaderboard").tBodies[0].rows) row.classList.remove("selected");
    changeView();
  });
  $("older").addEventListener("click", () => {
    if (!state.nextToken) return;
    state.pageTokens = state.pageTokens.slice(0, state.page + 1);
    state.pageTokens.push(state.nextToken);
    state.page += 1;
    changeView();
  });
  $("newer").addEventListener("click", () => {
    if (state.page === 0) return;
    state.page -= 1;
    changeView();
  });
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refresh();
  });
  window.premiereDashboard = { state, chart: () => chart, refresh };
  refresh();
}

start();
