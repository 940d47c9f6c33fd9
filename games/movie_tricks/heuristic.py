"""A Movie Tricks bot that values tableaus by a projected score pad and plays for its draft slot.

Everything it knows comes from its observation. It values a market card by how much the card
raises a projection of its final score (rows that can still become movies, the weakest
column, Bangs and the last CGI card, distinct props symbols against the goals still on the
table, a balanced cast, and the soundtrack race against the other tableaus). It then plays the
card whose likely place in the ranking buys the most, minus what the card would be worth later.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

from games.movie_tricks.cards import (
    BANG,
    CARDS,
    COLUMN,
    DATA,
    HERO,
    NOTE,
    PLUS3,
    PROPS,
    SOUNDTRACK,
    SUITS,
    VILLAIN,
    Card,
)
from games.movie_tricks.moves import (
    BonusToHand,
    BonusToTableau,
    ChooseTrump,
    ClaimGoal,
    DeclineGoal,
    DiscardBonus,
    DraftCard,
    PlayCard,
)
from games.movie_tricks.scoring import distinct_props, roles_points, soundtrack_points
from games.movie_tricks.views import MovieTricksObservation
from games.rng import Rng

AVERAGE_VALUE = 5.0
"""What an unknown future tableau card is assumed to be worth, for rows not yet complete."""


Columns = list[list[Card]]


@dataclass(frozen=True)
class Context:
    """What the projection needs besides the tableau itself."""

    family: bool
    future: float
    """Tableau cards still expected after the one being valued."""
    goals: tuple[tuple[int, int], ...]
    claimed: int | None
    rival_notes: tuple[int, ...]
    dummy: bool


def context(obs: MovieTricksObservation) -> Context:
    assert obs.seat is not None
    per_round = DATA.setup[obs.players].plays
    future = max(0, obs.rounds - obs.round) * per_round
    return Context(
        family=obs.family,
        future=float(future),
        goals=tuple((g.need, g.stars) for g in obs.goals),
        claimed=obs.tableaus[obs.seat].goal,
        rival_notes=tuple(
            _count([t.columns[COLUMN[SOUNDTRACK]]])
            for s, t in enumerate(obs.tableaus)
            if s != obs.seat
        ),
        dummy=obs.players == 2,
    )


def _count(columns: Sequence[Sequence[Card]], symbol: str = NOTE) -> int:
    return sum(card.symbols.count(symbol) for column in columns for card in column)


def stars_within(goals: Sequence[tuple[int, int]], have: float) -> int:
    return max((stars for need, stars in goals if need <= have), default=0)


def projected_score(columns: Columns, ctx: Context) -> float:
    """A smooth guess at the final score of this tableau, for comparing options."""
    future = ctx.future
    depths = [len(column) for column in columns]
    movies = []
    for row in range(max(depths) + 1):
        missing = sum(1 for d in depths if d <= row)
        known = sum(column[row].value for column in columns if len(column) > row)
        if missing == 0:
            movies.append(float(known))
        elif missing <= future:
            movies.append((known + missing * AVERAGE_VALUE) * 0.8**missing)
    if ctx.family:
        complete = sum(m for m in movies[: min(depths)])
        partial = max(movies[min(depths) :], default=0.0)
        symbols = sum(len(card.symbols) for column in columns for card in column)
        return complete + 0.5 * partial + DATA.rules.family_symbol_points * symbols
    best = max(movies, default=0.0)
    share = future / 4 * AVERAGE_VALUE
    weakest = min(sum(card.value for card in column) + share for column in columns)
    if future == 0 and 0 in depths:
        weakest = 0.0
    cgi_column, props_column, roles_column, music_column = columns
    cgi = DATA.rules.bang_points * _count([cgi_column], BANG)
    cgi += cgi_column[-1].value if cgi_column else 0
    if ctx.claimed is not None:
        props = float(DATA.stars(ctx.claimed))
    else:
        have = distinct_props(props_column)
        props = float(stars_within(ctx.goals, have))
        if future > 0:
            later = stars_within(ctx.goals, have + 0.35 * future)
            props = max(props, 0.6 * later)
    villains = _count([roles_column], VILLAIN)
    heroes = _count([roles_column], HERO)
    roles = float(roles_points(villains, heroes))
    if villains != heroes and future >= abs(villains - heroes):
        roles += 2.0
    notes = _count([music_column])
    return best + weakest + cgi + props + roles + _soundtrack(notes, ctx)


def _soundtrack(notes: int, ctx: Context) -> float:
    """Expected soundtrack points, plus a little per symbol since rivals keep collecting."""
    if ctx.dummy:
        dice = DATA.rules.die
        total = sum(soundtrack_points([notes, *ctx.rival_notes], die)[0] for die in dice)
        return total / len(dice) + 0.5 * notes
    return soundtrack_points([notes, *ctx.rival_notes])[0] + 0.8 * notes


def gain(columns: Columns, card: Card, ctx: Context) -> float:
    """How much placing this card raises the projection."""
    before = projected_score(columns, ctx)
    after = [list(column) for column in columns]
    after[card.column].append(card)
    return projected_score(after, ctx) - before


def _my_columns(obs: MovieTricksObservation) -> Columns:
    assert obs.seat is not None
    return [list(column) for column in obs.tableaus[obs.seat].columns]


def slot_values(gains: Sequence[float], picks: int) -> list[float]:
    """Expected gain of choosing k-th (k = 0..picks-1) when earlier choosers may take any card.

    Half the chance that earlier choosers took cards at random, half that they took ours.
    """
    ordered = sorted(gains, reverse=True)
    size = len(ordered)
    values = []
    for k in range(picks):
        if k >= size:
            values.append(0.0)
            continue
        random_removal = sum(
            ordered[j] * comb(size - 1 - j, k - j) / comb(size, k) for j in range(k + 1)
        )
        values.append(0.5 * random_removal + 0.5 * ordered[k])
    return values


class HeuristicBot:
    """Greedy on the projected score pad, with a one-round look at the draft order."""

    hold_cost = 0.35
    """What each point of a card's value is worth while it stays in hand for a later round."""
    boost_cost = 2.0
    """What keeping a +3 card for a later round is worth."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, observation: Any, legal_moves: Sequence[Any]) -> Any:
        obs: MovieTricksObservation = observation
        first = legal_moves[0]
        if isinstance(first, PlayCard):
            return self._play(obs, legal_moves)
        if isinstance(first, DraftCard):
            return self._draft(obs, legal_moves)
        if isinstance(first, ClaimGoal | DeclineGoal):
            return self._claim(obs, legal_moves)
        if isinstance(first, ChooseTrump):
            return ChooseTrump(self._best_trump(obs))
        return self._bonus(obs, legal_moves)

    # --- drafting and goals ----------------------------------------------------------------

    def _draft(self, obs: MovieTricksObservation, legal: Sequence[Any]) -> Any:
        ctx = context(obs)
        columns = _my_columns(obs)
        return max(legal, key=lambda m: (gain(columns, CARDS[m.card], ctx), -m.card))

    def _claim(self, obs: MovieTricksObservation, legal: Sequence[Any]) -> Any:
        claims = [m for m in legal if isinstance(m, ClaimGoal)]
        best = max(claims, key=lambda m: m.need)
        ctx = context(obs)
        now = DATA.stars(best.need)
        have = distinct_props(_my_columns(obs)[COLUMN[PROPS]])
        expected = have + 0.3 * ctx.future
        later = stars_within(ctx.goals, expected)
        chance = 1.0 - 0.75**ctx.future
        return best if now >= 0.7 * chance * later else DeclineGoal()

    # --- bonus cards and trump -------------------------------------------------------------

    def _hand_worth(self, obs: MovieTricksObservation, card: Card) -> float:
        left = obs.rounds - obs.round
        if card.kind == PLUS3:
            held = sum(1 for c in obs.hand if c.kind == PLUS3)
            return 3.0 if left > held else 0.0
        return 1.0 if left > 0 else 0.0

    def _trump_worth(self, obs: MovieTricksObservation, suit: str | None) -> float:
        if suit is None or obs.round >= obs.rounds:
            return 0.0
        return 0.15 * sum(c.value + 2 for c in obs.hand if c.suit == suit)

    def _best_trump(self, obs: MovieTricksObservation) -> str:
        return max(SUITS, key=lambda s: (self._trump_worth(obs, s), -SUITS.index(s)))

    def _bonus(self, obs: MovieTricksObservation, legal: Sequence[Any]) -> Any:
        ctx = context(obs)
        columns = _my_columns(obs)
        free_trump = self._trump_worth(obs, self._best_trump(obs))
        sets_trump = any(isinstance(m, DiscardBonus) for m in legal)

        def worth(move: Any) -> float:
            card = CARDS[move.card]
            trump = 0.0
            if sets_trump:
                trump = free_trump if card.kind == PLUS3 else self._trump_worth(obs, card.suit)
            if isinstance(move, BonusToTableau):
                return gain(columns, card, ctx) + trump
            if isinstance(move, BonusToHand):
                return self._hand_worth(obs, card) + trump
            return free_trump

        return max(legal, key=lambda m: (worth(m), -legal.index(m)))

    def _bonus_prospect(self, obs: MovieTricksObservation, ctx: Context, columns: Columns) -> float:
        """What choosing a bonus card is likely worth to us this round."""
        if obs.family or not obs.display:
            return 2.5
        best = 0.0
        for card in obs.display:
            if card.kind == PLUS3:
                best = max(best, self._hand_worth(obs, card))
            else:
                best = max(best, gain(columns, card, ctx), self._hand_worth(obs, card))
        return best

    # --- playing a card --------------------------------------------------------------------

    def _play(self, obs: MovieTricksObservation, legal: Sequence[Any]) -> Any:
        assert obs.seat is not None
        ctx = context(obs)
        columns = _my_columns(obs)
        picks = len(obs.market) if obs.players > 2 else 4
        gains = [gain(columns, card, ctx) for card in obs.market]
        slots = slot_values(gains, min(picks, len(gains)))
        bonus = self._bonus_prospect(obs, ctx, columns)
        unseen = self._unseen(obs)
        later = obs.round < obs.rounds
        boost = DATA.rules.plus3_bonus
        plays = [(p.card.suit, p.card.value + boost * p.boosted) for p in obs.plays]
        lead = plays[0][0] if plays else None
        remaining = obs.players * DATA.setup[obs.players].plays - len(plays) - 1

        def worth(move: PlayCard) -> float:
            card = CARDS[move.card]
            value = card.value + boost * move.boost
            mine = _strength(card.suit, value, obs.trump, lead or card.suit)
            ahead = sum(
                1 for s, v in plays if _strength(s, v, obs.trump, lead or card.suit) >= mine
            )
            beat = sum(
                1 for c in unseen if _strength(c.suit, c.value, obs.trump, lead or card.suit) > mine
            ) / max(1, len(unseen))
            places = _place_distribution(ahead, remaining, beat)
            total = 0.0
            for place, chance in enumerate(places):
                if place < len(slots):
                    total += chance * slots[place]
            lowest = places[-1] if obs.players > 2 else 1.0 - places[0]
            total += lowest * bonus
            if later:
                total -= self.hold_cost * card.value
                if move.boost:
                    total -= self.boost_cost
            return total

        return max(legal, key=lambda m: (worth(m), -m.card, not m.boost))

    def _unseen(self, obs: MovieTricksObservation) -> list[Card]:
        """Playing cards that may still be in other hands (or unused, or in the draw deck)."""
        seen = {c.id for c in obs.hand}
        seen |= {c.id for c in obs.market}
        seen |= {p.card.id for p in obs.plays}
        for tableau in obs.tableaus:
            seen |= {c.id for column in tableau.columns for c in column}
        setup = DATA.setup[obs.players]
        pool = [
            CARDS[i]
            for i in DATA.playing
            if i not in seen
            and (setup.blue or not CARDS[i].blue)
            and CARDS[i].value not in setup.removed_values
        ]
        for hand in obs.known_hands:
            pool.extend(c for c in hand if c.kind != PLUS3 and c.id not in seen)
        return pool


def _strength(suit: str | None, value: int, trump: str | None, lead: str | None) -> tuple[int, int]:
    group = 2 if suit == trump else 1 if suit == lead else 0
    return (group, value)


def _place_distribution(ahead: int, remaining: int, beat: float) -> list[float]:
    """Chance of each final place (0 = first) given cards already ahead of ours and the
    number of cards still to come, each beating ours with probability ``beat``."""
    places = [0.0] * (ahead + remaining + 1)
    for extra in range(remaining + 1):
        chance = comb(remaining, extra) * beat**extra * (1 - beat) ** (remaining - extra)
        places[ahead + extra] += chance
    return places


__all__ = ["HeuristicBot", "gain", "projected_score", "slot_values"]
