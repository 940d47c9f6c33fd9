"""Movie Tricks moves in words. Every move names a card that is face up once moved (a played
card joins the trick, a drafted or bonus card a tableau, a hand in front of all or the
discards), so every viewer is told the same."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.interface import Labels, Viewer
from games.movie_tricks.cards import CARDS, DATA, PLAYING, PLUS3, START, Card
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
from games.movie_tricks.views import MovieTricksObservation

if TYPE_CHECKING:
    from games.movie_tricks.state import MovieTricksState


def card_name(card: Card) -> str:
    if card.kind == PLAYING:
        return f"{card.suit} {card.value}"
    if card.kind == START:
        return f"{card.category} {card.value} starting card"
    if card.kind == PLUS3:
        return "+3 card"
    return f"{card.suit} {card.value} {card.category} bonus"


def _the(card: int) -> str:
    return f"the {card_name(CARDS[card])}"


def describe(before: MovieTricksState, seat: int, move: Any, viewer: Viewer) -> str:
    if isinstance(move, PlayCard):
        return f"plays {_the(move.card)}" + (" boosted by a +3 card" if move.boost else "")
    if isinstance(move, DraftCard):
        return f"drafts {_the(move.card)} into {CARDS[move.card].category}"
    if isinstance(move, ClaimGoal):
        stars = DATA.stars(move.need)
        return f"claims the {move.need}-props goal ({stars} stars)"
    if isinstance(move, DeclineGoal):
        return "claims no props goal"
    if isinstance(move, BonusToHand):
        return f"takes {_the(move.card)} into hand"
    if isinstance(move, BonusToTableau):
        return f"places {_the(move.card)} in {CARDS[move.card].category}"
    if isinstance(move, DiscardBonus):
        return f"discards {_the(move.card)}"
    if isinstance(move, ChooseTrump):
        return f"makes {move.suit} trump"
    raise TypeError(f"not a Movie Tricks move: {move!r}")


def group(before: MovieTricksState) -> str:
    return f"round {min(before.round, before.rounds)} of {before.rounds}"


def labels() -> Labels:
    return {"card": {str(card.id): card_name(card) for card in CARDS}}


def names_in(view: MovieTricksObservation) -> frozenset[str]:
    cards: list[Card] = [*view.hand, *view.market, *view.display, *view.discards]
    cards.extend(card for hand in view.known_hands for card in hand)
    cards.extend(play.card for play in view.plays)
    cards.extend(card for t in view.tableaus for column in t.columns for card in column)
    return frozenset(card_name(card) for card in cards)
