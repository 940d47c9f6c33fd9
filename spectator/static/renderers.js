// One renderer per game draws a frame of a match from the engine's own views: the spectator
// view, and after the end every seat's view (frame.seats). A game without a renderer of its
// own gets the generic one, which draws any view: cards as cards, per-seat lists beside the
// seats, everything else as labelled values. A game's renderer is a file of its own,
// render/<game>.js, drawing with render/kit.js; adding one is that file and its entry in
// RENDERERS; nothing else on the page knows a game.
//
// What every renderer gets in ctx: players (names by seat), view (the view to draw), spectator
// and seats (every seat's view, or null), toMove (the seats to move next), scores (every
// seat's score on this frame, from the engine, or null), label(kind, id) (a card's or film's
// name from the replay's labels, or null). Every seat's box shows its score (seatBoxes).

import { generic } from "./render/kit.js";
import { magicTrick } from "./render/magic-trick.js";
import { movieTricks } from "./render/movie-tricks.js";
import { motionPictures } from "./render/motion-pictures.js";
import { movieFight } from "./render/movie-fight.js";
import { movieTrailer } from "./render/movie-trailer.js";

export const RENDERERS = {
  "magic-trick": magicTrick,
  "movie-tricks": movieTricks,
  "motion-pictures": motionPictures,
  "movie-fight": movieFight,
  "movie-trailer": movieTrailer,
};

// Every seat's score on a frame: the engine's (frame.scores), else what the game's renderer
// reads off its view (replays made before frames carried scores), else null.
export function frameScores(game, frame, generic = false) {
  if (Array.isArray(frame.scores)) return frame.scores;
  const renderer = generic ? undefined : RENDERERS[game];
  if (renderer && renderer.scores && frame.spectator) {
    try {
      const scores = renderer.scores(frame.spectator);
      return Array.isArray(scores) ? scores : null;
    } catch {
      return null;
    }
  }
  return null;
}

// Draw one frame. ctx: {players, viewer (a seat whose own view to draw instead of the
// spectator's, "all" for every seat's, or null), toMove (a seat or a list of seats), generic
// (use the generic renderer), labels ({kind: {id: name}}), badge(seat) (extra per seat)}.
export function renderFrame(game, frame, ctx) {
  const viewer = ctx.viewer;
  const view = viewer !== null && viewer !== undefined && viewer !== "all" && frame.seats ? frame.seats[viewer] : frame.spectator;
  const labels = ctx.labels || {};
  const full = {
    ...ctx,
    view,
    spectator: frame.spectator,
    seats: viewer === "all" ? frame.seats : null,
    scores: frameScores(game, frame, ctx.generic),
    label: (kind, id) => (labels[kind] && labels[kind][String(id)]) ?? null,
  };
  const renderer = ctx.generic ? undefined : RENDERERS[game];
  let node;
  try {
    node = renderer ? renderer(frame, full) : generic(frame, full);
  } catch (error) {
    // A view the game's renderer does not expect (an older engine's) still shows.
    console.info(`renderer for ${game} fell back to the generic one: ${error}`);
    node = generic(frame, full);
    node.dataset.fallback = "true";
  }
  node.dataset.renderer = renderer && !node.dataset.fallback ? game : "generic";
  return node;
}
