"""The Magic Trick engine: set-up, sorting, tricks, sleeves, scoring over one hand per player."""

from __future__ import annotations

import copy
import itertools
import operator
from dataclasses import dataclass
from typing import Any, ClassVar

from games.interface import (
    Outcome,
    State,
)
from games.magic_trick.cards import (
    CARD_SET_ASIDE,
    HAND_SIZE,
    RANKS,
    RED,
    SUITS,
    SUITS_REMOVED,
    Card,
    deck,
    suit_order,
)
from games.magic_trick.moves import (
    MOVE_TYPES,
    KeepSleeveEmpty,
    Move,
    PlayCard,
    SleeveCard,
    SortCard,
)
from games.magic_trick.scoring import earned_prestige, final_outcome, hand_points, trick_winner
from games.magic_trick.views import (
    IN_HAND,
    PLAYED,
    SLEEVED,
    HandResult,
    MagicTrickObservation,
    PlayView,
    SlotView,
    TrickView,
)
from games.rng import Rng
from games.values import frozen_record

SORT = "sort"
PLAY = "play"
OVER = "over"

_PENDING_PLAY = "play"
_PENDING_SLEEVE = "sleeve"


@dataclass(frozen=True)
class _Trick:
    leader: int
    plays: tuple[tuple[int, int], ...]
    winner: int


_PLAYS = tuple(PlayCard(slot) for slot in range(max(HAND_SIZE.values())))
_SLEEVES = tuple(SleeveCard(slot) for slot in range(max(HAND_SIZE.values())))
_KEEP = KeepSleeveEmpty()
_SORTS = {(suit, rank): SortCard(suit, rank) for suit in SUITS for rank in RANKS}
_SLOTS = {
    (suit, rank, place): SlotView(suit, rank, place)
    for suit in SUITS
    for rank in (*RANKS, None)
    for place in (IN_HAND, PLAYED, SLEEVED)
}
"""Moves and slot views are made once: the same objects come back in every list and view
(the wire encoder remembers their bytes by identity)."""


