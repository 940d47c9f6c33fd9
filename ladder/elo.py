"""Live multiplayer Elo: one match's final ranking in, every seat's new rating out.

A match of N seats is read as the N(N-1)/2 head-to-head results it implies: a seat ranked above
another scored 1 against it, below scored 0, level (a tie) scored one half. Each seat's change is
its K factor, divided by N - 1 so that a four-player match moves a rating about as much as one
two-player game, times the sum over its opponents of (score - expected score).

Exactness. Every per-pair transfer is rounded to a multiple of ``GRAIN`` (2**-20 of a rating
point, far below anything shown) and computed so that seat j's transfer to seat i is the exact
negation of seat i's transfer to seat j. Sums of such values are exact in binary floating point,
so, whenever the seats of a match share one K, the deltas sum to exactly 0.0, and ratings that
start on the grid (1500 does) stay on it: the pool of rating points on a ladder of established
bots is conserved to the last bit, whatever the order of the seats or of the summation.

Provisional bots. A seat with fewer than ``provisional_games`` rated games uses
``k_provisional`` instead of ``k``, and each seat uses its own K. So when a provisional bot meets
an established one, the newcomer moves quickly toward its level while the established bot moves
by its usual amount; such a match is not zero-sum and adds or removes a few points from the
pool. That is deliberate: an established rating should not swing because a stranger with an
unknown rating happened to beat it, and a pairwise-shared K (the larger or the smaller of the
two) would either do exactly that or slow the newcomer down.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "DEFAULT_PARAMS",
    "GRAIN",
    "EloParams",
    "EloUpdate",
    "expected_score",
    "is_provisional",
    "k_factor",
    "pinned_update",
    "reference_update",
    "update",
]

GRAIN = 2.0**-20
"""Per-pair rating transfers are multiples of this (about 1e-6 of a point); see module doc."""

_SCALE_TO_GRAIN = 2.0**20


@dataclass(frozen=True, slots=True)
class EloParams:
    """The constants of one Elo ladder.

    ``scale`` is the classic 400: a bot rated ``scale`` points above another is expected to win
    ten times as often as it loses. ``k`` is the most an established bot's rating can move in one
    head-to-head result (a two-player match); ``k_provisional`` replaces it for the first
    ``provisional_games`` games so that newcomers reach their level quickly.
    """

    start_rating: float = 1500.0
    k: float = 32.0
    k_provisional: float = 64.0
    provisional_games: int = 20
    scale: float = 400.0

    def __post_init__(self) -> None:
        if not math.isfinite(self.start_rating):
            raise ValueError("start_rating must be finite")
        if not (math.isfinite(self.k) and self.k >= 0):
            raise ValueError("k must be finite and >= 0")
        if not (math.isfinite(self.k_provisional) and self.k_provisional >= 0):
            raise ValueError("k_provisional must be finite and >= 0")
        if self.provisional_games < 0:
            raise ValueError("provisional_games must be >= 0")
        if not (math.isfinite(self.scale) and self.scale > 0):
            raise ValueError("scale must be finite and > 0")


DEFAULT_PARAMS = EloParams()


@dataclass(frozen=True, slots=True)
class EloUpdate:
    """The result of rating one match, seat by seat in the order the seats were given."""

    ratings: tuple[float, ...]
    deltas: tuple[float, ...]


def expected_score(rating: float, opponent: float, scale: float = DEFAULT_PARAMS.scale) -> float:
    """The score (1 win, 1/2 tie, 0 loss) a bot rated ``rating`` expects against ``opponent``."""
    return 0.5 + _expected_minus_half(rating - opponent, scale)


def is_provisional(games_played: int, params: EloParams = DEFAULT_PARAMS) -> bool:
    """True while a bot has played fewer rated games than ``params.provisional_games``."""
    return games_played < params.provisional_games


def k_factor(games_played: int, params: EloParams = DEFAULT_PARAMS) -> float:
    """The K a bot rates its next match with, before the division by N - 1."""
    return params.k_provisional if is_provisional(games_played, params) else params.k


def update(
    ratings: Sequence[float],
    games_played: Sequence[int],
    ranks: Sequence[int],
    params: EloParams = DEFAULT_PARAMS,
) -> EloUpdate:
    """Rate one finished match.

    ``ratings[i]`` and ``games_played[i]`` describe seat i's bot before the match (games played
    on this ladder, not counting this match), ``ranks[i]`` its final place: 1 is best, tied
    seats share a rank, only comparisons between ranks matter (1, 1, 3 and 1, 1, 2 are the
    same result). Returns the new ratings and the deltas, seat by seat.
    """
    n = len(ratings)
    if n < 2:
        raise ValueError("a rated match needs at least two seats")
    if len(games_played) != n or len(ranks) != n:
        raise ValueError("ratings, games_played and ranks must have one entry per seat")
    for rating in ratings:
        if not math.isfinite(rating):
            raise ValueError(f"rating {rating!r} is not finite")
    for games in games_played:
        if games < 0:
            raise ValueError(f"games_played {games!r} is negative")
    per_pair_k = [k_factor(games, params) / (n - 1) for games in games_played]
    deltas = []
    for i in range(n):
        transfers = (
            _transfer(
                per_pair_k[i],
                _expected_minus_half(ratings[i] - ratings[j], params.scale),
                _score_minus_half(ranks[i], ranks[j]),
            )
            for j in range(n)
            if j != i
        )
        deltas.append(math.fsum(transfers))
    new = tuple(rating + delta for rating, delta in zip(ratings, deltas, strict=True))
    return EloUpdate(ratings=new, deltas=tuple(deltas))


def _score_minus_half(rank: int, other: int) -> float:
    if rank < other:
        return 0.5
    if rank > other:
        return -0.5
    return 0.0


def _expected_minus_half(difference: float, scale: float) -> float:
    """1/(1 + 10**(-d/scale)) - 1/2, written as a tanh evaluated on |d| so it is exactly odd."""
    magnitude = 0.5 * math.tanh(abs(difference) * math.log(10.0) / (2.0 * scale))
    return math.copysign(magnitude, difference) if difference != 0 else 0.0


def _transfer(k: float, expected_minus_half: float, score_minus_half: float) -> float:
    """One seat's gain from one pairing, rounded half-even to the GRAIN grid.

    Negating both arguments negates the result exactly, which is what makes a match zero-sum.
    """
    raw = k * (score_minus_half - expected_minus_half)
    return round(raw * _SCALE_TO_GRAIN) / _SCALE_TO_GRAIN


def pinned_update(
    ratings: Sequence[float],
    games_played: Sequence[int],
    ranks: Sequence[int],
    pins: Sequence[float | None],
    params: EloParams = DEFAULT_PARAMS,
) -> EloUpdate:
    """Rate one finished match in which some seats hold pinned players (anchors).

    ``pins[i]`` is seat i's pinned rating, or None for a seat that moves. A pinned seat is read
    at its pin (whatever ``ratings[i]`` says) and never moves: its new rating is the pin and
    its delta 0. Every other seat moves exactly as ``update`` moves it in the same match with
    the pinned seats at their pins: its K is divided by N - 1, N counting the pinned seats, and
    it exchanges points with them as with anyone else. Such a match is not zero-sum; the points
    a pinned seat would have won or lost are what keeps the scale where the pins put it.
    """
    if len(pins) != len(ratings):
        raise ValueError("ratings and pins must have one entry per seat")
    for pin in pins:
        if pin is not None and not math.isfinite(pin):
            raise ValueError(f"pin {pin!r} is not finite")
    read = [rating if pin is None else pin for rating, pin in zip(ratings, pins, strict=True)]
    moved = update(read, games_played, ranks, params)
    deltas = tuple(
        0.0 if pin is not None else delta for pin, delta in zip(pins, moved.deltas, strict=True)
    )
    new = tuple(
        pin if pin is not None else rating + delta
        for rating, pin, delta in zip(read, pins, deltas, strict=True)
    )
    return EloUpdate(ratings=new, deltas=deltas)


def reference_update(
    rating: float,
    games_played: int,
    ranks: tuple[int, int],
    reference: float,
    params: EloParams = DEFAULT_PARAMS,
) -> EloUpdate:
    """Rate a solo match: the bot moves exactly as after a two-player match against a bot
    rated ``reference``, and the reference player does not move at all (``pinned_update`` with
    the reference player's seat pinned)."""
    return pinned_update((rating, reference), (games_played, 0), ranks, (None, reference), params)
