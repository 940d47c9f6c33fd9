"""The heuristic seat: a Spectator that deduces, a Director that paces its clues.

Both reason with the same model of a Director: it lays one of the film's unused fitting tiles
for the asked category, each equally likely. A Spectator keeps every catalog film that fits
every tile (and every face-down tile), drops those already shown or wrongly named, and weights
the rest by that model. It asks for the slot whose tile it expects to tell it most, and names
the likeliest film, passing while no film is likely enough to be worth handing rivals the
elimination. The Director picks a film with clues in most categories and lays, on scoring tiles
I-II, the most telling tile that still leaves the film unnamed, and from III on the most
telling one, so that such Spectators find the film on III-IV.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

from games.movie_trailer.catalog import (
    FACE_DOWN,
    Catalog,
    Film,
    Placement,
    catalog,
    possible_films,
)
from games.movie_trailer.moves import ChooseFilm, Guess, PassGuess, PickSlot, PlaceTile
from games.movie_trailer.views import MovieTrailerObservation
from games.rng import Rng

GUESS_THRESHOLD = 0.12
"""Below this chance of being right, a standard-game Spectator passes."""
EARLY_TILES = 2
"""On scoring tiles I and II the Director keeps the film from being named; from III on it
lays the tile that makes it likeliest."""
RICH_SLOTS = 8
"""A Director's film has clues for at least this many of the board's slots."""


def placements(observation: MovieTrailerObservation) -> list[Placement]:
    laid = [
        (s.order, slot, s.tile) for slot, s in enumerate(observation.board) if s.order is not None
    ]
    return [Placement(slot, FACE_DOWN if tile is None else tile) for _, slot, tile in sorted(laid)]


def weights(
    data: Catalog,
    laid: Sequence[Placement],
    excluded: set[str],
    pending_slot: int | None = None,
) -> dict[int, float]:
    """Catalog films still possible, weighted by how likely this Director laid these tiles."""
    result: dict[int, float] = {}
    for film in possible_films(data, laid):
        if film.id in excluded:
            continue
        weight = _likelihood(film, laid, data.slot_category)
        if weight and pending_slot is not None:
            on_board = {p.tile for p in laid}
            if not film.fits[data.slot_category[pending_slot]] - on_board:
                weight = 0.0
        if weight:
            result[film.index] = weight
    return result


def _likelihood(film: Film, laid: Sequence[Placement], slot_category: Sequence[int]) -> float:
    seen: set[int] = set()
    weight = 1.0
    for placement in laid:
        free = film.fits[slot_category[placement.slot]] - seen
        if placement.tile == FACE_DOWN:
            if free:
                return 0.0
            continue
        if placement.tile not in free:
            return 0.0
        weight /= len(free)
        seen.add(placement.tile)
    return weight


def excluded_films(observation: MovieTrailerObservation) -> set[str]:
    shown = {turn.film for turn in observation.past_turns}
    return shown | {g.film for g in observation.guesses if g.film is not None}


def _entropy(values: Sequence[float]) -> float:
    total = sum(values)
    if total <= 0:
        return 0.0
    return -sum(v / total * math.log(v / total) for v in values if v > 0)


def expected_entropy(data: Catalog, belief: dict[int, float], laid: set[int], slot: int) -> float:
    """Entropy left, on average, once the Director answers a request for `slot`."""
    category = data.slot_category[slot]
    outcomes: dict[int, list[float]] = {}
    for index, weight in belief.items():
        free = data.films[index].fits[category] - laid
        if not free:
            outcomes.setdefault(FACE_DOWN, []).append(weight)
            continue
        share = weight / len(free)
        for tile in free:
            outcomes.setdefault(tile, []).append(share)
    total = sum(belief.values())
    return sum(sum(ws) / total * _entropy(ws) for ws in outcomes.values())


@functools.cache
def rich_films() -> frozenset[int]:
    """Films a Director can pace: clues for most slots, and vague ones among them.

    A film qualifies when its tiles cover at least RICH_SLOTS slots, and its vaguest tiles
    (the one fitting most films, per category) fit, on the median category, at least as many
    films as for the median such film.
    """
    data = catalog()
    slots_of = [data.slot_category.count(c) for c in range(len(data.categories))]
    covered = [
        film
        for film in data.films
        if sum(min(n, len(fits)) for n, fits in zip(slots_of, film.fits, strict=True)) >= RICH_SLOTS
    ]

    def vagueness(film: Film) -> float:
        widest = sorted(
            max(len(data.fitting[(c, tile)]) for tile in fits)
            for c, fits in enumerate(film.fits)
            if fits
        )
        return float(widest[len(widest) // 2])

    scores = {film.index: vagueness(film) for film in covered}
    cut = sorted(scores.values())[len(scores) // 2]
    return frozenset(index for index, score in scores.items() if score >= cut)


class HeuristicBot:
    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, observation: MovieTrailerObservation, legal_moves: Sequence[Any]) -> Any:
        first = legal_moves[0]
        if isinstance(first, ChooseFilm):
            return self._film(legal_moves)
        if isinstance(first, PlaceTile):
            return self._tile(observation, legal_moves)
        if isinstance(first, PickSlot):
            return self._slot(observation, legal_moves)
        return self._guess(observation, legal_moves)

    def ranked(self, observation: MovieTrailerObservation, legal_moves: Sequence[Any]) -> list[Any]:
        """The legal moves best first by this bot's own measures: a Director's rich films in a
        random order (so that a search's few candidates are no guide to its film) before the
        rest, its tiles and a Spectator's slots by what `choose` minimises, a Spectator's
        guesses by likelihood with passing after the likeliest."""
        first = legal_moves[0]
        data = catalog()
        if isinstance(first, ChooseFilm):
            rich = rich_films()
            pool = [m for m in legal_moves if data.film(m.film).index in rich]
            self.rng.shuffle(pool)
            return [*pool, *(m for m in legal_moves if data.film(m.film).index not in rich)]
        if isinstance(first, PlaceTile):
            keyed = self._tile_keys(observation, legal_moves)
            return [item[-1] for item in sorted(keyed, key=lambda item: item[:3])]
        if isinstance(first, PickSlot):
            laid = placements(observation)
            belief = weights(data, laid, excluded_films(observation))
            on_board = {p.tile for p in laid}
            scored = [
                (expected_entropy(data, belief, on_board, m.slot), m.slot, m) for m in legal_moves
            ]
            return [item[2] for item in sorted(scored, key=lambda item: item[:2])]
        belief = weights(data, placements(observation), excluded_films(observation))
        guesses = {m.film: m for m in legal_moves if isinstance(m, Guess)}
        order = sorted((-weight, index) for index, weight in belief.items())
        likely = [guesses[data.films[i].id] for _, i in order if data.films[i].id in guesses]
        named = {move.film for move in likely}
        passes = [m for m in legal_moves if isinstance(m, PassGuess)]
        rest = [m for m in legal_moves if isinstance(m, Guess) and m.film not in named]
        return [*likely[:1], *passes, *likely[1:], *rest]

    def _film(self, legal: Sequence[ChooseFilm]) -> ChooseFilm:
        data = catalog()
        rich = rich_films()
        pool = [m for m in legal if data.film(m.film).index in rich] or list(legal)
        return self.rng.choice(pool)

    def _slot(self, observation: MovieTrailerObservation, legal: Sequence[PickSlot]) -> PickSlot:
        data = catalog()
        laid = placements(observation)
        belief = weights(data, laid, excluded_films(observation))
        on_board = {p.tile for p in laid}
        scored = [(expected_entropy(data, belief, on_board, m.slot), m.slot, m) for m in legal]
        return min(scored, key=lambda item: (item[0], item[1]))[2]

    def _guess(self, observation: MovieTrailerObservation, legal: Sequence[Any]) -> Any:
        data = catalog()
        belief = weights(data, placements(observation), excluded_films(observation))
        allowed = {m.film for m in legal if isinstance(m, Guess)}
        options = [(w, -i) for i, w in belief.items() if data.films[i].id in allowed]
        if not options:
            return PassGuess()
        weight, negative_index = max(options)
        chance = weight / sum(belief.values())
        if not observation.speed and chance < GUESS_THRESHOLD:
            return PassGuess()
        return Guess(data.films[-negative_index].id)

    def _tile(self, observation: MovieTrailerObservation, legal: Sequence[PlaceTile]) -> PlaceTile:
        return min(self._tile_keys(observation, legal), key=lambda item: item[:3])[3]

    def _tile_keys(
        self, observation: MovieTrailerObservation, legal: Sequence[PlaceTile]
    ) -> list[tuple[bool, float, int, PlaceTile]]:
        """Each tile's key for `_tile` (the least is laid) and the move."""
        data = catalog()
        assert observation.film is not None and observation.pending_slot is not None
        film = data.film(observation.film).index
        laid = placements(observation)
        excluded = excluded_films(observation)
        reach = 1 if observation.speed else observation.players - 1
        early = observation.scoring_tile < EARLY_TILES
        scored: list[tuple[bool, float, int, PlaceTile]] = []
        for move in legal:
            after = [*laid, Placement(observation.pending_slot, move.tile)]
            belief = weights(data, after, excluded)
            mine = belief.get(film, 0.0)
            ahead = sum(1 for i, w in belief.items() if w > mine or (w == mine and i < film))
            share = mine / sum(belief.values())
            found = ahead < reach and share >= GUESS_THRESHOLD
            scored.append(((found if early else not found), -share, move.tile, move))
        return scored