class MagicTrickState(State):
    game_id: ClassVar[str] = "magic-trick"
    move_types: ClassVar[tuple[type[Any], ...]] = MOVE_TYPES

    def __init__(self, players: int, rng: Rng, prestige: bool) -> None:
        self._players = players
        self.rng = rng
        self.prestige = prestige
        self.hand_size = HAND_SIZE[players]
        non_red = [suit for suit in SUITS if suit != RED]
        removed = rng.sample(non_red, SUITS_REMOVED[players])
        self.removed_suits = tuple(sorted(removed, key=suit_order))
        self.suits = tuple(suit for suit in SUITS if suit not in removed)
        self.hand_no = 0
        self.scores = [0] * players
        self.prestige_count = [0] * players
        self.past: list[HandResult] = []
        self.phase = SORT
        self.set_aside: Card | None = None
        self.to_sort: list[list[Card]] = []
        self.placed: list[list[Card]] = []
        self.fans: list[list[Card]] = []
        self.places: list[list[str]] = []
        self.sleeve_slot: list[int | None] = []
        self.tricks: list[_Trick] = []
        self.current: list[tuple[int, int]] = []
        self.turn = 0
        self.pending = _PENDING_PLAY
        self.taken: list[list[Card]] = []
        self._cache_legal: dict[int, tuple[Move, ...]] = {}
        self._cache_to_move: tuple[int, ...] | None = None
        self._cache_fans: dict[int, tuple[SlotView, ...]] = {}
        """A fan's view by ``2 * owner + known``."""
        self._cache_tricks: tuple[int, tuple[TrickView, ...]] = (-1, ())
        self._cache_past: tuple[HandResult, ...] = ()
        self._cache_taken: tuple[int, int, tuple[int, ...]] = (-1, -1, ())
        self._cache_rows: dict[int | None, tuple[tuple[SlotView, ...], ...]] = {}
        self._cache_current: TrickView | None = None
        self._cache_in_hand: dict[int, tuple[int, ...]] = {}
        self._cache_piles: dict[int, tuple[tuple[Card, ...], tuple[Card, ...]]] = {}
        self._deal()

    @property
    def players(self) -> int:
        return self._players

    @property
    def dealer(self) -> int:
        return self.hand_no % self._players

    # --- dealing and sorting -------------------------------------------------------------

    def _deal(self) -> None:
        cards = deck(self.suits)
        self.rng.shuffle(cards)
        self.set_aside = cards.pop() if CARD_SET_ASIDE[self._players] else None
        size = self.hand_size
        self.to_sort = [cards[s * size : (s + 1) * size] for s in range(self._players)]
        self.placed = [[] for _ in range(self._players)]
        self.phase = SORT
        self._cache_piles.clear()
        for seat in range(self._players):
            self._autoplace(seat)
        self._maybe_start_play()

    def _autoplace(self, seat: int) -> None:
        """Place cards while the highest remaining rank leaves the sorter no choice."""
        pile = self.to_sort[seat]
        placed = self.placed[seat]
        while pile:
            ranks = list(map(_rank, pile))
            top = max(ranks)
            if ranks.count(top) > 1:
                return
            placed.append(pile.pop(ranks.index(top)))

    def _maybe_start_play(self) -> None:
        if any(self.to_sort):
            return
        n = self._players
        self.fans = [list(self.placed[(owner - 1) % n]) for owner in range(n)]
        self.places = [[IN_HAND] * self.hand_size for _ in range(n)]
        self.sleeve_slot = [None] * n
        self.tricks = []
        self.current = []
        self.taken = [[] for _ in range(n)]
        self.turn = (self.dealer + 1) % n
        self.pending = _PENDING_PLAY
        self.phase = PLAY
        self._cache_fans.clear()
        self._cache_rows.clear()
        self._cache_in_hand.clear()
        self._cache_current = None

    # --- the interface -------------------------------------------------------------------

    def to_move(self) -> tuple[int, ...]:
        found = self._cache_to_move
        if found is None:
            found = self._cache_to_move = self._compute_to_move()
        return found

    def _compute_to_move(self) -> tuple[int, ...]:
        if self.phase == SORT:
            return tuple(itertools.compress(range(self._players), self.to_sort))
        if self.phase == PLAY:
            return (self.turn,)
        return ()

    def legal_moves(self, seat: int) -> tuple[Move, ...]:
        found = self._cache_legal.get(seat)
        if found is None:
            found = self._cache_legal[seat] = self._compute_legal(seat)
        return found

    def _compute_legal(self, seat: int) -> tuple[Move, ...]:
        phase = self.phase
        if phase == PLAY:
            if seat != self.turn:
                return ()
            in_hand = self._in_hand(seat)
            if self.pending == _PENDING_SLEEVE:
                return (*map(_SLEEVES.__getitem__, in_hand), _KEEP)
            if self.current:
                lead_seat, lead_slot = self.current[0]
                lead = self.fans[lead_seat][lead_slot].suit
                fan = self.fans[seat]
                following = [slot for slot in in_hand if fan[slot].suit == lead]
                if following:
                    return tuple(map(_PLAYS.__getitem__, following))
            return tuple(map(_PLAYS.__getitem__, in_hand))
        if phase == SORT and self.to_sort[seat]:
            group = sorted(_top_group(self.to_sort[seat]), key=_suit_rank)
            return tuple(_SORTS[card] for card in group)
        return ()

    def _apply(self, seat: int, move: Any) -> None:
        self._step(seat, move)
        if type(move) is SortCard and self.phase == SORT:
            # Sorting one's pile changes no other seat's choices (the seats sort at once).
            self._cache_legal.pop(seat, None)
            if not self.to_sort[seat]:
                self._cache_to_move = None
        else:
            self._cache_legal.clear()
            self._cache_to_move = None

    def _step(self, seat: int, move: Any) -> None:
        kind = type(move)
        if kind is PlayCard:
            self._move_card(seat, move.slot, PLAYED)
            self.current.append((seat, move.slot))
            self._cache_current = None
            if self._may_sleeve(seat):
                self.pending = _PENDING_SLEEVE
            else:
                self._next_turn()
        elif kind is SleeveCard:
            self._move_card(seat, move.slot, SLEEVED)
            self.sleeve_slot[seat] = move.slot
            self.pending = _PENDING_PLAY
            self._next_turn()
        elif kind is SortCard:
            card = Card(move.suit, move.rank)
            self.to_sort[seat].remove(card)
            self.placed[seat].append(card)
            self._cache_piles.pop(seat, None)
            self._autoplace(seat)
            self._maybe_start_play()
        else:
            self.pending = _PENDING_PLAY
            self._next_turn()

    def _move_card(self, owner: int, slot: int, place: str) -> None:
        """A card leaves the owner's hand: the remembered views of the fan are updated in
        place of being made again."""
        self.places[owner][slot] = place
        fans = self._cache_fans
        if fans:  # views are never asked for in a search's playout
            card = self.fans[owner][slot]
            view = _SLOTS[card.suit, card.rank, place]
            for key in (2 * owner, 2 * owner + 1):
                found = fans.get(key)
                if found is not None:
                    fans[key] = (*found[:slot], view, *found[slot + 1 :])
        in_hand = self._cache_in_hand.get(owner)
        if in_hand is not None:
            at = in_hand.index(slot)
            self._cache_in_hand[owner] = in_hand[:at] + in_hand[at + 1 :]
        self._cache_rows.clear()

    def _forget_fan(self, owner: int) -> None:
        self._cache_fans.pop(2 * owner, None)
        self._cache_fans.pop(2 * owner + 1, None)
        self._cache_in_hand.pop(owner, None)
        self._cache_rows.clear()

    # --- tricks and hands ----------------------------------------------------------------

    def _slots_in_hand(self, seat: int) -> list[int]:
        return [slot for slot, place in enumerate(self.places[seat]) if place == IN_HAND]

    def _in_hand(self, seat: int) -> tuple[int, ...]:
        found = self._cache_in_hand.get(seat)
        if found is None:
            found = self._cache_in_hand[seat] = tuple(self._slots_in_hand(seat))
        return found

    def _may_sleeve(self, seat: int) -> bool:
        """A sleeve choice is offered after a play unless already made or forced anyway."""
        last_trick = len(self.tricks) == self.hand_size - 2
        return self.sleeve_slot[seat] is None and not last_trick

    def _next_turn(self) -> None:
        if len(self.current) < self._players:
            self.turn = (self.turn + 1) % self._players
            return
        plays = tuple(self.current)
        winner = trick_winner([(seat, self.fans[seat][slot]) for seat, slot in plays])
        self.tricks.append(_Trick(plays[0][0], plays, winner))
        self.taken[winner].extend(self.fans[seat][slot] for seat, slot in plays)
        self.current = []
        self._cache_current = None
        if len(self.tricks) == self.hand_size - 1:
            self._end_hand()
        else:
            self.turn = winner

    def _end_hand(self) -> None:
        n = self._players
        for seat in range(n):
            if self.sleeve_slot[seat] is None:
                (last,) = self._slots_in_hand(seat)
                self.places[seat][last] = SLEEVED
                self._forget_fan(seat)
                self.sleeve_slot[seat] = last
        sleeves = tuple(self.fans[s][self._sleeve(s)] for s in range(n))
        tricks = tuple(sum(t.winner == s for t in self.tricks) for s in range(n))
        suits = tuple(len({card.suit for card in self.taken[s]}) for s in range(n))
        points = tuple(
            hand_points(sleeves[s].rank, tricks[s], suits[s], self.prestige) for s in range(n)
        )
        prestige = tuple(
            self.prestige and earned_prestige(sleeves[s].rank, tricks[s], suits[s])
            for s in range(n)
        )
        for seat in range(n):
            self.scores[seat] += points[seat]
            self.prestige_count[seat] += prestige[seat]
        self.past.append(HandResult(self.dealer, sleeves, tricks, suits, points, prestige))
        self.hand_no += 1
        if self.hand_no == n:
            self.phase = OVER
        else:
            self._deal()

    def _sleeve(self, seat: int) -> int:
        slot = self.sleeve_slot[seat]
        assert slot is not None
        return slot

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        return final_outcome(self.scores, self.prestige_count, self.past[-1], self.prestige)

    # --- views ---------------------------------------------------------------------------

    def observe(self, seat: int) -> MagicTrickObservation:
        return self._view(seat)

    def spectate(self) -> MagicTrickObservation:
        return self._view(None)

    def _view(self, viewer: int | None) -> MagicTrickObservation:
        n = self._players
        phase = self.phase
        play = phase == PLAY
        sorting: tuple[Card, ...] = ()
        placed: tuple[Card, ...] = ()
        if viewer is not None and phase == SORT:
            sorting, placed = self._piles_view(viewer)
        return frozen_record(
            MagicTrickObservation,
            {
                "seat": viewer,
                "players": n,
                "prestige_bonus": self.prestige,
                "hand": min(self.hand_no, n - 1),
                "hands": n,
                "dealer": self.hand_no % n if phase != OVER else (n - 1),
                "phase": phase,
                "turn": self.turn if play else None,
                "removed_suits": self.removed_suits,
                "set_aside": self.set_aside,
                "sorting": sorting,
                "sorted": placed,
                "fans": self._rows_view(viewer) if play else (),
                "tricks": self._tricks_view() if play else (),
                "current": self._current_view() if play and self.current else None,
                "tricks_taken": self._taken_view() if play else (0,) * n,
                "scores": tuple(self.scores),
                "prestige_count": tuple(self.prestige_count),
                "past_hands": self._past_view(),
            },
        )

    def _piles_view(self, viewer: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """The viewer's own sorting pile and the cards it placed, until it sorts again."""
        found = self._cache_piles.get(viewer)
        if found is None:
            found = self._cache_piles[viewer] = (
                tuple(_canonical(self.to_sort[viewer])),
                tuple(self.placed[viewer]),
            )
        return found

    def _rows_view(self, viewer: int | None) -> tuple[tuple[SlotView, ...], ...]:
        """Every fan as the viewer sees it (its left neighbour's ranks known), remembered
        until a card of any fan moves."""
        found = self._cache_rows.get(viewer)
        if found is None:
            known = None if viewer is None else (viewer + 1) % self._players
            found = self._cache_rows[viewer] = tuple(
                self._fan_view(owner, owner == known) for owner in range(self._players)
            )
        return found

    def _current_view(self) -> TrickView:
        found = self._cache_current
        if found is None:
            found = self._cache_current = self._trick_view(
                self.current[0][0], tuple(self.current), None
            )
        return found

    def _tricks_view(self) -> tuple[TrickView, ...]:
        """Complete tricks as everybody sees them; within a hand tricks are only added, so the
        views made before are kept and only the new ones made."""
        hand, views = self._cache_tricks
        if hand != self.hand_no or len(views) != len(self.tricks):
            if hand != self.hand_no or len(views) > len(self.tricks):
                views = ()
            views += tuple(
                self._trick_view(t.leader, t.plays, t.winner) for t in self.tricks[len(views) :]
            )
            self._cache_tricks = (self.hand_no, views)
        return views

    def _taken_view(self) -> tuple[int, ...]:
        hand, count, taken = self._cache_taken
        if hand != self.hand_no or count != len(self.tricks):
            taken = tuple(sum(t.winner == s for t in self.tricks) for s in range(self._players))
            self._cache_taken = (self.hand_no, len(self.tricks), taken)
        return taken

    def _past_view(self) -> tuple[HandResult, ...]:
        if len(self._cache_past) != len(self.past):
            self._cache_past = tuple(self.past)
        return self._cache_past

    def _fan_view(self, owner: int, known: bool) -> tuple[SlotView, ...]:
        """A fan as a viewer sees it: ranks of cards in hand only when ``known``; remembered
        until a card of the fan moves."""
        found = self._cache_fans.get(2 * owner + known)
        if found is None:
            found = self._cache_fans[2 * owner + known] = tuple(
                _SLOTS[card.suit, card.rank if known or place != IN_HAND else None, place]
                for card, place in zip(self.fans[owner], self.places[owner], strict=True)
            )
        return found

    def _trick_view(
        self, leader: int, plays: tuple[tuple[int, int], ...], winner: int | None
    ) -> TrickView:
        fans = self.fans
        shown = tuple([_play_view(seat, slot, fans[seat][slot]) for seat, slot in plays])
        return frozen_record(TrickView, {"leader": leader, "plays": shown, "winner": winner})

    # --- copies and hidden information ---------------------------------------------------

    def current_scores(self) -> tuple[int, ...]:
        outcome = self.outcome()
        return outcome.scores if outcome is not None else tuple(self.scores)

    def clone(self) -> MagicTrickState:
        twin = copy.copy(self)
        twin.rng = self.rng.copy()
        twin.scores = list(self.scores)
        twin.prestige_count = list(self.prestige_count)
        twin.past = list(self.past)
        twin.to_sort = [list(pile) for pile in self.to_sort]
        twin.placed = [list(pile) for pile in self.placed]
        twin.fans = [list(fan) for fan in self.fans]
        twin.places = [list(places) for places in self.places]
        twin.sleeve_slot = list(self.sleeve_slot)
        twin.tricks = list(self.tricks)
        twin.current = list(self.current)
        twin.taken = [list(cards) for cards in self.taken]
        twin._cache_legal = dict(self._cache_legal)
        twin._cache_fans = dict(self._cache_fans)
        twin._cache_rows = dict(self._cache_rows)
        twin._cache_in_hand = dict(self._cache_in_hand)
        twin._cache_piles = dict(self._cache_piles)
        return twin

    def indistinguishable(self, seat: int, rng: Rng) -> MagicTrickState:
        """Re-deal what `seat` cannot see by random swaps that keep every visible fact."""
        twin = self.clone()
        twin.rng = rng.fork(f"twin-{rng.below(1 << 62)}")
        twin._cache_legal.clear()
        twin._cache_to_move = None
        twin._cache_fans.clear()
        twin._cache_rows.clear()
        twin._cache_in_hand.clear()
        twin._cache_piles.clear()
        twin._cache_current = None
        if twin.phase == SORT:
            twin._swap_hidden_piles(seat, rng)
        elif twin.phase == PLAY:
            twin._swap_hidden_fans(seat, rng)
        return twin

    def _swap_hidden_piles(self, seat: int, rng: Rng) -> None:
        others = [s for s in range(self._players) if s != seat]
        cells = [(s, i) for s in others for i in range(len(self.to_sort[s]))]
        for _ in range(4 * len(cells)):
            if len(cells) < 2:
                return
            first, second = rng.pair(len(cells))
            (a, i), (b, j) = cells[first], cells[second]
            before = (_has_choice(self.to_sort[a]), _has_choice(self.to_sort[b]))
            self.to_sort[a][i], self.to_sort[b][j] = self.to_sort[b][j], self.to_sort[a][i]
            after = (_has_choice(self.to_sort[a]), _has_choice(self.to_sort[b]))
            if before != after or not (self._pile_fits(a) and self._pile_fits(b)):
                self.to_sort[a][i], self.to_sort[b][j] = self.to_sort[b][j], self.to_sort[a][i]

    def _pile_fits(self, seat: int) -> bool:
        placed = self.placed[seat]
        return not placed or all(c.rank <= placed[-1].rank for c in self.to_sort[seat])

    def _swap_hidden_fans(self, seat: int, rng: Rng) -> None:
        known = (seat + 1) % self._players
        cells = [
            (owner, slot)
            for owner in range(self._players)
            if owner != known
            for slot in self._slots_in_hand(owner)
        ]
        for _ in range(4 * len(cells)):
            if len(cells) < 2:
                return
            first, second = rng.pair(len(cells))
            (a, i), (b, j) = cells[first], cells[second]
            if a == b or self.fans[a][i].suit != self.fans[b][j].suit:
                continue
            self.fans[a][i], self.fans[b][j] = self.fans[b][j], self.fans[a][i]
            if not (_descending(self.fans[a]) and _descending(self.fans[b])):
                self.fans[a][i], self.fans[b][j] = self.fans[b][j], self.fans[a][i]


_PLAY_VIEWS: dict[tuple[int, int, Card], PlayView] = {}


def _play_view(seat: int, slot: int, card: Card) -> PlayView:
    """A play as everybody sees it, made once per (seat, slot, card)."""
    key = (seat, slot, card)
    found = _PLAY_VIEWS.get(key)
    if found is None:
        found = _PLAY_VIEWS[key] = PlayView(seat, slot, card)
    return found


_rank = operator.itemgetter(1)
"""A card's rank (a `Card` is a named tuple: suit, rank)."""
_SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}


def _suit_rank(card: Card) -> int:
    return _SUIT_INDEX[card.suit]


def _top_group(pile: list[Card]) -> list[Card]:
    ranks = list(map(_rank, pile))
    top = max(ranks)
    if ranks.count(top) == 1:
        return [pile[ranks.index(top)]]
    return [card for card, rank in zip(pile, ranks, strict=True) if rank == top]


def _has_choice(pile: list[Card]) -> bool:
    return bool(pile) and len(_top_group(pile)) > 1


def _descending(fan: list[Card]) -> bool:
    return all(a.rank >= b.rank for a, b in itertools.pairwise(fan))


_CANONICAL = {Card(suit, rank): (-rank, suit_order(suit)) for suit in SUITS for rank in RANKS}
"""A card's place in a pile as a viewer sees it: highest rank first, then suit order."""


def _canonical(cards: list[Card]) -> list[Card]:
    return sorted(cards, key=_CANONICAL.__getitem__)
