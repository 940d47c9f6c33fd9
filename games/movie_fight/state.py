"""The Movie Fight engine: twelve rounds of taking an offer card into a two-floor cinema.

A turn: optionally downgrade one upgraded card to replace the whole offer; take one of the three
offer cards and slide it into either floor as a viewer or a screen; refill the offer; a screen
fires its effect at once (a group effect asks every player in turn order, the owner first).
Solo: after each of the player's turns the automa flips its next card and takes and plays the
card it names; its group effects let the player upgrade.

A decision with a single legal move is applied by the engine at once, never asked.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from games.interface import (
    Outcome,
    TieBreak,
)
from games.movie_fight.cards import AUDIENCE, CARDS, DATA, NUMBERS, SCREEN, AutomaCard
from games.movie_fight.effects import upgradable
from games.movie_fight.moves import MOVE_TYPES, Downgrade, Move, Play, Refresh, Skip, Upgrade
from games.movie_fight.scoring import (
    automa_base,
    automa_tickets,
    breakdown,
    solo_ticket_points,
    ticket_points,
)
from games.movie_fight.views import (
    DOWNGRADE,
    OVER,
    PLAY,
    REFRESH,
    UPGRADE,
    Automa,
    Cinema,
    Floor,
    MovieFightObservation,
    Pending,
)
from games.rng import Rng
from games.turns import OneSeatAtATime

SIDES = ("A", "B")
LEVELS = (1, 2, 3, 4)
FLOORS = (1, 2)
_PASS = Skip()
_PLAYS = {
    (card, floor, side): Play(card, floor, side)
    for card in NUMBERS
    for floor in FLOORS
    for side in (AUDIENCE, SCREEN)
}
_AUTOMA_CARDS = {card.name: card for card in DATA.automa_cards}


def place(cinema: Cinema, card: int, floor: int, side: str) -> Cinema:
    """The cinema with ``card`` slid into ``floor`` (1 or 2) as a viewer or a screen."""
    floors = list(cinema.floors)
    old = floors[floor - 1]
    if side == AUDIENCE:
        floors[floor - 1] = Floor(audience=(*old.audience, card), screens=old.screens)
    else:
        floors[floor - 1] = Floor(audience=old.audience, screens=(*old.screens, card))
    return replace(cinema, floors=(floors[0], floors[1]))


def set_upgraded(cinema: Cinema, card: int, upgraded: bool) -> Cinema:
    cards = set(cinema.upgraded)
    if upgraded:
        cards.add(card)
    else:
        cards.discard(card)
    return replace(cinema, upgraded=tuple(sorted(cards)))


class MovieFightState(OneSeatAtATime):
    game_id: ClassVar[str] = "movie-fight"
    move_types: ClassVar[tuple[type[Any], ...]] = MOVE_TYPES

    def __init__(self, players: int, rng: Rng, side: str, level: int) -> None:
        self._players = players
        self.rng = rng
        self.side = side
        self.level = level
        self.solo = players == 1
        tiles = [tile.number for tile in DATA.tiles]
        rng.shuffle(tiles)
        self.cinemas = [Cinema(tile=tiles[seat % len(tiles)]) for seat in range(players)]
        self.deck = list(NUMBERS)
        rng.shuffle(self.deck)
        self.offer = [self.deck.pop(0) for _ in range(DATA.offer)]
        self.round = 1
        self.active = 0
        self.automa_turn = False
        self.phase = REFRESH
        self.turn: int | None = 0
        self.refreshed = False
        self.pending: Pending | None = None
        self.automa_audience: list[int] = []
        self.automa_screens: list[int] = []
        self.automa_pile: list[str] = []
        self.automa_aside: str | None = None
        self.automa_flipped: list[str] = []
        if self.solo:
            self._shuffle_automa()
        self.result: Outcome | None = None
        self._legal: tuple[Move, ...] = ()
        self._settle()

    @property
    def players(self) -> int:
        return self._players

    # --- the interface -------------------------------------------------------------------

    def observe(self, seat: int) -> MovieFightObservation:
        return self._view(seat)

    def spectate(self) -> MovieFightObservation:
        return self._view(None)

    def current_scores(self) -> tuple[int, ...]:
        return self.result.scores if self.result is not None else self._scores()[1]

    def clone(self) -> MovieFightState:
        twin = object.__new__(MovieFightState)
        twin.__dict__.update(self.__dict__)
        twin.rng = self.rng.copy()
        twin.cinemas = list(self.cinemas)
        twin.deck = list(self.deck)
        twin.offer = list(self.offer)
        twin.automa_audience = list(self.automa_audience)
        twin.automa_screens = list(self.automa_screens)
        twin.automa_pile = list(self.automa_pile)
        twin.automa_flipped = list(self.automa_flipped)
        return twin

    def indistinguishable(self, seat: int, rng: Rng) -> MovieFightState:
        """Only chance is hidden: the deck order and the automa's unflipped cards."""
        twin = self.clone()
        twin.rng = rng.fork(f"twin-{rng.below(1 << 62)}")
        rng.shuffle(twin.deck)
        if twin.automa_aside is not None:
            hidden = [*twin.automa_pile, twin.automa_aside]
            rng.shuffle(hidden)
            twin.automa_aside = hidden.pop()
            twin.automa_pile = hidden
        return twin

    # --- what a seat sees ----------------------------------------------------------------

    def _view(self, seat: int | None) -> MovieFightObservation:
        tickets, scores, automa_score = self._scores()
        automa = None
        if self.solo:
            automa = Automa(
                level=self.level,
                audience=tuple(self.automa_audience),
                screens=tuple(self.automa_screens),
                flipped=tuple(self.automa_flipped),
                unflipped=len(self.automa_pile),
            )
        return MovieFightObservation(
            seat=seat,
            players=self._players,
            side=self.side,
            round=min(self.round, DATA.rounds),
            rounds=DATA.rounds,
            phase=self.phase,
            turn=self.turn,
            active=self.active,
            offer=tuple(self.offer),
            deck=len(self.deck),
            cinemas=tuple(self.cinemas),
            tickets=tickets,
            scores=scores,
            refreshed=self.refreshed,
            pending=self.pending,
            automa=automa,
            automa_score=automa_score,
        )

    def _scores(self) -> tuple[tuple[int, ...], tuple[int, ...], int | None]:
        parts = [breakdown(cinema, self.side) for cinema in self.cinemas]
        tickets = tuple(p.tickets for p in parts)
        if self.solo:
            automa_sold = automa_tickets(self.automa_audience, self.automa_screens, self.level)
            mine, theirs = solo_ticket_points(tickets[0], automa_sold)
            base = automa_base(self.automa_audience, self.automa_screens, self.level)
            return tickets, (parts[0].subtotal + mine,), base + theirs
        places = ticket_points(tickets)
        return tickets, tuple(p.subtotal + t for p, t in zip(parts, places, strict=True)), None

    # --- moves ---------------------------------------------------------------------------

    def _compute_legal(self, seat: int) -> tuple[Move, ...]:
        cinema = self.cinemas[seat]
        if self.phase == REFRESH:
            return (*(Refresh(card) for card in cinema.upgraded), _PASS)
        if self.phase == PLAY:
            return tuple(
                _PLAYS[card, floor, side]
                for card in sorted(self.offer)
                for floor in FLOORS
                for side in (AUDIENCE, SCREEN)
            )
        pending = self.pending
        assert pending is not None
        effect = CARDS[pending.card].effect
        if self.phase == DOWNGRADE:
            moves: list[Move] = [
                Downgrade(card)
                for card in cinema.upgraded
                if upgradable(set_upgraded(cinema, card, False), effect, excluded=card)
            ]
            return (*moves, _PASS)
        if self.phase == UPGRADE:
            targets = upgradable(cinema, effect, excluded=pending.downgraded)
            upgrades = tuple(Upgrade(card) for card in targets)
            return upgrades if pending.downgraded is not None else (*upgrades, _PASS)
        return ()

    def _step(self, seat: int, move: Move) -> None:
        if self.phase == REFRESH:
            if isinstance(move, Refresh):
                self.cinemas[seat] = set_upgraded(self.cinemas[seat], move.card, False)
                self._refresh_offer()
                self.refreshed = True
            self.phase = PLAY
        elif self.phase == PLAY:
            assert isinstance(move, Play)
            self._take(move.card)
            self.cinemas[seat] = place(self.cinemas[seat], move.card, move.floor, move.side)
            if move.side == SCREEN:
                self._start_effect(seat, move.card, by_automa=False)
            else:
                self._end_turn()
        elif self.phase == DOWNGRADE:
            assert self.pending is not None
            if isinstance(move, Downgrade):
                self.cinemas[seat] = set_upgraded(self.cinemas[seat], move.card, False)
                self.pending = replace(self.pending, downgraded=move.card)
                self.phase = UPGRADE
            else:
                self._next_effect_seat(done=True)
        elif self.phase == UPGRADE:
            if isinstance(move, Upgrade):
                self.cinemas[seat] = set_upgraded(self.cinemas[seat], move.card, True)
            self._next_effect_seat(done=True)

    # --- the offer -----------------------------------------------------------------------

    def _take(self, card: int) -> None:
        self.offer.remove(card)
        if self.deck:
            self.offer.append(self.deck.pop(0))

    def _refresh_offer(self) -> None:
        self.deck.extend(self.offer)
        self.offer = [self.deck.pop(0) for _ in range(DATA.offer)]

    # --- effects -------------------------------------------------------------------------

    def _start_effect(self, owner: int, card: int, by_automa: bool) -> None:
        effect = CARDS[card].effect
        if by_automa:
            seats: tuple[int, ...] = (0,) if effect.group else ()
        elif effect.group:
            seats = tuple((owner + i) % self._players for i in range(self._players))
        else:
            seats = (owner,)
        self.pending = Pending(owner, card, seats, None, by_automa)
        self._next_effect_seat(done=False)

    def _next_effect_seat(self, done: bool) -> None:
        """Ask the next seat that can use the pending effect; end the turn when none is left."""
        pending = self.pending
        assert pending is not None
        seats = pending.seats[1:] if done else pending.seats
        effect = CARDS[pending.card].effect
        while seats:
            seat = seats[0]
            cinema = self.cinemas[seat]
            if effect.kind == "downgrade-upgrade":
                if cinema.upgraded:
                    self.pending = replace(pending, seats=seats, downgraded=None)
                    self.phase, self.turn = DOWNGRADE, seat
                    return
            elif upgradable(cinema, effect):
                self.pending = replace(pending, seats=seats, downgraded=None)
                self.phase, self.turn = UPGRADE, seat
                return
            seats = seats[1:]
        self.pending = None
        self._end_turn()

    # --- turns ---------------------------------------------------------------------------

    def _begin_turn(self, seat: int) -> None:
        self.active, self.automa_turn = seat, False
        self.refreshed = False
        self.phase, self.turn = REFRESH, seat

    def _end_turn(self) -> None:
        if self.solo and not self.automa_turn:
            self._automa_plays()
            return
        following = (self.active + 1) % self._players
        if following == 0:
            self.round += 1
            if self.round > DATA.rounds:
                self._finish()
                return
        self._begin_turn(following)

    def _shuffle_automa(self) -> None:
        cards = [card.name for card in DATA.automa_cards]
        self.rng.shuffle(cards)
        self.automa_aside = cards[0]
        self.automa_pile = cards[1:]
        self.automa_flipped = []

    def _automa_plays(self) -> None:
        self.automa_turn = True
        self.refreshed = False
        if not self.automa_pile:
            self._shuffle_automa()
        automa: AutomaCard = _AUTOMA_CARDS[self.automa_pile.pop(0)]
        self.automa_flipped.append(automa.name)
        if automa.refresh:
            self._refresh_offer()
            self.refreshed = True
            card = min(self.offer)
        else:
            card = self.offer[automa.take - 1]
        self._take(card)
        if automa.play == AUDIENCE:
            self.automa_audience.append(card)
        else:
            self.automa_screens.append(card)
            if automa.activate and CARDS[card].effect.group:
                self._start_effect(0, card, by_automa=True)
                return
        self._end_turn()

    def _finish(self) -> None:
        self.phase, self.turn = OVER, None
        self.pending = None
        parts = [breakdown(cinema, self.side) for cinema in self.cinemas]
        tickets, scores, automa_score = self._scores()
        detail: dict[str, Any] = {
            "breakdown": [
                {
                    "cinema": p.cinema,
                    "viewers": p.viewers,
                    "bonus": p.bonus,
                    "equipment_goal": p.equipment_goal,
                    "viewers_goal": p.viewers_goal,
                    "tickets": p.tickets,
                }
                for p in parts
            ]
        }
        if self.solo:
            assert automa_score is not None
            mine = scores[0]
            result = "win" if mine > automa_score else "loss" if mine < automa_score else "draw"
            detail["automa"] = {
                "level": self.level,
                "score": automa_score,
                "tickets": automa_tickets(self.automa_audience, self.automa_screens, self.level),
                "result": result,
            }
            # The ladder rates a solo match against this built-in reference player.
            detail["reference"] = {"player": automa_player(self.level), "score": automa_score}
        self.result = Outcome.ranked(scores, (TieBreak("tickets", tickets),), detail)


def automa_player(level: int) -> str:
    """The ladder's name for the automa at ``level``."""
    return f"automa:{level}"
