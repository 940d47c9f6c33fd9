"""Magic Trick played with a plan, on the SDK's typed views alone (no engine needed).

It infers bounds for its own hidden ranks from the order of its fan (sorted high to low) and
the cards seen, picks a sleeve card near the tricks it expects to take, then plays to take
exactly that many: a port of the arbiter's built-in `heuristic`, simplified.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from premiere_bot import Bot
from premiere_bot.magic_trick import (
    Card,
    KeepSleeveEmpty,
    Move,
    Observation,
    PlayCard,
    SleeveCard,
    Slot,
    SortCard,
)

RANKS = range(8)
RED = "red"


@dataclass(frozen=True)
class Guess:
    """What the bot believes of one of its own hidden cards."""

    slot: int
    suit: str
    low: int
    high: int
    estimate: float


def guess_own_ranks(obs: Observation) -> dict[int, Guess]:
    assert obs.seat is not None
    fan = obs.fans[obs.seat].slots
    seen = {(s.suit, s.rank) for f in obs.fans for s in f.slots if s.rank is not None}
    if obs.set_aside is not None:
        seen.add((obs.set_aside.suit, obs.set_aside.rank))
    suits = {s.suit for f in obs.fans for s in f.slots}
    unseen = {suit: [r for r in RANKS if (suit, r) not in seen] for suit in suits}
    hidden = [i for i, s in enumerate(fan) if s.rank is None and s.place == "hand"]
    pool = sorted((r for ranks in unseen.values() for r in ranks), reverse=True) or [0]
    guesses = {}
    for k, slot in enumerate(hidden):
        high = min([s.rank for s in fan[:slot] if s.rank is not None], default=RANKS[-1])
        low = max([s.rank for s in fan[slot + 1 :] if s.rank is not None], default=RANKS[0])
        suit = fan[slot].suit
        candidates = [r for r in unseen.get(suit, []) if low <= r <= high] or [low]
        positional = pool[min(len(pool) - 1, int((k + 0.5) / len(hidden) * len(pool)))]
        clamped = min(max(positional, min(candidates)), max(candidates))
        estimate = min(candidates, key=lambda r: (abs(r - clamped), -r))
        guesses[slot] = Guess(slot, suit, min(candidates), max(candidates), float(estimate))
    for slot, s in enumerate(fan):
        if s.rank is not None and s.place == "hand":
            guesses[slot] = Guess(slot, s.suit, s.rank, s.rank, float(s.rank))
    return guesses


def win_chance(guess: Guess, players: int) -> float:
    strength = (guess.estimate + 1) / len(RANKS)
    if guess.suit == RED:
        return float(min(1.0, strength**1.5 * 1.1))
    return float(strength ** (players - 0.5) * 0.9)


class MagicTrickBot(Bot):
    games = ("magic-trick",)
    max_matches = 8

    def decide(self, observation: Observation, legal_moves: tuple[Move, ...]) -> Move:
        first = legal_moves[0]
        if isinstance(first, SortCard):
            return first  # the order of equal ranks tells the neighbour nothing useful
        guesses = guess_own_ranks(observation)
        if isinstance(first, SleeveCard | KeepSleeveEmpty):
            return self.sleeve(observation, guesses, legal_moves)
        return self.play(observation, guesses, legal_moves)

    def expected(self, obs: Observation, guesses: dict[int, Guess], without: int | None) -> float:
        assert obs.seat is not None
        future = sum(win_chance(g, obs.players) for s, g in guesses.items() if s != without)
        return obs.tricks_taken[obs.seat] + future

    def sleeve(self, obs: Observation, guesses: dict[int, Guess], legal: Sequence[Move]) -> Move:
        scored = []
        for move in legal:
            if isinstance(move, SleeveCard) and move.slot in guesses:
                guess = guesses[move.slot]
                error = abs(guess.estimate - self.expected(obs, guesses, move.slot))
                scored.append((error + 0.3 * (guess.high - guess.low), move.slot, move))
        if not scored:
            return legal[0]
        error, _, best = min(scored)
        late = len(obs.tricks) >= max(1, len(obs.fans[0].slots) // 4)
        keep = next((m for m in legal if isinstance(m, KeepSleeveEmpty)), best)
        return best if error <= 0.75 or late else keep

    def play(self, obs: Observation, guesses: dict[int, Guess], legal: Sequence[Move]) -> Move:
        assert obs.seat is not None
        mine: Sequence[Slot] = obs.fans[obs.seat].slots
        bid = next((s.rank for s in mine if s.place == "sleeve" and s.rank is not None), None)
        target = bid if bid is not None else self.expected(obs, guesses, None)
        want = target - obs.tricks_taken[obs.seat] >= 0.5
        cards = [guesses[m.slot] for m in legal if isinstance(m, PlayCard) and m.slot in guesses]
        if not cards:
            return legal[0]
        plays = obs.current.plays if obs.current is not None else ()
        led = [p.card for p in plays if p.card is not None]
        if not led:
            if want:
                pick = max(cards, key=lambda g: (win_chance(g, obs.players), g.estimate))
            else:
                pick = min(cards, key=lambda g: (g.suit == RED, g.estimate))
            return PlayCard(slot=pick.slot)
        lead = led[0].suit
        best: Card = max(led, key=lambda c: (c.suit == RED, c.suit == lead, c.rank))

        def beats(rank: float, suit: str) -> bool:
            if suit == RED:
                return best.suit != RED or rank > best.rank
            return suit == lead and best.suit != RED and rank > best.rank

        if want:
            sure = [g for g in cards if beats(g.low, g.suit)]
            if sure:
                return PlayCard(slot=min(sure, key=lambda g: g.estimate).slot)
            likely = [g for g in cards if beats(g.estimate, g.suit)]
            if likely:
                return PlayCard(slot=max(likely, key=lambda g: g.estimate).slot)
            return PlayCard(slot=min(cards, key=lambda g: (g.suit == RED, g.estimate)).slot)
        safe = [g for g in cards if not beats(g.high, g.suit)]
        if safe:
            return PlayCard(slot=max(safe, key=lambda g: (g.suit != RED, g.estimate)).slot)
        return PlayCard(slot=min(cards, key=lambda g: g.estimate).slot)
