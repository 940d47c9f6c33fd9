"""The Movie Tricks engine: set-up, the four steps of every round, the end and final scoring.

A round: every seat plays a card (2 players: two each) following the lead suit if it can; in
rank order the players draft the market into their tableaus, claiming a props goal when they
place a Props card if they wish; the lowest-ranked player takes, places or discards a bonus
card and so sets the trump for the next round (5 players: the second-lowest takes one too);
then the played cards become the next market. The game ends the moment the bonus display
cannot be refilled (family variant: when the bonus deck runs out).

A decision with a single legal move is applied by the engine at once, never asked.
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.interface import (
    Outcome,
)
from games.movie_tricks.cards import CARDS, COLUMN, DATA, PLAYING, PLUS3, PROPS, SUITS, Card, Goal
from games.movie_tricks.moves import (
    MOVE_TYPES,
    BonusToHand,
    BonusToTableau,
    ChooseTrump,
    ClaimGoal,
    DeclineGoal,
    DiscardBonus,
    DraftCard,
    Move,
    PlayCard,
)
from games.movie_tricks.scoring import (
    distinct_props,
    family_outcome,
    rank_order,
    score_pads,
    standard_outcome,
)
from games.movie_tricks.views import (
    BONUS,
    CLAIM,
    DRAFT,
    OVER,
    PLAY,
    TRUMP,
    MovieTricksObservation,
    Play,
    Tableau,
)
from games.rng import Rng
from games.turns import OneSeatAtATime
from games.values import Interner, frozen_record

_PROPS_COLUMN = COLUMN[PROPS]
_RESUME_DRAFT = "draft"
_RESUME_BONUS = "bonus"

_PLAY_MOVES = {(c.id, b): PlayCard(c.id, b) for c in CARDS for b in (False, True)}
_PLAIN = tuple(_PLAY_MOVES[c.id, False] for c in CARDS)
_BOOSTED = tuple(_PLAY_MOVES[c.id, True] for c in CARDS)
_IS_PLUS3 = tuple(c.kind == PLUS3 for c in CARDS)
_SUIT = tuple(c.suit for c in CARDS)
"""Per card id: its plays, whether it is a +3 card, its suit (indexed by card id)."""
_DRAFT_MOVES = {c.id: DraftCard(c.id) for c in CARDS}
_TO_HAND = {c.id: BonusToHand(c.id) for c in CARDS}
_TO_TABLEAU = {c.id: BonusToTableau(c.id) for c in CARDS}
_DISCARD = {c.id: DiscardBonus(c.id) for c in CARDS}
_CLAIMS = {goal.need: ClaimGoal(goal.need) for goal in DATA.goals}
_TRUMPS = tuple(ChooseTrump(suit) for suit in SUITS)
_DECLINE = DeclineGoal()


def rounds_in_game(players: int, family: bool) -> int:
    """The round in whose step 3 the bonus deck runs out: 13, 10 or 7 (both variants)."""
    setup = DATA.setup[players]
    picks = setup.bonus_picks
    if family:
        return -(-setup.family_bonus // picks)
    refills = setup.bonus - DATA.rules.display
    return -(-(refills + 1) // picks)


def _is_hidden(card: int) -> bool:
    """Dealt and drawn playing cards are secret; bonus cards reach a hand in front of all."""
    return CARDS[card].kind == PLAYING


class MovieTricksState(OneSeatAtATime):
    game_id: ClassVar[str] = "movie-tricks"
    move_types: ClassVar[tuple[type[Any], ...]] = MOVE_TYPES

    def __init__(self, players: int, rng: Rng, family: bool) -> None:
        setup = DATA.setup[players]
        self._players = players
        self.rng = rng
        self.family = family
        self.plays_each = setup.plays
        self.rounds = rounds_in_game(players, family)
        self.round = 1
        self.phase = PLAY
        self.turn: int | None = None
        self.resume = ""
        self.trump: str | None = None

        starts = list(DATA.start)
        rng.shuffle(starts)
        self.market = [pair[rng.below(2)] for pair in starts[: setup.market]]

        bonus = list(DATA.bonus)
        rng.shuffle(bonus)
        used = setup.family_bonus if family else setup.bonus
        self.bonus_unused = bonus[used:]
        self.bonus_deck = bonus[:used]
        self.display: list[int] = []
        if not family:
            self.display = [self.bonus_deck.pop() for _ in range(DATA.rules.display)]
        self.discards: list[int] = []

        deck = [
            card
            for card in DATA.playing
            if (setup.blue or not CARDS[card].blue)
            and CARDS[card].value not in setup.removed_values
        ]
        rng.shuffle(deck)
        deal = setup.deal
        self.hands = [deck[s * deal : (s + 1) * deal] for s in range(players)]
        rest = deck[players * deal :]
        self.draw_deck = rest[: setup.draw_deck]
        self.unused = rest[setup.draw_deck :]

        self.director = rng.below(players)
        self.tableaus: list[list[list[int]]] = [[[], [], [], []] for _ in range(players)]
        self.goals = [] if family else [goal.need for goal in DATA.goals]
        self.goals_discarded: list[int] = []
        self.claimed: list[int | None] = [None] * players
        self.props_die: int | None = None
        self.soundtrack_die: int | None = None
        self.allow: list[dict[str, int]] = [{} for _ in range(players)]
        """Per seat: the most hidden cards of a suit it may hold, once it failed to follow it."""

        self.plays: list[tuple[int, int, bool]] = []
        self.play_order: list[int] = []
        self.boosted = [False] * players
        self.pick_order: list[int] = []
        self.bonus_order: list[int] = []
        self.bonus_taken = 0
        self.pawn = self.director
        self.result: Outcome | None = None
        self._legal: tuple[Move, ...] = ()
        self._cache_views: dict[Any, Any] = {}
        """Parts of the observations, made when first asked and dropped by what changes them
        (see `_step`): a seat's own hand under the seat, its tableau under ``~seat``, the
        parts all seats see under their names."""
        self._start_round()
        self._settle()

    @property
    def players(self) -> int:
        return self._players

    # --- moves ---------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.turn is None

    def _compute_legal(self, seat: int) -> tuple[Move, ...]:
        phase = self.phase
        if phase == PLAY:
            return self._play_moves(seat)
        if phase == DRAFT:
            return tuple(map(_DRAFT_MOVES.__getitem__, sorted(self.market)))
        if phase == CLAIM:
            have = distinct_props([CARDS[c] for c in self.tableaus[seat][_PROPS_COLUMN]])
            return (*(_CLAIMS[need] for need in self.goals if need <= have), _DECLINE)
        if phase == BONUS:
            moves: list[Move] = []
            for card in sorted(self.display):
                moves.append(_TO_HAND[card])
                if CARDS[card].kind != PLUS3:
                    moves.append(_TO_TABLEAU[card])
            if self.bonus_taken == 0:
                moves.extend(_DISCARD[card] for card in sorted(self.display))
            return tuple(moves)
        if phase == TRUMP:
            return _TRUMPS
        return ()

    def _play_moves(self, seat: int) -> tuple[Move, ...]:
        hand = sorted(self.hands[seat])
        playable = [card for card in hand if not _IS_PLUS3[card]]
        may_boost = len(playable) < len(hand) and not self.boosted[seat]  # a +3 card in hand
        if self.plays:
            lead = _SUIT[self.plays[0][1]]
            following = [card for card in playable if _SUIT[card] == lead]
            if following:
                playable = following
        plain = tuple(map(_PLAIN.__getitem__, playable))
        if may_boost:
            return plain + tuple(map(_BOOSTED.__getitem__, playable))
        return plain

    def _step(self, seat: int, move: Any) -> None:
        kind = type(move)
        views = self._cache_views  # empty in a playout: nothing to drop
        if kind is PlayCard:
            if views:
                for key in (seat, "sizes", "plays"):
                    views.pop(key, None)
                if move.boost:  # the +3 card goes to the discards
                    views.pop("discards", None)
                if move.boost or not _is_hidden(move.card):
                    views.pop("known", None)
            self._play(seat, move.card, move.boost)
        elif kind is DraftCard:
            if views:
                for key in ("market", ~seat, "tableaus"):
                    views.pop(key, None)
            self.market.remove(move.card)
            self.pick_order.pop(0)
            if not self._place(seat, move.card, _RESUME_DRAFT):
                self._next_pick()
        elif kind is ClaimGoal:
            if views:
                for key in ("goals", ~seat, "tableaus"):
                    views.pop(key, None)
            self._claim(seat, move.need)
            self._resume()
        elif kind is DeclineGoal:
            self._resume()
        elif kind is BonusToHand:
            if views:
                for key in ("display", seat, "sizes", "known"):
                    views.pop(key, None)
            self.display.remove(move.card)
            self.hands[seat].append(move.card)
            if self.bonus_taken > 0:
                self._after_bonus()
            elif CARDS[move.card].kind == PLUS3:
                self._ask_trump()
            else:
                self.trump = CARDS[move.card].suit
                self._after_bonus()
        elif kind is BonusToTableau:
            if views:
                for key in ("display", ~seat, "tableaus"):
                    views.pop(key, None)
            self.display.remove(move.card)
            if self.bonus_taken == 0:
                self.trump = CARDS[move.card].suit
            if not self._place(seat, move.card, _RESUME_BONUS):
                self._after_bonus()
        elif kind is DiscardBonus:
            if views:
                for key in ("display", "discards"):
                    views.pop(key, None)
            self.display.remove(move.card)
            self.discards.append(move.card)
            self._ask_trump()
        elif kind is ChooseTrump:
            self.trump = move.suit
            self._resume()

    # --- step 1: play cards --------------------------------------------------------------

    def _start_round(self) -> None:
        n = self._players
        self._cache_views.pop("plays", None)
        self.play_order = [(self.director + i) % n for i in range(n * self.plays_each)]
        self.plays = []
        self.boosted = [False] * n
        self.phase = PLAY
        self.turn = self.play_order[0]

    def _play(self, seat: int, card: int, boost: bool) -> None:
        hand = self.hands[seat]
        hand.remove(card)
        suit = CARDS[card].suit
        assert suit is not None
        allow = self.allow[seat]
        if _is_hidden(card) and suit in allow:
            allow[suit] -= 1
        if boost:
            plus = min(c for c in hand if CARDS[c].kind == PLUS3)
            hand.remove(plus)
            self.discards.append(plus)
            self.boosted[seat] = True
        if self.plays:
            lead = CARDS[self.plays[0][1]].suit
            if lead is not None and suit != lead:
                allow[lead] = 0
        self.plays.append((seat, card, boost))
        if len(self.plays) < len(self.play_order):
            self.turn = self.play_order[len(self.plays)]
        else:
            self._rank()

    # --- step 2: choose cards ------------------------------------------------------------

    def _rank(self) -> None:
        bonus = DATA.rules.plus3_bonus
        order = rank_order(
            [
                (CARDS[card].suit, CARDS[card].value + (bonus if boost else 0))
                for _, card, boost in self.plays
            ],
            self.trump,
        )
        self.pick_order = [self.plays[i][0] for i in order]
        self.pawn = self.pick_order[0]
        if self._players == 2:
            self.bonus_order = [1 - self.pawn]
        else:
            picks = DATA.setup[self._players].bonus_picks
            self.bonus_order = self.pick_order[::-1][:picks]
        self.bonus_taken = 0
        self._next_pick()

    def _next_pick(self) -> None:
        if self.pick_order:
            self.phase = DRAFT
            self.turn = self.pick_order[0]
        else:
            self._next_bonus()

    def _place(self, seat: int, card: int, resume: str) -> bool:
        """Put a card under its category; True when a props goal decision now waits."""
        self.tableaus[seat][CARDS[card].column].append(card)
        if CARDS[card].category == PROPS and self._may_claim(seat):
            self.phase = CLAIM
            self.turn = seat
            self.resume = resume
            return True
        return False

    def _may_claim(self, seat: int) -> bool:
        if self.claimed[seat] is not None or not self.goals:
            return False
        have = distinct_props([CARDS[c] for c in self.tableaus[seat][_PROPS_COLUMN]])
        return min(self.goals) <= have

    def _claim(self, seat: int, need: int) -> None:
        self.goals.remove(need)
        self.claimed[seat] = need
        if self._players == 2 and self.props_die is None:
            die = self._roll()
            self.props_die = die
            target = die if die in self.goals else die - 1
            if target in self.goals:
                self.goals.remove(target)
                self.goals_discarded.append(target)

    def _resume(self) -> None:
        if self.resume == _RESUME_DRAFT:
            self._next_pick()
        else:
            self._after_bonus()

    # --- step 3: bonus card and trump ----------------------------------------------------

    def _next_bonus(self) -> None:
        if not self.bonus_order:
            self._end_round()
            return
        if self.family:
            self.display = [self.bonus_deck.pop()]
            self._cache_views.pop("display", None)
        self.phase = BONUS
        self.turn = self.bonus_order[0]

    def _ask_trump(self) -> None:
        self.phase = TRUMP
        self.resume = _RESUME_BONUS

    def _after_bonus(self) -> None:
        self.bonus_order.pop(0)
        self.bonus_taken += 1
        if not self.bonus_deck:
            self._finish()
            return
        if not self.family:
            self.display.append(self.bonus_deck.pop())
            self._cache_views.pop("display", None)
        self._next_bonus()

    # --- step 4: the next round ----------------------------------------------------------

    def _end_round(self) -> None:
        self.market.extend(card for _, card, _ in self.plays)
        self._cache_views.pop("market", None)
        self.director = self.pawn
        if self._players == 2:
            for seat in (self.director, 1 - self.director):
                if self.draw_deck:
                    self.hands[seat].append(self.draw_deck.pop())
                    for key in (seat, "sizes", "known"):
                        self._cache_views.pop(key, None)
                    for suit in self.allow[seat]:
                        self.allow[seat][suit] += 1
        self.round += 1
        self._start_round()

    def _finish(self) -> None:
        self._cache_views.clear()
        self.phase = OVER
        self.turn = None
        columns = [[[CARDS[c] for c in column] for column in t] for t in self.tableaus]
        if self.family:
            self.result = family_outcome(columns)
            return
        if self._players == 2:
            self.soundtrack_die = self._roll()
        pads = score_pads(columns, self.claimed, self.soundtrack_die)
        self.result = standard_outcome(pads, self.soundtrack_die)

    def _roll(self) -> int:
        return self.rng.choice(DATA.rules.die)

    # --- views ---------------------------------------------------------------------------

    def observe(self, seat: int) -> MovieTricksObservation:
        return self._view(seat)

    def spectate(self) -> MovieTricksObservation:
        return self._view(None)

    def _view(self, viewer: int | None) -> MovieTricksObservation:
        views = self._cache_views
        hand: tuple[Card, ...] | None = ()
        if viewer is not None:
            hand = views.get(viewer)
            if hand is None:
                hand = views[viewer] = _cards(sorted(self.hands[viewer]))
        sizes = views.get("sizes")
        if sizes is None:
            sizes = views["sizes"] = tuple(len(hand) for hand in self.hands)
        known = views.get("known")
        if known is None:
            known = views["known"] = self._known_view()
        plays = views.get("plays")
        if plays is None:
            plays = views["plays"] = self._plays_view()
        market = views.get("market")
        if market is None:
            market = views["market"] = _cards(self.market)
        display = views.get("display")
        if display is None:
            display = views["display"] = _cards(self.display)
        discards = views.get("discards")
        if discards is None:
            discards = views["discards"] = _cards(self.discards)
        goals = views.get("goals")
        if goals is None:
            goals = views["goals"] = self._goals_view()
        tableaus = views.get("tableaus")
        if tableaus is None:
            tableaus = views["tableaus"] = self._tableaus_view()
        phase = self.phase
        return frozen_record(
            MovieTricksObservation,
            {
                "seat": viewer,
                "players": self._players,
                "family": self.family,
                "round": self.round,
                "rounds": self.rounds,
                "phase": phase,
                "turn": self.turn,
                "director": self.director,
                "trump": self.trump,
                "hand": hand,
                "hand_sizes": sizes,
                "known_hands": known,
                "plays": plays,
                "pick_order": tuple(self.pick_order) if phase != PLAY else (),
                "bonus_order": tuple(self.bonus_order) if phase != PLAY else (),
                "market": market,
                "display": display,
                "bonus_deck": len(self.bonus_deck),
                "draw_deck": len(self.draw_deck),
                "discards": discards,
                "goals": goals,
                "goals_discarded": tuple(self.goals_discarded),
                "tableaus": tableaus,
                "props_die": self.props_die,
                "soundtrack_die": self.soundtrack_die,
            },
        )

    def _known_view(self) -> tuple[tuple[Card, ...], ...]:
        return _VIEWS.get(
            ("known", *(tuple(hand) for hand in self.hands)),
            lambda: tuple(
                _cards(sorted(c for c in hand if not _is_hidden(c))) for hand in self.hands
            ),
        )

    def _plays_view(self) -> tuple[Play, ...]:
        return tuple(map(_play_view, self.plays))

    def _goals_view(self) -> tuple[Goal, ...]:
        return _VIEWS.get(
            ("goals", *self.goals),
            lambda: tuple(goal for goal in DATA.goals if goal.need in self.goals),
        )

    def _tableaus_view(self) -> tuple[Tableau, ...]:
        views = self._cache_views
        made = []
        for seat, tableau in enumerate(self.tableaus):
            view = views.get(~seat)
            if view is None:
                view = views[~seat] = _tableau(tableau, self.claimed[seat])
            made.append(view)
        return tuple(made)

    # --- copies and hidden information ---------------------------------------------------

    def current_scores(self) -> tuple[int, ...]:
        if self.result is not None:
            return self.result.scores
        columns = [[[CARDS[c] for c in column] for column in t] for t in self.tableaus]
        if self.family:
            return family_outcome(columns).scores
        return standard_outcome(score_pads(columns, self.claimed, self.soundtrack_die)).scores

    def clone(self) -> MovieTricksState:
        twin = object.__new__(MovieTricksState)
        twin.__dict__.update(self.__dict__)
        twin.rng = self.rng.copy()
        twin.market = list(self.market)
        twin.bonus_unused = list(self.bonus_unused)
        twin.bonus_deck = list(self.bonus_deck)
        twin.display = list(self.display)
        twin.discards = list(self.discards)
        twin.hands = [list(hand) for hand in self.hands]
        twin.draw_deck = list(self.draw_deck)
        twin.unused = list(self.unused)
        twin.tableaus = [[list(column) for column in tableau] for tableau in self.tableaus]
        twin.goals = list(self.goals)
        twin.goals_discarded = list(self.goals_discarded)
        twin.claimed = list(self.claimed)
        twin.allow = [dict(allow) for allow in self.allow]
        twin.plays = list(self.plays)
        twin.play_order = list(self.play_order)
        twin.boosted = list(self.boosted)
        twin.pick_order = list(self.pick_order)
        twin.bonus_order = list(self.bonus_order)
        twin._cache_views = dict(self._cache_views)
        return twin

    def indistinguishable(self, seat: int, rng: Rng) -> MovieTricksState:
        """Re-deal every playing card `seat` has not seen among the other hands, the unused
        cards and the draw deck, reshuffle the unseen bonus cards, and fork the generator.

        A seat that failed to follow a suit is known to hold none of it (beyond the cards it
        drew since), so the re-deal keeps those voids.
        """
        twin = self.clone()
        twin.rng = rng.fork(f"twin-{rng.below(1 << 62)}")
        twin._cache_views = {}
        twin._redeal_hidden(seat, rng)
        hidden_bonus = twin.bonus_deck + twin.bonus_unused
        rng.shuffle(hidden_bonus)
        split = len(twin.bonus_deck)
        twin.bonus_deck, twin.bonus_unused = hidden_bonus[:split], hidden_bonus[split:]
        if twin.turn is not None:
            twin._legal = twin._compute_legal(twin.turn)
        return twin

    def _redeal_hidden(self, seat: int, rng: Rng) -> None:
        piles: list[list[int]] = [
            hand for other, hand in enumerate(self.hands) if other != seat
        ] + [self.unused, self.draw_deck]
        owners: list[int | None] = [o for o in range(self._players) if o != seat] + [None, None]
        cells = [
            (p, i)
            for p, pile in enumerate(piles)
            for i, card in enumerate(pile)
            if _is_hidden(card)
        ]
        if len(cells) < 2:
            return
        for _ in range(4 * len(cells)):
            first, second = rng.pair(len(cells))
            (a, i), (b, j) = cells[first], cells[second]
            piles[a][i], piles[b][j] = piles[b][j], piles[a][i]
            if not (self._fits(owners[a], piles[a]) and self._fits(owners[b], piles[b])):
                piles[a][i], piles[b][j] = piles[b][j], piles[a][i]

    def _fits(self, owner: int | None, pile: list[int]) -> bool:
        if owner is None:
            return True
        for suit, most in self.allow[owner].items():
            if sum(1 for c in pile if _is_hidden(c) and CARDS[c].suit == suit) > most:
                return False
        return True


_VIEWS = Interner()
"""Views of the same cards are the same objects (see `Interner`)."""


_PLAYS: dict[tuple[int, int, bool], Play] = {}


def _play_view(play: tuple[int, int, bool]) -> Play:
    """A card played, made once per (seat, card, boosted)."""
    found = _PLAYS.get(play)
    if found is None:
        seat, card, boost = play
        found = _PLAYS[play] = Play(seat, CARDS[card], boost)
    return found


_CARD_TUPLES: dict[tuple[int, ...], tuple[Card, ...]] = {}
_LIMIT = 8192


def _cards(ids: list[int]) -> tuple[Card, ...]:
    """The cards of these ids; equal ids give the same tuple (see `Interner`)."""
    key = tuple(ids)
    found = _CARD_TUPLES.get(key)
    if found is None:
        if len(_CARD_TUPLES) >= _LIMIT:
            _CARD_TUPLES.clear()
        found = _CARD_TUPLES[key] = tuple(map(CARDS.__getitem__, key))
    return found


def _tableau(columns: list[list[int]], goal: int | None) -> Tableau:
    """A tableau's view: its columns' card tuples are the shared ones (see `_cards`)."""
    return frozen_record(Tableau, {"columns": tuple(map(_cards, columns)), "goal": goal})
