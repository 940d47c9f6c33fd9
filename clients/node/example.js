// A worked example of a strategy: Movie Trailer's guesser, reading the observation, the legal
// moves and the game's data. Start from it to write your own; for a strong opponent to test
// against, challenge the arbiter's built-in `heuristic` or `search:*` players.
//
// A strategy gets the request as proto-loader decodes it. The observation and each legal move
// carry their game's message under the game's field (game id in snake case): for a Movie
// Trailer request, `request.observation.movie_trailer` is a MovieTrailerObservation and each
// move is { kind: "guess", guess: { film } } or another kind of MovieTrailerMove. It returns
// the index of a legal move, or { index, note } to attach a note shown in the replay after the
// match; null when it does not play that game (the bot then picks a move at random).
"use strict";

// The legal moves of `request` for its game, each { kind, [kind]: fields }.
function movesOf(request) {
  const field = request.game.replace(/-/g, "_");
  return request.legal_moves.map((move) => ({ kind: move[field].kind, ...move[field] }));
}

// Movie Trailer: the face-up clue tiles on the board narrow the films down. Name a film only
// when it is the one film every face-up tile fits (MovieTrailerData.films: each film lists, per
// category, the tiles that fit it); pass otherwise, and play any other decision at random.
function movieTrailer(request, data) {
  const observation = request.observation.movie_trailer;
  const moves = movesOf(request);
  const guesses = moves.map((m, i) => (m.kind === "guess" ? i : -1)).filter((i) => i >= 0);
  if (guesses.length === 0) return null;
  const fitting = guesses.filter((i) => {
    const film = data.entry("films", moves[i].guess.film);
    if (!film) return false;
    const fits = new Map(film.fits.map((f) => [f.category, new Set(f.tiles)]));
    return observation.board.every(
      (slot) => !slot.tile || (fits.get(slot.category) || new Set()).has(slot.tile));
  });
  const pass = moves.findIndex((m) => m.kind === "pass_guess");
  if (fitting.length === 1 || (fitting.length > 0 && pass < 0)) {
    return { index: fitting[0], note: `the one film of ${guesses.length} that every tile fits` };
  }
  return pass >= 0 ? { index: pass, note: `${fitting.length} films fit the tiles` } : null;
}

const STRATEGIES = { "movie-trailer": movieTrailer };

// The strategy's choice for `request` (null: none for this game or this decision).
function choose(request, data) {
  const strategy = STRATEGIES[request.game];
  return strategy ? strategy(request, data) : null;
}

module.exports = { choose, movesOf, STRATEGIES };
