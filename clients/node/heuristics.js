// Simple strategies per game that beat random play, reading the observation, the legal moves
// and the game's data (game_data.js). Each returns an index into the legal moves.
//
// `observation` and `moves` are the per-game messages as proto-loader decodes them: for a
// Movie Fight request, `observation` is request.observation.movie_fight and each move is
// { kind: "play", play: { card, floor, side } }.
"use strict";

const { motionPictures } = require("./motion_pictures.js");

function best(items, score) {
  let chosen = -1;
  let top = -Infinity;
  items.forEach((item, index) => {
    const value = score(item, index);
    if (value > top) {
      top = value;
      chosen = index;
    }
  });
  return chosen;
}

// Indexes of the moves of one kind, best first by `score` (the index of the best, or -1).
function bestOf(moves, kind, score) {
  const indexes = moves.map((move, index) => (move.kind === kind ? index : -1)).filter((i) => i >= 0);
  if (indexes.length === 0) return -1;
  return indexes[best(indexes, (i) => score(moves[i][kind]))];
}

// Magic Trick: a fan is in rank order (slot 0 high) with one's own ranks hidden, so a slot's
// place estimates its rank. Put up the sleeve the card whose estimate is the tricks one expects,
// then steer: take tricks with high cards (trump first) while short of the bid, shed low ones
// (trump last) once there.
function magicTrick(o, moves, seat) {
  const fan = o.fans.length ? o.fans[seat].slots : [];
  const n = fan.length;
  const estimate = (slot) => (7 * (n - 1 - slot)) / Math.max(1, n - 1);
  const inHand = fan.filter((slot) => slot.place === "hand").length;
  const sleeved = fan.findIndex((slot) => slot.place === "sleeve");
  const taken = o.tricks_taken[seat] || 0;
  const want = taken + (inHand / o.players) * 0.8;
  const sleeve = bestOf(moves, "sleeve", (m) => -Math.abs(estimate(m.slot) - want));
  if (sleeve >= 0) return sleeve;
  const bid = sleeved >= 0 ? estimate(sleeved) : n / o.players;
  const red = (m) => (fan[m.slot].suit === "red" ? 1 : 0);
  const play = bid - taken >= 0.5
    ? bestOf(moves, "play", (m) => red(m) * 100 - m.slot)
    : bestOf(moves, "play", (m) => -red(m) * 100 + m.slot);
  return play >= 0 ? play : 0;
}

// Movie Tricks: play the highest card (no boost), draft the card with the most symbols for the
// emptiest column, claim the biggest goal, put bonus cards in the tableau.
function movieTricks(o, moves, seat, data) {
  const cards = new Map([...o.hand, ...o.market, ...o.display].map((card) => [card.id, card]));
  const card = (id) => cards.get(id) || data.card(id) || { value: 0, symbols: [], category: "" };
  const unboosted = moves.some((m) => m.kind === "play" && !m.play.boost);
  const play = bestOf(moves, "play", (m) => (unboosted && m.boost ? -1000 : card(m.card).value));
  if (play >= 0) return play;
  const categories = data.own.categories || [];
  const tableau = o.tableaus[seat];
  const draft = bestOf(moves, "draft", (m) => {
    const c = card(m.card);
    const column = tableau && tableau.columns[categories.indexOf(c.category)];
    const have = column ? column.cards.length : 0;
    return c.symbols.length * 2 - have + c.value / 10;
  });
  if (draft >= 0) return draft;
  const claim = bestOf(moves, "claim", (m) => m.need);
  if (claim >= 0) return claim;
  const bonus = moves.findIndex((m) => m.kind === "bonus_tableau");
  return bonus >= 0 ? bonus : 0;
}

// The genres a Movie Fight viewer's requirement asks for.
function wanted(card) {
  const r = card.requirement;
  const genres = new Set([...r.genres, ...r.pattern.filter((p) => p && p !== "|" && p !== "?")]);
  if (r.genre) genres.add(r.genre);
  return genres;
}

// Movie Fight: viewers score by the movies on their floor, so keep each floor's viewers and
// screens matched: a viewer where the screens show what it wants, a screen where the viewers
// want its genres, each where its own kind is short.
function movieFight(o, moves, seat, data) {
  const cinema = o.cinemas[seat];
  const wild = data.own.wild;
  const value = (m) => {
    const floor = cinema.floors[m.floor - 1];
    const c = data.card(m.card);
    if (m.side === "audience") {
      const wants = wanted(c);
      const shown = floor.screens.flatMap((s) => data.card(s).genres);
      const match = shown.filter((g) => wants.has(g) || g === wild).length;
      const tiers = c.requirement.tiers;
      return 2 * match + floor.screens.length - floor.audience.length +
        (tiers.length ? tiers[tiers.length - 1].points / 10 : 0);
    }
    let match = 0;
    for (const viewer of floor.audience) {
      const wants = wanted(data.card(viewer));
      match += c.genres.filter((g) => wants.has(g) || g === wild).length;
    }
    return 2 * match + floor.audience.length - floor.screens.length + (c.points + c.tickets) / 5;
  };
  const play = bestOf(moves, "play", value);
  if (play >= 0) return play;
  const upgrade = moves.findIndex((m) => m.kind === "upgrade");
  if (upgrade >= 0) return upgrade;
  return moves[0].kind === "refresh" ? moves.length - 1 : 0;
}

// Movie Trailer: name a film only when it is the one film every face-up tile fits; pass
// otherwise.
function movieTrailer(o, moves, seat, data) {
  const guesses = moves.map((m, i) => (m.kind === "guess" ? i : -1)).filter((i) => i >= 0);
  if (guesses.length === 0) return 0;
  const fitting = guesses.filter((i) => {
    const film = data.film(moves[i].guess.film);
    if (!film) return false;
    const fits = new Map(film.fits.map((f) => [f.category, new Set(f.tiles)]));
    return o.board.every((slot) => !slot.tile || (fits.get(slot.category) || new Set()).has(slot.tile));
  });
  const pass = moves.findIndex((m) => m.kind === "pass_guess");
  if (fitting.length === 1 || (fitting.length > 0 && pass < 0)) return fitting[0];
  return pass >= 0 ? pass : 0;
}

const STRATEGIES = {
  "magic-trick": magicTrick,
  "movie-tricks": movieTricks,
  "movie-fight": movieFight,
  "movie-trailer": movieTrailer,
  "motion-pictures": motionPictures,
};

// The index of the move to answer: the game's strategy, or 0 for a game it does not know.
function choose(game, request, data) {
  const field = game.replace(/-/g, "_");
  const strategy = STRATEGIES[game];
  const moves = request.legal_moves.map((move) => {
    const typed = move[field];
    return { kind: typed.kind, ...typed };
  });
  if (!strategy || moves.length <= 1) return 0;
  const index = strategy(request.observation[field], moves, request.seat, data);
  return index >= 0 && index < moves.length ? index : 0;
}

module.exports = { choose, STRATEGIES };
