"""A Magic Trick bot that infers its own ranks and steers its trick count to its sleeve card.

It uses only its observation: the order of its own fan (sorted by rank), the ranks revealed by
play and sleeves, the hand it sorted for its left neighbour, and the set-aside card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.magic_trick.cards import RANKS, RED
from games.magic_trick.moves import KeepSleeveEmpty, PlayCard, SleeveCard, SortCard
from games.magic_trick.views import IN_HAND, MagicTrickObservation, SlotView
from games.rng import Rng


@dataclass(frozen=True)
class SlotGuess:
    """What the bot believes of one of its own cards."""

    slot: int
    suit: str
    low: int
    high: int
    estimate: float

    @property
    def certain(self) -> bool:
        return self.low == self.high


def guess_own_ranks(obs: MagicTrickObservation) -> dict[int, SlotGuess]:
    """Bounds and a point estimate for every card still in the viewer's hand."""
    assert obs.seat is not None
    fan = obs.fans[obs.seat]
    seen: set[tuple[str, int]] = {
        (slot.suit, slot.rank) for f in obs.fans for slot in f if slot.rank is not None
    }
    if obs.set_aside is not None:
        seen.add((obs.set_aside.suit, obs.set_aside.rank))
    suits = {slot.suit for f in obs.fans for slot in f}
    unseen = {suit: [r for r in RANKS if (suit, r) not in seen] for suit in suits}
    hidden = [i for i, slot in enumerate(fan) if slot.rank is None]
    high = _upper_bounds(fan, hidden)
    low = _lower_bounds(fan, hidden)
    pool = sorted((r for ranks in unseen.values() for r in ranks), reverse=True)
    guesses: dict[int, SlotGuess] = {}
    for k, slot in enumerate(hidden):
        suit = fan[slot].suit
        candidates = [r for r in unseen[suit] if low[slot] <= r <= high[slot]] or [low[slot]]
        positional = pool[min(len(pool) - 1, int((k + 0.5) / len(hidden) * len(pool)))]
        clamped = min(max(positional, min(candidates)), max(candidates))
        estimate = min(candidates, key=lambda r: (abs(r - clamped), -r))
        guesses[slot] = SlotGuess(slot, suit, min(candidates), max(candidates), float(estimate))
    return guesses


def _upper_bounds(fan: Sequence[SlotView], hidden: list[int]) -> dict[int, int]:
    bounds: dict[int, int] = {}
    ceiling = RANKS[-1]
    for i, slot in enumerate(fan):
        if slot.rank is not None:
            ceiling = min(ceiling, slot.rank)
        elif i in hidden:
            bounds[i] = ceiling
    return bounds


def _lower_bounds(fan: Sequence[SlotView], hidden: list[int]) -> dict[int, int]:
    bounds: dict[int, int] = {}
    floor = RANKS[0]
    for i in range(len(fan) - 1, -1, -1):
        rank = fan[i].rank
        if rank is not None:
            floor = max(floor, rank)
        elif i in hidden:
            bounds[i] = floor
    return bounds


def win_chance(guess: SlotGuess, players: int) -> float:
    """Rough chance that this card takes a trick it is played to."""
    strength = (guess.estimate + 1) / len(RANKS)
    if guess.suit == RED:
        return float(min(1.0, strength**1.5 * 1.1))
    return float(strength ** (players - 0.5) * 0.9)


class HeuristicBot:
    """Picks a sleeve card near its expected trick count, then plays to hit it exactly."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, observation: Any, legal_moves: Sequence[Any]) -> Any:
        obs: MagicTrickObservation = observation
        first = legal_moves[0]
        if isinstance(first, SortCard):
            return self.rng.choice(legal_moves)
        guesses = guess_own_ranks(obs)
        if isinstance(first, SleeveCard | KeepSleeveEmpty):
            return self._sleeve(obs, guesses, legal_moves)
        return self._play(obs, guesses, legal_moves)

    def _expected_tricks(
        self, obs: MagicTrickObservation, guesses: dict[int, SlotGuess], without: int | None
    ) -> float:
        assert obs.seat is not None
        future = sum(win_chance(g, obs.players) for s, g in guesses.items() if s != without)
        return obs.tricks_taken[obs.seat] + future

    def _sleeve(
        self, obs: MagicTrickObservation, guesses: dict[int, SlotGuess], legal: Sequence[Any]
    ) -> Any:
        options = [m for m in legal if isinstance(m, SleeveCard)]
        scored = []
        for move in options:
            guess = guesses[move.slot]
            target = self._expected_tricks(obs, guesses, move.slot)
            spread = guess.high - guess.low
            scored.append((abs(guess.estimate - target) + 0.3 * spread, move.slot, move))
        error, _, best = min(scored)
        tricks_done = len(obs.tricks)
        if error <= 0.75 or tricks_done >= max(1, len(obs.fans[0]) // 4):
            return best
        return KeepSleeveEmpty()

    def _target(self, obs: MagicTrickObservation, guesses: dict[int, SlotGuess]) -> float:
        assert obs.seat is not None
        for slot in obs.fans[obs.seat]:
            if slot.place == "sleeve" and slot.rank is not None:
                return slot.rank
        return self._expected_tricks(obs, guesses, None)

    def _play(
        self, obs: MagicTrickObservation, guesses: dict[int, SlotGuess], legal: Sequence[Any]
    ) -> Any:
        assert obs.seat is not None
        need = self._target(obs, guesses) - obs.tricks_taken[obs.seat]
        cards = [guesses[m.slot] for m in legal if isinstance(m, PlayCard)]
        want_win = need >= 0.5
        current = obs.current
        if current is None or not current.plays:
            if want_win:
                pick = max(cards, key=lambda g: (win_chance(g, obs.players), g.estimate))
            else:
                pick = min(cards, key=lambda g: (g.suit == RED, g.estimate))
            return PlayCard(pick.slot)
        lead = current.plays[0].card.suit
        best = max(
            current.plays,
            key=lambda p: (p.card.suit == RED, p.card.suit == lead, p.card.rank),
        ).card

        def beats(rank: float, suit: str) -> bool:
            if suit == RED:
                return best.suit != RED or rank > best.rank
            return suit == lead and best.suit != RED and rank > best.rank

        if want_win:
            sure = [g for g in cards if beats(g.low, g.suit)]
            if sure:
                return PlayCard(min(sure, key=lambda g: g.estimate).slot)
            likely = [g for g in cards if beats(g.estimate, g.suit)]
            if likely:
                return PlayCard(max(likely, key=lambda g: g.estimate).slot)
            return PlayCard(min(cards, key=lambda g: (g.suit == RED, g.estimate)).slot)
        safe = [g for g in cards if not beats(g.high, g.suit)]
        if safe:
            return PlayCard(max(safe, key=lambda g: (g.suit != RED, g.estimate)).slot)
        return PlayCard(min(cards, key=lambda g: g.estimate).slot)


__all__ = ["IN_HAND", "HeuristicBot", "SlotGuess", "guess_own_ranks", "win_chance"]
